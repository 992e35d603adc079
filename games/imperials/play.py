"""Playing an action card: which cards a PLAY order may name in each mode, whether the seat may
play it now, and the Basic cards' effects; the Wonders & Warriors cards' effects are in
science.py, commerce.py and military.py (rule D-IM-10). An effect says why it cannot start
(nothing changes and the card stays in the hand) or carries the card out."""

from __future__ import annotations

from collections.abc import Callable

from gm.core.model import JSONObject, Order

from . import commerce, military, science
from .actions import build_road
from .awards import update_army
from .cards import COLOUR_OF, PLAYABLE, TITLES
from .goods import RESOURCES, cards_text, take
from .places import road_problem
from .robber import move_robber
from .turn import Turn, voice

MODE_NAMES = {"basic": "the Basic game", "wonders": "Wonders & Warriors"}


def playable(turn: Turn, seat: str, card: str) -> JSONObject | None:
    """The card a seat may play now: held, and (Basic) not bought this round (rule D-IM-2)."""
    state = turn.state
    entry: JSONObject
    for entry in state["seats"][seat]["cards"]:
        if entry["card"] == card and not (entry.get("bought") and entry["round"] == state["round"]):
            return entry
    return None


def play_problem(turn: Turn, seat: str, card: str) -> str | None:
    """Why a seat cannot play a card now, before its effect is tried (None if it may)."""
    state = turn.state
    mode = state["mode"]
    if card not in PLAYABLE[mode]:
        other = next((m for m in PLAYABLE if card in PLAYABLE[m]), mode)
        return f"{TITLES[card]} is a card of {MODE_NAMES[other]}, not of {MODE_NAMES[mode]}"
    if mode == "basic" and turn.played:
        return "only one action card may be played in a turn"
    if playable(turn, seat, card) is None:
        held = any(c["card"] == card for c in state["seats"][seat]["cards"])
        if held:
            return "a card cannot be played in the turn it is bought"
        return f"{turn.name(seat)} holds no {TITLES[card]} card"
    return None


def play_card(turn: Turn, seat: str, order: Order, card: str, *args: str | int) -> None:
    """A PLAY order in the seat's turn: the card's effect, then the card leaves the hand (Basic:
    the game; Wonders & Warriors: back under its deck, to be dealt again)."""
    problem = play_problem(turn, seat, card)
    if problem is None and card == "alchemist":  # the turn's first was read before the roll
        problem = "one Alchemist a turn, read before the roll"
    problem = problem or EFFECTS[card](turn, seat, order, *args)
    if problem:
        return turn.failed(seat, order, problem)
    spend(turn, seat, card)


def spend(turn: Turn, seat: str, card: str) -> None:
    state = turn.state
    entry = playable(turn, seat, card)
    if entry is None:  # a Spy may have taken the very card it was played as
        return
    state["seats"][seat]["cards"].remove(entry)
    turn.played += 1
    if state["mode"] == "wonders":
        state["decks"][COLOUR_OF[card]].append(card)


def alchemist_dice(turn: Turn, seat: str) -> tuple[int, int] | None:
    """The dice a seat's PLAY ALCHEMIST sets for its own roll (rule D-IM-10: the implementation
    plays it before the roll, so by mail it is read before the roll), the card spent; None
    without one, or when the seat holds no Alchemist then (the order fails)."""
    order = next((o for o in turn.orders.get(seat, []) if o.verb == "PLAY" and o.args[0] == "alchemist"), None)
    if order is None:
        return None
    problem = play_problem(turn, seat, "alchemist")
    if problem:
        turn.failed(seat, order, problem)
        return None
    white, red = order.args[1], order.args[2]
    turn.add(
        "play",
        f"{turn.name(seat)} plays Alchemist before the roll: the white die shows {white}, the red {red}.",
        seat=seat,
        card="alchemist",
        white=white,
        red=red,
    )
    spend(turn, seat, "alchemist")
    return white, red


# ----------------------------------------------------------------------------------------------
# The Basic cards (rule D-IM-2). Road Building is in both decks.


def _warrior(turn: Turn, seat: str, order: Order, tile: str | None = None, victim: str | None = None) -> None:
    turn.add("play", f"{turn.name(seat)} plays a Warrior card.", seat=seat, card="warrior")
    move_robber(turn, seat, tile, victim)
    turn.seats[seat]["warriors_played"] += 1

    def note(old: str | None, new: str, played: int) -> None:
        turn.add(
            "strongest_army",
            f"{turn.name(new)} now has the strongest army ({played} Warrior cards played): 2 victory points.",
            seat=new,
            lost=old,
            count=played,
        )

    update_army(turn.state, seat, note)


def roads(turn: Turn, seat: str, order: Order, *edges: str) -> str | None:
    state = turn.state
    first = road_problem(state, turn.geo, seat, edges[0], voice(state, seat, you=False))
    if first:
        return first
    turn.add("play", f"{turn.name(seat)} plays Road Building.", seat=seat, card="roads")
    for edge in edges:
        build_road(turn, seat, order, edge, free=True)
    return None


def _plenty(turn: Turn, seat: str, order: Order, *goods: str) -> None:
    """Two resources from the bank. The book names the card and no more; D-IM-4 speaks of the
    roll, so the implementation decides a bank that is short (game/actions_devel.go): the card
    is spent, each resource named is given if the bank holds as many as named, and the rest are
    drawn at random from the bank's resources, as many as it holds, up to two in all (its card
    text: "Get any two cards from the market for free")."""
    state = turn.state
    wanted: dict[str, int] = {}
    for good in goods:
        wanted[good] = wanted.get(good, 0) + 1
    got = {good: n for good, n in wanted.items() if state["bank"][good] >= n}
    for good, n in got.items():
        take(state, seat, good, n)
    drawn: dict[str, int] = {}
    for _ in range(len(goods) - sum(got.values())):
        pile = [good for good in RESOURCES for _ in range(state["bank"][good])]
        if not pile:
            break
        good = pile[turn.rng("plenty").randrange(len(pile))]
        take(state, seat, good, 1)
        drawn[good] = drawn.get(good, 0) + 1
    taken = {good: got.get(good, 0) + drawn.get(good, 0) for good in RESOURCES if got.get(good) or drawn.get(good)}
    turn.add(
        "play",
        f"{turn.name(seat)} plays Year of Plenty and takes {cards_text(taken)}.",
        seat=seat,
        card="plenty",
        cards=taken,
    )
    unpaid = {good: n for good, n in wanted.items() if good not in got}
    if unpaid:  # what the bank lacked is the player's to read alone, as a failed order's reason
        instead = f"{cards_text(drawn)} drawn from it at random instead" if drawn else "it holds no resource"
        turn.add(
            "plenty_drawn",
            f"The bank cannot give {turn.name(seat)} {cards_text(unpaid)}: {instead}.",
            (seat,),
            seat=seat,
            unpaid=unpaid,
            drawn=drawn,
        )


def _monopoly(turn: Turn, seat: str, order: Order, good: str) -> None:
    total = commerce.collect(turn, seat, good, None)
    turn.add(
        "play",
        f"{turn.name(seat)} plays Monopoly on {good} and gets {total}.",
        seat=seat,
        card="monopoly",
        good=good,
        count=total,
    )


# Each effect takes the arguments grammar.CARD_ARGS gives its card, which well_formed guarantees.
EFFECTS: dict[str, Callable[..., str | None]] = {
    "warrior": _warrior,
    "roads": roads,
    "plenty": _plenty,
    "monopoly": _monopoly,
    **science.EFFECTS,
    **commerce.EFFECTS,
    **military.EFFECTS,
}
assert set(EFFECTS) | {"alchemist"} == {c for cards in PLAYABLE.values() for c in cards}
