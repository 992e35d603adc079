"""A seven and the robber: discards above the limit (fences add 2), moving the robber, and the
theft; the same move serves the Warrior and Bishop cards and a warrior chasing the robber.
Where a player must choose, the standing answers of their turn file choose (rule D-IM-8);
without one, gm chooses as the rules' README says."""

from __future__ import annotations

from gm.core.model import Event, JSONObject

from .awards import points
from .board import Geometry
from .goods import DISCARD_LIMIT, FENCE_BONUS, GOODS, cards_text, hand_size
from .places import PIPS
from .turn import Turn


def discard_limit(state: JSONObject, seat: str) -> int:
    fences = sum(1 for b in state["buildings"].values() if b["owner"] == seat and b.get("fence"))
    return DISCARD_LIMIT + FENCE_BONUS * fences


def discards(turn: Turn, order: list[str]) -> None:
    """Everyone above their limit gives back half their cards, rounded down (rule D-IM-1)."""
    state = turn.state
    for seat in order:
        held, limit = hand_size(state["seats"][seat]["hand"]), discard_limit(state, seat)
        if held > limit:
            discard_half(
                turn,
                seat,
                "{name} holds {held} cards, more than " + str(limit) + ", and gives back {count}.",
                limit=limit,
            )


def discard_half(turn: Turn, seat: str, text: str, **data: object) -> None:
    """A seat gives back half its cards, rounded down, by its DISCARD answer: everyone reads how
    many (counts are open), only the seat which. text: the sentence, with {name}, {held} and
    {count} filled in."""
    state = turn.state
    hand = state["seats"][seat]["hand"]
    held = hand_size(hand)
    given = choose_discards(state, seat, held // 2)
    for good, n in given.items():
        hand[good] -= n
        state["bank"][good] += n
    turn.add(
        "discard",
        text.format(name=turn.name(seat), held=held, count=held // 2),
        seat=seat,
        held=held,
        count=held // 2,
        **data,
    )
    turn.add("discard_cards", f"You give back {cards_text(given)}.", (seat,), seat=seat, cards=given)


def choose_discards(state: JSONObject, seat: str, count: int) -> JSONObject:
    """The cards a seat gives back: those its DISCARD answer lists first (as held), then one
    at a time from its biggest pile (book order on a tie)."""
    hand = dict(state["seats"][seat]["hand"])
    given: dict[str, int] = {}
    for good in state["seats"][seat]["standing"].get("discard", []):
        if count and hand.get(good, 0) > 0:
            hand[good] -= 1
            given[good] = given.get(good, 0) + 1
            count -= 1
    while count:
        good = max(GOODS, key=lambda g: (hand[g], -GOODS.index(g)))
        hand[good] -= 1
        given[good] = given.get(good, 0) + 1
        count -= 1
    return given


def robber_tiles(state: JSONObject, geo: Geometry) -> list[str]:
    """Where the robber may go: any tile but its own and those under fog."""
    return [c for c in geo.tiles if c != state["robber"] and not state["board"]["tiles"][c]["fog"]]


def victims(state: JSONObject, geo: Geometry, seat: str, code: str, warriors: bool = False) -> list[str]:
    """Other players with a settlement next to a tile (or any piece, warriors: the Bishop's),
    in seating order."""
    corners = [str(v) for v in geo.tile_vertices[code]]
    owners = {state["buildings"][v]["owner"] for v in corners if v in state["buildings"]}
    if warriors:
        owners |= {state["warriors"][v]["owner"] for v in corners if v in state["warriors"]}
    return [s for s in state["seating"] if s in owners and s != seat]


def default_tile(state: JSONObject, geo: Geometry, seat: str) -> str | None:
    """Where gm puts the robber for a player who did not say: the tile that costs the other
    players most production (dots times their settlements), never one next to the mover's own
    settlements when another will do; ties by letter."""

    def harm(code: str) -> tuple[bool, int, int]:
        tile = state["board"]["tiles"][code]
        dots = PIPS.get(tile["number"], 0)
        hurt = own = 0
        for v in geo.tile_vertices[code]:
            b = state["buildings"].get(str(v))
            if b:
                weight = 2 if b["kind"] == "town" else 1
                if b["owner"] == seat:
                    own += weight
                else:
                    hurt += weight
        return (own == 0, dots * hurt, -geo.tiles.index(code))

    options = robber_tiles(state, geo)
    return max(options, key=harm) if options else None


def default_victim(state: JSONObject, geo: Geometry, seat: str, code: str) -> str | None:
    """Whom gm robs for a player who did not say: the one with most points shown, then most cards."""
    options = [s for s in victims(state, geo, seat, code) if hand_size(state["seats"][s]["hand"])]
    return richest(state, options) if options else None


def richest(state: JSONObject, options: list[str]) -> str:
    """gm's choice among players to take from: most points shown, then most cards, seating order."""
    return max(
        options,
        key=lambda s: (
            points(state, s, hidden=False),
            hand_size(state["seats"][s]["hand"]),
            -state["seating"].index(s),
        ),
    )


def move_robber(turn: Turn, seat: str, tile: str | None, victim: str | None, rob_all: bool = False) -> None:
    """Move the robber for a seat and rob: the tile and victim it named if they are allowed,
    else gm's defaults. rob_all: the Bishop robs every player next to the tile."""
    state, geo = turn.state, turn.geo
    stated = tile if tile is not None else (state["seats"][seat]["standing"].get("robber") or [None])[0]
    allowed = robber_tiles(state, geo)
    followed = stated in allowed
    if not followed:
        if stated is not None:
            # The answer itself was the seat's alone (rule D-ALL-5); the move is public.
            turn.add(
                "robber_choice",
                f"{turn.name(seat)} names tile {stated} for the robber, where it cannot go; gm chooses.",
                (seat,),
                seat=seat,
                tile=stated,
            )
        stated = default_tile(state, geo, seat)
    if stated is None:
        return
    state["robber"] = stated
    turn.add("robber", f"{turn.name(seat)} moves the robber to tile {stated}.", seat=seat, tile=stated)
    if rob_all:
        for other in victims(state, geo, seat, stated, warriors=True):
            steal(turn, seat, other)
        return
    named = victim if victim is not None else _standing_victim(state, seat)
    wanted, note = named, None
    if wanted not in victims(state, geo, seat, stated) or not hand_size(state["seats"][wanted]["hand"]):
        wanted = default_victim(state, geo, seat, stated)
        if followed and named is not None:
            note = _victim_replaced(turn, seat, stated, named, wanted)
    if wanted is not None:
        steal(turn, seat, wanted)
    if note is not None:
        # After the theft: "the current player must choose one of these players" reads as the
        # move and the theft together (the invariants hold them side by side).
        turn.events.append(note)


def _victim_replaced(turn: Turn, seat: str, tile: str, named: str, robbed: str | None) -> Event:
    """Why the player the seat named is not robbed, told to the seat alone as the tile's note
    is (rule D-ALL-5: its answer was its own; the theft that follows is public). That a hand is
    empty may be said: every seat sees how many cards a player holds."""
    if named == seat:
        why = "a player cannot rob themself"
    elif named in turn.state["seats"] and named in victims(turn.state, turn.geo, seat, tile):
        why = f"{turn.name(named)} holds no card"
    else:
        why = f"{turn.name(named)} has no village or town at tile {tile}"
    then = f"gm robs {turn.name(robbed)}" if robbed else "nobody there has a card to take"
    text = f"{turn.name(seat)} names {turn.name(named)} to rob at tile {tile}, but {why}; {then}."
    return Event("robber_choice", {"text": text, "seat": seat, "tile": tile, "victim": named}, (seat,))


def _standing_victim(state: JSONObject, seat: str) -> str | None:
    answer = state["seats"][seat]["standing"].get("robber") or [None, None]
    return answer[1] if len(answer) > 1 else None


def steal(turn: Turn, thief: str, victim: str) -> None:
    """One random card from the victim's hand to the thief's."""
    state = turn.state
    hand = state["seats"][victim]["hand"]
    pile = [g for g in GOODS for _ in range(hand[g])]
    if not pile:
        turn.add(
            "theft",
            f"{turn.name(victim)} has no card for {turn.name(thief)} to take.",
            thief=thief,
            victim=victim,
            taken=False,
        )
        return
    good = pile[turn.rng("theft").randrange(len(pile))]
    hand[good] -= 1
    state["seats"][thief]["hand"][good] += 1
    turn.add(
        "theft", f"{turn.name(thief)} takes a card from {turn.name(victim)}.", thief=thief, victim=victim, taken=True
    )
    turn.add("theft_card", f"The card taken was 1 {good}.", (thief, victim), thief=thief, victim=victim, good=good)
