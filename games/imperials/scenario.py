"""Imperials scenarios: TOML text in, a validated scenario dict out (no file access here).

A scenario draws the island as rows of text, one character per tile slot ('.' land, '?' land
under fog, anything else blank), in doubled hex columns: a tile every second character, each row
shifted by one against its neighbours. `tiles` is either a table of counts (the board is dealt by
the seeded generator when the game is created) or a list of kinds in reading order (a fixed
board); `numbers` likewise a multiset or the tokens of the producing tiles in reading order.
"""

from __future__ import annotations

import re

from gm.core.maps import duplicates
from gm.core.model import JSONObject
from gm.core.scenarios import Fields, load_staged, seat_counts

from .board import geometry
from .goods import KINDS, RESOURCES

REQUIRED_TOP = ("name", "title", "min_seats", "max_seats")
TOP_KEYS = set(REQUIRED_TOP) | {"map", "tiles", "numbers", "ports", "port_start", "seat"}
SEAT_KEYS = {"code", "name", "colour"}
SEAT_CODE = re.compile(r"[A-Z][A-Z0-9]{0,5}")
PORTS = ("3:1", *RESOURCES)
NUMBERS = (2, 3, 4, 5, 6, 8, 9, 10, 11, 12)


def load_scenario_text(text: str, source: str) -> JSONObject:
    """Parse and validate a scenario; raise ScenarioError naming the source and every problem."""
    return load_staged(text, source, (_read_fields, _check_board, _check_sizes), _normalise)


def _read_fields(raw: JSONObject) -> list[str]:
    problems: list[str] = []
    top = Fields(raw, "the scenario", problems)
    top.unknown(TOP_KEYS)
    top.top(REQUIRED_TOP, {"port_start": 0})
    if not (isinstance(raw.get("map"), list) and raw["map"] and all(isinstance(r, str) for r in raw["map"])):
        problems.append('map must be a list of rows of text, like ["  . . .", " . . . ."]')
    tiles = raw.get("tiles")
    if isinstance(tiles, dict):
        for kind, count in tiles.items():
            if kind not in KINDS:
                problems.append(f"tiles: {kind!r} is not a kind of tile; kinds are {', '.join(KINDS)}")
            elif not (isinstance(count, int) and not isinstance(count, bool) and count >= 0):
                problems.append(f"tiles: {kind} must be a whole number, not {count!r}")
    elif isinstance(tiles, list):
        problems += [
            f"tiles: {kind!r} is not a kind of tile; kinds are {', '.join(KINDS)}"
            for kind in tiles
            if kind not in KINDS
        ]
    else:
        problems.append("tiles must be a table of counts (a dealt board) or a list of kinds (a fixed board)")
    numbers = raw.get("numbers")
    if not (isinstance(numbers, list) and all(n in NUMBERS and not isinstance(n, bool) for n in numbers)):
        problems.append("numbers must be a list of number tokens from 2 to 12, without 7")
    ports = raw.get("ports", [])
    if not (isinstance(ports, list) and all(p in PORTS for p in ports)):
        problems.append(f"ports must be a list of port kinds: {', '.join(PORTS)}")
    if "seat" not in raw:
        problems.append("the scenario has no [[seat]] entries")
    for i, seat in enumerate(top.optional("seat", "tables") or [], 1):
        fields = Fields(seat, f"seat #{i}", problems)
        fields.unknown(SEAT_KEYS)
        fields.code(SEAT_CODE, "seat", "1 to 6 capital letters or digits, like RED")
        fields.get("name", "str")
        fields.colour()
    return problems


def slots_of(rows: list[str]) -> tuple[list[tuple[int, int]], list[int]]:
    """The map's tile slots (c, r) in reading order, and the indexes of the fog slots."""
    slots: list[tuple[int, int]] = []
    fog: list[int] = []
    for r, row in enumerate(rows):
        for c, char in enumerate(row):
            if char in ".?":
                if char == "?":
                    fog.append(len(slots))
                slots.append((c, r))
    return slots, fog


def _check_board(raw: JSONObject) -> list[str]:
    problems: list[str] = []
    slots, _ = slots_of(raw["map"])
    if not slots:
        return ["the map has no tiles: mark land with '.' (or '?' under fog)"]
    if len({(c + r) % 2 for c, r in slots}) != 1:
        problems.append(
            "the map's tiles do not line up as hexes: put a tile every second "
            "character and shift each row by one against the row above"
        )
    tiles = raw["tiles"]
    kinds = _kinds(tiles)
    if len(kinds) != len(slots):
        problems.append(f"the map has {len(slots)} tiles but tiles lists {len(kinds)}")
    producing = sum(1 for k in kinds if k != "desert")
    if len(raw["numbers"]) != producing:
        problems.append(
            f"numbers has {len(raw['numbers'])} tokens but {producing} tiles produce "
            "(every tile except the desert takes one)"
        )
    if not problems:
        coast = geometry(tuple(slots)).coast
        if len(raw.get("ports", [])) * 2 > len(coast):
            problems.append(
                f"{len(raw['ports'])} ports do not fit on a coast of {len(coast)} edges "
                "(at most one port every second edge)"
            )
        if len(coast) < len([e for e, t in geometry(tuple(slots)).edge_tiles.items() if len(t) == 1]):
            problems.append("the island must be one piece of land without lakes")
    return problems


def _kinds(tiles: list[str] | dict[str, int]) -> list[str]:
    if isinstance(tiles, list):
        return list(tiles)
    return [kind for kind in KINDS for _ in range(tiles.get(kind, 0))]


def _check_sizes(raw: JSONObject) -> list[str]:
    problems: list[str] = []
    problems += duplicates([s["code"] for s in raw["seat"]], "seat code")
    problems += seat_counts(raw, len(raw["seat"]))
    high = raw["max_seats"]
    if high > 6:
        problems.append(f"max_seats is {high}; the report's colours are made for at most 6")
    return problems


def _normalise(raw: JSONObject) -> JSONObject:
    slots, fog = slots_of(raw["map"])
    return {
        "name": raw["name"],
        "title": raw["title"],
        "min_seats": raw["min_seats"],
        "max_seats": raw["max_seats"],
        "slots": [list(s) for s in slots],
        "fog": fog,
        "layout": "fixed" if isinstance(raw["tiles"], list) else "dealt",
        "tiles": _kinds(raw["tiles"]),
        "numbers": list(raw["numbers"]),
        "ports": list(raw.get("ports", [])),
        "port_start": raw.get("port_start", 0),
        "seats": [{"code": s["code"], "name": s["name"], "colour": s["colour"].lower()} for s in raw["seat"]],
    }
