"""The order form's examples: orders drawn from the empire's own position now (its groups, its
cities, its territory and the free land beside it), each kept only if the GM's check (a dry run
of the empire's turn) passes it as written, so an example copied from the form is never
refuted; where none fits, the form says why, in the check's words."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from functools import partial
from itertools import islice

from gm.core.forms import first_example
from gm.core.model import JSONObject

from .cities import CITY_SPACING, placement_problem
from .grammar import parse_orders
from .orders import check_alone
from .turn import Turn

CANDIDATES = 2  # cities or blocks tried for an order word: each check is a dry run of the turn
# What the form says when the empire has nothing to try an order word on.
NOTHING = {
    "MOVE": "you have no troops",
    "BASE": "you have no city",
    "TREASURY": "every city of yours has one",
    "LAND": "no free land borders your territory",
    "CITY": "no block of your territory is far enough from every city",
}


def examples(state: JSONObject, seat: str) -> tuple[list[str], list[str]]:
    """(one example for each order word that has one now; each word that has none, with why).
    Before its capital stands an empire has nothing to build on or move: no examples."""
    turn = Turn(state)
    if not turn.seats[seat]["capital"]:
        return [], []
    found, none = [], []
    for word, candidates in WORDS.items():
        check = partial(check_alone, state, seat)  # no example needs another's E$
        example, refused = first_example(candidates(turn, seat), parse_orders, check)
        if example:
            found.append(example)
        else:
            none.append(f"{word} ({refused or NOTHING[word]})")
    return found, none


def _home(turn: Turn, seat: str) -> int:
    """The capital's block, or the empire's first city's when the capital is lost."""
    capital = turn.seats[seat]["capital"]
    mine = [capital] + sorted(turn.cities_of(seat))
    owned = [c for c in mine if c in turn.cities and turn.cities[c]["owner"] == seat]
    return turn.city_block(owned[0]) if owned else 0


def _by_distance(turn: Turn, seat: str, blocks: set[int]) -> list[int]:
    home = _home(turn, seat)
    return sorted(blocks, key=lambda i: (turn.board.distance(i, home), i))[:CANDIDATES]


def _cities(turn: Turn, seat: str) -> list[str]:
    capital = turn.seats[seat]["capital"]
    return sorted(turn.cities_of(seat), key=lambda c: (c != capital, c))


def _move(turn: Turn, seat: str) -> list[str]:
    groups = sorted((g for g, group in turn.groups.items() if group["owner"] == seat), key=lambda g: int(g[1:]))
    lines = []
    for gid in groups[:1]:
        i = turn.place(gid)
        steps = [n for n in turn.board.neighbours[i] if turn.may_stand(seat, n, turn.groups[gid]["troops"])]
        lines += [f"MOVE {gid} {turn.name(n)}" for n in steps]
    return lines


def _base(turn: Turn, seat: str) -> list[str]:
    return [f"BASE {cid}" for cid in _cities(turn, seat)][:CANDIDATES]


def _treasury(turn: Turn, seat: str) -> list[str]:
    return [f"TREASURY {cid}" for cid in _cities(turn, seat) if not turn.cities[cid]["treasury"]][:CANDIDATES]


def _land(turn: Turn, seat: str) -> list[str]:
    board = turn.board
    free = {
        n for i in turn.territory(seat) for n in board.neighbours[i] if not board.water[n] and turn.owner(n) is None
    }
    return [f"LAND {turn.name(i)}" for i in _by_distance(turn, seat, free)]


def _city(turn: Turn, seat: str) -> Iterator[str]:
    """Blocks of the territory where a city may go, nearest home first, found one at a time
    and two at most (a city that costs too much here costs as much anywhere)."""
    home = _home(turn, seat)
    blocks = sorted(turn.territory(seat), key=lambda i: (turn.board.distance(i, home), i))
    spots = (
        i
        for i in blocks
        if turn.board.distance(i, home) >= CITY_SPACING
        and placement_problem(turn, seat, i, capital=False) is None
        and not turn.foreign_at(seat, i)
    )
    return (f"CITY {turn.name(i)}" for i in islice(spots, 2))


WORDS: dict[str, Callable[[Turn, str], Iterable[str]]] = {
    "MOVE": _move,
    "BASE": _base,
    "TREASURY": _treasury,
    "LAND": _land,
    "CITY": _city,
}
