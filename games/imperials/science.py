"""The science (green) action cards of Wonders & Warriors, as the game's implementation plays them
(rule D-IM-10): Crane, Engineer, Inventor, Irrigation, Medicine, Mining and Smith (Road Building
is play.py's, shared with the Basic deck; Alchemist is read before the roll, play.py; Printer is
a victory point shown at once). Each effect says why it cannot start, or carries the card out."""

from __future__ import annotations

from collections.abc import Callable

from gm.core.model import JSONObject, Order

from .actions import build_town
from .goods import YIELDS, take
from .places import town_problem
from .turn import Turn, voice
from .warriors import upgrade, upgrade_problem
from .wonders import build_fence, build_improvement, fence_problem, improvement_problem

MEDICINE = {"wheat": 1, "ore": 2}  # "Medicine: Build a town with 2 Ore and 1 Wheat"
HARVEST = 2  # Irrigation and Mining: cards for each tile
FIXED_NUMBERS = (2, 12, 6, 8)  # numbers the Inventor may not move


def crane(turn: Turn, seat: str, order: Order, colour: str, vertex: int | None = None) -> str | None:
    """The seat's next improvement of a colour for one commodity less."""
    problem = improvement_problem(turn, seat, colour, discount=1)
    if problem:
        return problem
    turn.add("play", f"{turn.name(seat)} plays Crane.", seat=seat, card="crane")
    return build_improvement(turn, seat, colour, vertex, discount=1)


def engineer(turn: Turn, seat: str, order: Order, vertex: int) -> str | None:
    """A fence for free on one of the seat's towns."""
    problem = fence_problem(turn, seat, vertex, free=True)
    if problem:
        return problem
    turn.add("play", f"{turn.name(seat)} plays Engineer.", seat=seat, card="engineer")
    build_fence(turn, seat, vertex, free=True)
    return None


def inventor(turn: Turn, seat: str, order: Order, first: str, second: str) -> str | None:
    """Two tiles swap their number tokens; neither may be a 2, 12, 6 or 8, nor under fog."""
    tiles = turn.state["board"]["tiles"]
    for code in (first, second):
        problem = _inventor_problem(tiles, code)
        if problem:
            return problem
    if first == second:
        return "the Inventor swaps the numbers of two different tiles"
    tiles[first]["number"], tiles[second]["number"] = tiles[second]["number"], tiles[first]["number"]
    turn.add(
        "play",
        f"{turn.name(seat)} plays Inventor: tile {first} now has number {tiles[first]['number']} and tile "
        f"{second} number {tiles[second]['number']}.",
        seat=seat,
        card="inventor",
        tiles=[first, second],
    )
    return None


def _inventor_problem(tiles: JSONObject, code: str) -> str | None:
    tile = tiles.get(code)
    if tile is None:
        return f"{code} is not a tile of this island"
    if tile["fog"]:
        return f"tile {code} is under fog"
    if tile["number"] is None or tile["number"] in FIXED_NUMBERS:
        return f"the number of tile {code} may not move (the Inventor leaves no number, 2, 12, 6 and 8)"
    return None


def harvest_tiles(state: JSONObject, turn: Turn, seat: str, kind: str) -> list[str]:
    """The tiles of a kind with one of the seat's villages or towns at a corner (not under fog)."""
    geo = turn.geo
    tiles = state["board"]["tiles"]
    return [
        c
        for c in geo.tiles
        if tiles[c]["kind"] == kind
        and not tiles[c]["fog"]
        and any(state["buildings"].get(str(v), {}).get("owner") == seat for v in geo.tile_vertices[c])
    ]


def _harvest(kind: str, card: str) -> Callable[[Turn, str, Order], str | None]:
    def effect(turn: Turn, seat: str, order: Order) -> str | None:
        state = turn.state
        good = YIELDS[kind]
        tiles = harvest_tiles(state, turn, seat, kind)
        if not tiles:
            return f"{turn.name(seat)} has no village or town at a {kind}"
        n = min(HARVEST * len(tiles), state["bank"][good])  # the implementation pays what the bank has
        if n:
            take(state, seat, good, n)
        turn.add(
            "play",
            f"{turn.name(seat)} plays {card.title()}: {n} {good} from {len(tiles)} {kind}(s).",
            seat=seat,
            card=card,
            good=good,
            count=n,
        )
        return None

    return effect


def medicine(turn: Turn, seat: str, order: Order, vertex: int) -> str | None:
    """A village of the seat's becomes a town for 2 ore and 1 wheat."""
    state = turn.state
    problem = town_problem(state, turn.geo, seat, vertex, voice(state, seat, you=False)) or turn.lacks(seat, MEDICINE)
    if problem:
        return problem
    turn.add("play", f"{turn.name(seat)} plays Medicine.", seat=seat, card="medicine")
    build_town(turn, seat, order, vertex, cost=MEDICINE)
    return None


def smith(turn: Turn, seat: str, order: Order, *vertices: int) -> str | None:
    """Up to two of the seat's warriors upgraded for free (a mighty one needs the barracks)."""
    state = turn.state
    first = state["warriors"].get(str(vertices[0]))
    if first is None or first["owner"] != seat:
        return f"{turn.name(seat)} has no warrior at vertex {vertices[0]}"
    problem = upgrade_problem(state, seat, first, vertices[0])
    if problem:
        return problem
    turn.add("play", f"{turn.name(seat)} plays Smith.", seat=seat, card="smith")
    for vertex in dict.fromkeys(vertices):
        upgrade(turn, seat, order, vertex, free=True)
    return None


EFFECTS: dict[str, Callable[..., str | None]] = {
    "crane": crane,
    "engineer": engineer,
    "inventor": inventor,
    "irrigation": _harvest("farm", "irrigation"),
    "medicine": medicine,
    "mining": _harvest("mine", "mining"),
    "smith": smith,
}
