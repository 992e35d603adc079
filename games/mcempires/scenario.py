"""Minecraft EMPIRES scenarios: TOML text in, a validated scenario dict out (no file access).

A scenario gives a hand-made world (terrain rows and capital sites) or asks for a generated one
(of a given size, or sized for the seats and the mode), and may list its own empires; without
[[seat]] tables it takes the first max_seats of the sixteen standard empires."""

from __future__ import annotations

import re

from gm.core.maps import duplicates
from gm.core.model import JSONObject
from gm.core.scenarios import Fields, load_staged

from .cities import CITY_SPACING
from .world import LAND_LIMITS, TERRAIN_NAMES, WATER

# "2-16 Players": sixteen empires, each "differentiated by a set of uniform colored blocks".
# code, colour name, colour, mark (the letter of its territory in the state's rows).
EMPIRES = (
    ("RE", "Red", "#e6194b", "R"),
    ("BL", "Blue", "#2f55d4", "B"),
    ("YE", "Yellow", "#ffd21f", "Y"),
    ("PU", "Purple", "#8e2bc9", "P"),
    ("OR", "Orange", "#f58231", "O"),
    ("CY", "Cyan", "#22c4e8", "C"),
    ("MA", "Magenta", "#ee3fd9", "M"),
    ("BK", "Black", "#262626", "K"),
    ("TE", "Teal", "#0e8a80", "T"),
    ("BR", "Brown", "#8b5a2b", "N"),
    ("LI", "Lime", "#b5e61d", "L"),
    ("IN", "Indigo", "#1c1c7a", "I"),
    ("SA", "Salmon", "#ff9f8a", "S"),
    ("GR", "Green", "#1f7a1f", "G"),
    ("WI", "Wine", "#7d1131", "W"),
    ("LA", "Lavender", "#c4a8ff", "A"),
)
MAX_SEATS = len(EMPIRES)
MIN_SIDE, MAX_SIDE = 12, 160  # "Grid sizes up to 160x160"
TOP_KEYS = {"name", "title", "min_seats", "max_seats", "world", "seat"}
WORLD_KEYS = {"terrain", "sites", "size"}
SEAT_KEYS = {"code", "name", "colour", "mark"}
SEAT_CODE = re.compile(r"[A-Z]{2}")
MARK = re.compile(r"[A-Z]")


def load_scenario_text(text: str, source: str) -> JSONObject:
    """Parse and validate a scenario; raise ScenarioError naming the source and every problem."""
    return load_staged(text, source, (_read_fields, _check_world, _check_seats), _normalise)


def _read_fields(raw: JSONObject) -> list[str]:
    problems: list[str] = []
    top = Fields(raw, "the scenario", problems)
    top.unknown(TOP_KEYS)
    top.top(("name", "title", "min_seats", "max_seats"), {})
    world = raw.get("world")
    if not isinstance(world, dict):
        problems.append("the scenario has no [world] table")
        return problems
    fields = Fields(world, "[world]", problems)
    fields.unknown(WORLD_KEYS)
    fields.optional("terrain", "str")
    fields.optional("size", "int")
    for i, seat in enumerate(top.optional("seat", "tables") or [], 1):
        seat_fields = Fields(seat, f"seat #{i}", problems)
        seat_fields.unknown(SEAT_KEYS)
        seat_fields.code(SEAT_CODE, "seat", "2 capital letters, like RE")
        seat_fields.get("name", "str")
        seat_fields.colour()
        mark = seat_fields.get("mark", "str")
        if mark is not None and not MARK.fullmatch(mark):
            problems.append(f"{seat_fields.where}: mark must be one capital letter, not {mark!r}")
    return problems


def _rows(world: JSONObject) -> list[str]:
    return [row.strip() for row in world.get("terrain", "").strip().splitlines() if row.strip()]


def _check_world(raw: JSONObject) -> list[str]:
    world = raw["world"]
    problems: list[str] = []
    if "terrain" in world and "size" in world:
        return ["[world] gives either terrain (a hand-made map) or size (a generated one), not both"]
    if "size" in world and not MIN_SIDE <= world["size"] <= MAX_SIDE:
        problems.append(f"[world] size must be between {MIN_SIDE} and {MAX_SIDE}, not {world['size']}")
    if "terrain" not in world:
        if "sites" in world:
            problems.append("[world] sites are only for a hand-made terrain")
        return problems
    rows = _rows(world)
    if not MIN_SIDE <= len(rows) <= MAX_SIDE:
        return [f"the terrain has {len(rows)} rows; it needs {MIN_SIDE} to {MAX_SIDE}"]
    width = len(rows[0])
    for y, row in enumerate(rows):
        if len(row) != width:
            problems.append(f"terrain row {y} has {len(row)} blocks, not {width} like row 0")
        bad = sorted(set(row) - set(TERRAIN_NAMES))
        if bad:
            problems.append(
                f"terrain row {y} has {bad[0]!r}, which is not a terrain letter ({' '.join(TERRAIN_NAMES)})"
            )
    if not MIN_SIDE <= width <= MAX_SIDE:
        problems.append(f"the terrain is {width} blocks wide; it needs {MIN_SIDE} to {MAX_SIDE}")
    if problems:
        return problems
    return _check_sites(world.get("sites"), rows, raw["max_seats"])


def _check_sites(sites: object, rows: list[str], seats: int) -> list[str]:
    """A hand-made map lists a capital site for each seat: on land, far enough apart."""
    if not isinstance(sites, list) or not all(
        isinstance(s, list) and len(s) == 2 and all(isinstance(v, int) for v in s) for s in sites
    ):
        return ["[world] sites must be a list of [x, y] blocks, one per seat"]
    problems = []
    if len(sites) < seats:
        problems.append(f"[world] lists {len(sites)} sites but max_seats is {seats}")
    for x, y in sites:
        if not (0 <= y < len(rows) and 0 <= x < len(rows[0])):
            problems.append(f"site {x},{y} is off the map")
        elif rows[y][x] in WATER or rows[y][x] not in LAND_LIMITS:
            problems.append(f"site {x},{y} is water")
    for n, (x, y) in enumerate(sites):
        for x2, y2 in sites[n + 1 :]:
            if abs(x - x2) + abs(y - y2) < CITY_SPACING:
                problems.append(f"sites {x},{y} and {x2},{y2} are closer than {CITY_SPACING} blocks")
    return problems


def _check_seats(raw: JSONObject) -> list[str]:
    problems: list[str] = []
    low, high = raw["min_seats"], raw["max_seats"]
    if not 2 <= low <= high <= MAX_SEATS:
        problems.append(f"seats must run from at least 2 to at most {MAX_SEATS} (min_seats {low}, max_seats {high})")
    seats = raw.get("seat")
    if seats is not None:
        if len(seats) < high:
            problems.append(f"max_seats is {high} but only {len(seats)} seats are listed")
        problems += duplicates([s["code"] for s in seats], "seat code")
        problems += duplicates([s["mark"] for s in seats], "mark")
        problems += duplicates(
            [s["colour"].lower() for s in seats],
            "colour",
            'is used twice ("you cannot choose the same color that another player has chosen")',
        )
    return problems


def _normalise(raw: JSONObject) -> JSONObject:
    listed = raw.get("seat") or [
        {"code": code, "name": name, "colour": colour, "mark": mark}
        for code, name, colour, mark in EMPIRES[: raw["max_seats"]]
    ]
    world = raw["world"]
    return {
        "name": raw["name"],
        "title": raw["title"],
        "min_seats": raw["min_seats"],
        "max_seats": raw["max_seats"],
        "world": {
            "terrain": _rows(world) if "terrain" in world else [],
            "sites": [list(s) for s in world.get("sites", [])],
            "size": world.get("size", 0),
        },
        "seats": [
            {"code": s["code"], "name": s["name"], "colour": s["colour"].lower(), "mark": s["mark"]} for s in listed
        ],
    }
