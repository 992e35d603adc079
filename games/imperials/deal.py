"""Dealing the board when a game is created: a fixed board as the scenario lists it, or a fair
one from the seeded generator (rule D-ALL-1: the generator's only chance is the rng it is given,
and the dealt board is stored in the state, so `gm turn verify` replays the same island).

Fair means no two red tokens (6 and 8) on neighbouring tiles, fog included.
"""

from __future__ import annotations

from random import Random

from gm.core.model import JSONObject

from .board import Geometry, geometry

RED = (6, 8)
TRIES = 500  # shuffles tried before the red tokens are moved apart by swaps


def deal_board(scenario: JSONObject, rng: Random) -> JSONObject:
    """The board of a new game: tiles by letter (kind, number, fog), ports, the robber's tile."""
    slots = tuple(tuple(s) for s in scenario["slots"])
    geo = geometry(slots)
    kinds, numbers = list(scenario["tiles"]), list(scenario["numbers"])
    ports = list(scenario["ports"])
    if scenario["layout"] == "dealt":
        kinds, numbers = _fair(geo, kinds, numbers, rng)
        rng.shuffle(ports)
    tokens = iter(numbers)
    fog = set(scenario["fog"])
    tiles = {}
    for index, code in enumerate(geo.tiles):
        kind = kinds[index]
        tiles[code] = {"kind": kind, "number": None if kind == "desert" else next(tokens), "fog": index in fog}
    robber = next((c for c in geo.tiles if tiles[c]["kind"] == "desert" and not tiles[c]["fog"]), None)
    return {
        "slots": [list(s) for s in slots],
        "tiles": tiles,
        "ports": _ports(geo, ports, scenario["port_start"]),
        "robber": robber,
    }


def _fair(geo: Geometry, kinds: list[str], numbers: list[int], rng: Random) -> tuple[list[str], list[int]]:
    """Kinds shuffled over the slots and tokens over the producing tiles, reshuffled until no
    two red tokens touch; after TRIES shuffles the last deal is mended by swapping tokens."""
    for _ in range(TRIES):
        rng.shuffle(kinds)
        rng.shuffle(numbers)
        if not red_neighbours(geo, kinds, numbers):
            return kinds, numbers
    return kinds, _mend(geo, kinds, numbers, rng)


def placed_numbers(geo: Geometry, kinds: list[str], numbers: list[int]) -> dict[str, int]:
    """Tile letter -> token, for the producing tiles in reading order."""
    tokens = iter(numbers)
    return {code: next(tokens) for code, kind in zip(geo.tiles, kinds) if kind != "desert"}


def red_neighbours(geo: Geometry, kinds: list[str], numbers: list[int]) -> list[tuple[str, str]]:
    """Pairs of neighbouring tiles that both hold a red token (6 or 8)."""
    placed = placed_numbers(geo, kinds, numbers)
    red = {code for code, n in placed.items() if n in RED}
    return [(a, b) for a in sorted(red) for b in geo.tile_neighbours[a] if b in red and a < b]


def _mend(geo: Geometry, kinds: list[str], numbers: list[int], rng: Random) -> list[int]:
    # Swap a red token that touches another with a plain token on a tile clear of red ones.
    numbers = list(numbers)
    order = [code for code, kind in zip(geo.tiles, kinds) if kind != "desert"]
    for _ in range(len(numbers) * 4):
        clash = red_neighbours(geo, kinds, numbers)
        if not clash:
            break
        placed = placed_numbers(geo, kinds, numbers)
        red = {c for c, n in placed.items() if n in RED}
        calm = [
            c
            for c in order
            if placed[c] not in RED and not any(n in red for n in geo.tile_neighbours[c] if n != clash[0][1])
        ]
        if not calm:
            break
        a, b = order.index(clash[0][1]), order.index(rng.choice(calm))
        numbers[a], numbers[b] = numbers[b], numbers[a]
    return numbers


def _ports(geo: Geometry, kinds: list[str], start: int) -> list[JSONObject]:
    """Ports spread evenly along the coast, starting `start` edges after the coast's first."""
    coast = geo.coast
    if not kinds or not coast:
        return []
    step = len(coast) / len(kinds)
    return [
        {"edge": coast[(start + int(i * step + step / 2)) % len(coast)], "kind": kind} for i, kind in enumerate(kinds)
    ]
