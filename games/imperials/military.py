"""The military (blue) action cards of Wonders & Warriors, as the game's implementation plays them
(rule D-IM-10): Bishop, Deserter, Diplomat, Intrigue, Saboteur, Spy, Warlord and Wedding
(Constitution is a victory point shown at once). Each effect says why it cannot start, or
carries the card out. Where the implementation asks another player to choose, that player's
standing answers choose by mail (its DISCARD answer for the cards it gives), else gm's rule."""

from __future__ import annotations

from collections.abc import Callable

from gm.core.model import JSONObject, Order

from .actions import build_road
from .awards import longest
from .board import Geometry
from .cards import TITLES
from .commerce import others_after, richer
from .goods import cards_text, hand_from, hand_size
from .robber import choose_discards, discard_half, move_robber
from .setup import order_of_play
from .turn import Turn
from .warriors import LEVEL_NAMES, PIECES_PER_LEVEL, displace, warriors_of
from .wonders import STRATEGIC_LEVEL

WEDDING = 2  # cards each richer player gives


def bishop(turn: Turn, seat: str, order: Order, tile: str | None = None) -> None:
    """The robber moves (the tile named, else the ROBBER answer, else gm's), and the seat takes a
    random card from every other player with a piece at that tile, warriors too (as the
    implementation counts the pieces at a tile)."""
    turn.add("play", f"{turn.name(seat)} plays Bishop.", seat=seat, card="bishop")
    move_robber(turn, seat, tile, None, rob_all=True)


def deserter(turn: Turn, seat: str, order: Order, target: str, vertex: int | None = None) -> str | None:
    """A player with a warrior gives one up (its choice: by gm's rule its weakest, an inactive one
    first, then the lowest vertex); the seat places a warrior of that level, active as it was, at
    the vertex named, else at the lowest free vertex at the end of its roads, if it has such a
    piece left (a mighty one needs the barracks)."""
    state = turn.state
    deserting = deserted(state, seat, target)
    if deserting is None:
        return "no other player has a warrior"
    victim, lost = deserting
    warrior = state["warriors"].pop(str(lost))
    level = LEVEL_NAMES[warrior["level"]]
    turn.add(
        "play",
        f"{turn.name(seat)} plays Deserter: {turn.name(victim)}'s {level} warrior at vertex {lost} leaves the board.",
        seat=seat,
        card="deserter",
        victim=victim,
        vertex=lost,
        level=warrior["level"],
    )
    spot = deserter_spot(state, turn.geo, seat, warrior["level"], vertex)
    if spot is None:
        turn.add(
            "deserter_lost",
            f"{turn.name(seat)} has no {level} warrior left to place, or nowhere to place it.",
            seat=seat,
        )
        return None
    state["warriors"][str(spot)] = {
        "owner": seat,
        "level": warrior["level"],
        "active": warrior["active"],
        "activated": None,
    }
    turn.add(
        "warrior",
        f"{turn.name(seat)} places a {level} warrior at vertex {spot}{' (active)' if warrior['active'] else ''}.",
        seat=seat,
        vertex=spot,
        free=True,
    )
    return None


def deserted(state: JSONObject, seat: str, target: str) -> tuple[str, int] | None:
    """Who gives up a warrior to a seat's Deserter and the vertex of the one given: the player
    named if it has a warrior, else the first other in order of play with one; its weakest
    warrior, an inactive one first, then the lowest vertex (gm's rule). None: nobody has one.
    The check of a turn file plays the card on its copy of the board the same way."""
    sequence = order_of_play(state)
    start = sequence.index(seat) if seat in sequence else 0
    options = [o for o in sequence[start + 1 :] + sequence[:start] if warriors_of(state, o)]
    if not options:
        return None
    victim = target if target in options else options[0]
    return victim, min(warriors_of(state, victim), key=lambda v: _deserter_key(state, v))


def _deserter_key(state: JSONObject, vertex: int) -> tuple[int, bool, int]:
    warrior = state["warriors"][str(vertex)]
    return (warrior["level"], warrior["active"], vertex)


def deserter_spot(state: JSONObject, geo: Geometry, seat: str, level: int, wanted: int | None) -> int | None:
    """Where a seat places the warrior its Deserter brought: the vertex named if free at the end
    of its roads, else the lowest such; None without a piece of that level (or the barracks)."""
    if len(warriors_of(state, seat, level)) >= PIECES_PER_LEVEL:
        return None
    if level == 3 and state["seats"][seat]["improvements"]["military"] < STRATEGIC_LEVEL:
        return None
    ends = {v for e, o in state["roads"].items() if o == seat for v in geo.edge_ends[e]}
    free = sorted(v for v in ends if str(v) not in state["buildings"] and str(v) not in state["warriors"])
    return wanted if wanted in free else (free[0] if free else None)


def open_roads(state: JSONObject, geo: Geometry) -> list[str]:
    """Roads the Diplomat may remove: an end where its owner has neither a piece nor another road."""
    found = []
    for edge, owner in sorted(state["roads"].items()):
        for end in geo.edge_ends[edge]:
            piece = state["buildings"].get(str(end)) or state["warriors"].get(str(end))
            own_road = any(e != edge and state["roads"].get(e) == owner for e in geo.vertex_edges[end])
            if not (piece and piece["owner"] == owner) and not own_road:
                found.append(edge)
                break
    return found


def diplomat(turn: Turn, seat: str, order: Order, edge: str, again: str | None = None) -> str | None:
    """An open road of any player leaves the board; a road of the seat's own may be placed again
    on the second edge the order names (if it may stand there)."""
    state = turn.state
    if edge not in state["roads"]:
        return f"there is no road on {edge}"
    if edge not in open_roads(state, turn.geo):
        return f"the road on {edge} is not open: its owner has a piece or another road at both ends"
    owner = state["roads"].pop(edge)
    turn.add(
        "play",
        f"{turn.name(seat)} plays Diplomat: {turn.name(owner)}'s road on {edge} is removed.",
        seat=seat,
        card="diplomat",
        owner=owner,
        edge=edge,
    )
    longest(turn)
    if owner == seat and again is not None:
        build_road(turn, seat, order, again, free=True)
    return None


def intrigue(turn: Turn, seat: str, order: Order, vertex: int) -> str | None:
    """Another player's warrior at the end of one of the seat's roads is displaced."""
    state, geo = turn.state, turn.geo
    warrior = state["warriors"].get(str(vertex))
    if warrior is None or warrior["owner"] == seat:
        return f"no warrior of another player stands on vertex {vertex}"
    if not any(state["roads"].get(e) == seat for e in geo.vertex_edges[vertex]):
        return f"vertex {vertex} is not at the end of one of {turn.name(seat)}'s roads"
    turn.add(
        "play",
        f"{turn.name(seat)} plays Intrigue on {turn.name(warrior['owner'])}'s warrior at vertex {vertex}.",
        seat=seat,
        card="intrigue",
        vertex=vertex,
    )
    del state["warriors"][str(vertex)]
    displace(turn, warrior, vertex)
    return None


def saboteur(turn: Turn, seat: str, order: Order) -> str | None:
    """Every other player with as many points as the seat or more (points everyone sees) and more
    than one card gives back half its cards, rounded down, as on a seven."""
    state = turn.state
    options = [o for o in richer(state, seat, others_after(turn, seat), strictly=False) if _cards(state, o) > 1]
    if not options:
        return f"nobody with as many points as {turn.name(seat)} holds more than one card"
    turn.add("play", f"{turn.name(seat)} plays Saboteur.", seat=seat, card="saboteur")
    for other in options:
        discard_half(turn, other, "Saboteur: {name} holds {held} cards and gives back {count}.", card="saboteur")
    return None


def spy(turn: Turn, seat: str, order: Order, target: str, wanted: str | None = None) -> str | None:
    """The seat looks at another player's action cards and takes one: the one the order names if
    that player holds it, else one at random."""
    state = turn.state
    options = [o for o in others_after(turn, seat) if state["seats"][o]["cards"]]
    if not options:
        return "no other player holds an action card"
    victim = target if target in options else max(options, key=lambda o: len(state["seats"][o]["cards"]))
    cards = state["seats"][victim]["cards"]
    named = [c for c in cards if c["card"] == wanted]
    entry = named[0] if named else cards[turn.rng("theft").randrange(len(cards))]
    cards.remove(entry)
    state["seats"][seat]["cards"].append({"card": entry["card"], "round": state["round"], "bought": False})
    turn.add(
        "play",
        f"{turn.name(seat)} plays Spy and takes an action card from {turn.name(victim)}.",
        seat=seat,
        card="spy",
        victim=victim,
    )
    turn.add(
        "card_taken",
        f"The action card taken was {TITLES[entry['card']]}.",
        (seat, victim),
        seat=seat,
        victim=victim,
        card=entry["card"],
    )
    return None


def warlord(turn: Turn, seat: str, order: Order) -> str | None:
    state = turn.state
    woken = [v for v in warriors_of(state, seat) if not state["warriors"][str(v)]["active"]]
    if not woken:
        return f"{turn.name(seat)} has no warrior that is not active"
    for v in woken:
        state["warriors"][str(v)].update(active=True, activated=state["round"])
    turn.add(
        "play",
        f"{turn.name(seat)} plays Warlord and activates {len(woken)} warrior(s).",
        seat=seat,
        card="warlord",
        count=len(woken),
    )
    return None


def wedding(turn: Turn, seat: str, order: Order) -> str | None:
    """Every other player with more points than the seat (points everyone sees) gives it 2 cards
    of its own choice (by its DISCARD answer, then its biggest pile), in the open as the
    implementation shows them."""
    state = turn.state
    options = [o for o in richer(state, seat, others_after(turn, seat), strictly=True) if _cards(state, o)]
    if not options:
        return f"nobody with more points than {turn.name(seat)} holds a card"
    turn.add("play", f"{turn.name(seat)} plays Wedding.", seat=seat, card="wedding")
    for other in options:
        given = choose_discards(state, other, min(WEDDING, _cards(state, other)))
        hand_from(other, seat, state, given)
        turn.add(
            "gift",
            f"{turn.name(other)} gives {turn.name(seat)} {cards_text(given)}.",
            seat=other,
            partner=seat,
            cards=given,
        )
    return None


def _cards(state: JSONObject, seat: str) -> int:
    return hand_size(state["seats"][seat]["hand"])


EFFECTS: dict[str, Callable[..., str | None]] = {
    "bishop": bishop,
    "deserter": deserter,
    "diplomat": diplomat,
    "intrigue": intrigue,
    "saboteur": saboteur,
    "spy": spy,
    "warlord": warlord,
    "wedding": wedding,
}
