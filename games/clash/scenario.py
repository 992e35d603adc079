"""Clash of Empires scenarios: TOML text in, a validated scenario dict out (no file access here)."""

from __future__ import annotations

import re

from gm.core.maps import duplicates, unconnected
from gm.core.model import JSONObject
from gm.core.scenarios import Fields, load_staged, seat_counts

# Values the rule book gives, used when a scenario leaves them out.
RULE_BOOK_DEFAULTS: dict[str, str | int] = {
    "setup": "claim",  # "Each player takes turns claiming a territory"
    "rounds": 30,  # "The game consists of 30 rounds"
    "start_units": 20,  # "Each player gets 20 units"
    "unit_limit": 100,  # "100 cubes per player" (rule D-CE-3)
    "neutral_colour": "#3a9a4a",  # "100 green cubes to represent neutral troops"
}
NEUTRAL_CUBES = 100  # "100 green cubes to represent neutral troops" (List of Components)
REQUIRED_TOP = ("name", "title", "min_seats", "max_seats", "width", "height")
TOP_KEYS = set(REQUIRED_TOP) | set(RULE_BOOK_DEFAULTS) | {"seat", "territory"}
SEAT_KEYS = {"code", "name", "colour", "core", "troops"}
TERRITORY_KEYS = {"code", "name", "x", "y", "neighbours", "neutral", "claimable"}

SEAT_CODE = re.compile(r"[A-Z][A-Z0-9]{0,3}")
TERRITORY_CODE = re.compile(r"[A-Z]{3}")


def load_scenario_text(text: str, source: str) -> JSONObject:
    """Parse and validate a scenario; raise ScenarioError naming the source and every problem."""
    return load_staged(text, source, (_read_fields, _check_references, _check_sizes), _normalise)


def _read_fields(raw: JSONObject) -> list[str]:
    problems: list[str] = []
    top = Fields(raw, "the scenario", problems)
    top.unknown(TOP_KEYS)
    top.top(REQUIRED_TOP, RULE_BOOK_DEFAULTS)
    for key in ("seat", "territory"):
        if key not in raw:
            problems.append(f"the scenario has no [[{key}]] entries")
    seats = top.optional("seat", "tables") or []
    territories = top.optional("territory", "tables") or []
    for i, seat in enumerate(seats, 1):
        fields = Fields(seat, f"seat #{i}", problems)
        fields.unknown(SEAT_KEYS)
        fields.code(SEAT_CODE, "seat", "1 to 4 capital letters or digits, like BR")
        fields.get("name", "str")
        fields.colour()
        fields.optional("core", "codes")
        fields.optional("troops", "troops")
    for i, territory in enumerate(territories, 1):
        fields = Fields(territory, f"territory #{i}", problems)
        fields.unknown(TERRITORY_KEYS)
        fields.code(TERRITORY_CODE, "territory", "three capital letters, like ENG")
        for key, kind in (("name", "str"), ("x", "int"), ("y", "int"), ("neighbours", "codes")):
            fields.get(key, kind)
        fields.get("neutral", "int", 0)
        fields.optional("claimable", "bool")
    if raw.get("setup", "claim") not in ("claim", "fixed"):
        problems.append(f'setup must be "claim" or "fixed", not {raw["setup"]!r}')
    return problems


def _check_references(raw: JSONObject) -> list[str]:
    problems: list[str] = []
    problems += duplicates([s["code"] for s in raw["seat"]], "seat code")
    problems += duplicates([t["code"] for t in raw["territory"]], "territory code")
    places = {t["code"]: t for t in raw["territory"]}
    width, height = raw["width"], raw["height"]
    for t in raw["territory"]:
        code = t["code"]
        for axis, size in (("x", width), ("y", height)):
            if not 0 <= t[axis] <= size:
                problems.append(f"territory {code}: {axis} must be between 0 and {size}, not {t[axis]}")
        if t.get("neutral", 0) < 0:
            problems.append(f"territory {code}: neutral must be 0 or more, not {t['neutral']}")
        problems += duplicates(t["neighbours"], f"territory {code} lists neighbour", "twice")
        for other in t["neighbours"]:
            if other == code:
                problems.append(f"territory {code} lists itself as a neighbour")
            elif other not in places:
                problems.append(f"territory {code} lists neighbour {other}, which is not on the map")
            elif code not in places[other]["neighbours"]:
                problems.append(f"{code} lists {other} as a neighbour but {other} does not list {code}")
    problems += _check_fixed_setup(raw, places)
    return problems


def _check_fixed_setup(raw: JSONObject, places: JSONObject) -> list[str]:
    fixed = raw.get("setup", "claim") == "fixed"
    problems: list[str] = []
    owner_of: dict[str, str] = {}
    with_troops = [s["code"] for s in raw["seat"] if "troops" in s]
    for seat in raw["seat"]:
        code = seat["code"]
        if not fixed:
            if "core" in seat or "troops" in seat:
                problems.append(f'seat {code}: core and troops are only for setup = "fixed"')
            continue
        core = seat.get("core", [])
        if not core:
            problems.append(f'seat {code} has no core territories; setup = "fixed" needs them')
        for place in core:
            if place not in places:
                problems.append(f"seat {code}: core territory {place} is not on the map")
            elif places[place].get("neutral", 0) > 0:
                problems.append(f"seat {code}: {place} is neutral and cannot be a core territory")
            elif place in owner_of:
                problems.append(f"{place} is a core territory of both {owner_of[place]} and {code}")
            owner_of.setdefault(place, code)
        for place, count in seat.get("troops", {}).items():
            if place not in core:
                problems.append(f"seat {code}: troops are given for {place}, which is not one of its core territories")
            elif count < 1:
                problems.append(f"seat {code}: troops in {place} must be at least 1, not {count}")
        limit = raw.get("unit_limit", RULE_BOOK_DEFAULTS["unit_limit"])
        if sum(seat.get("troops", {}).values()) > limit:
            problems.append(f"seat {code}: its troops pass the limit of {limit}")
    if fixed and with_troops and len(with_troops) != len(raw["seat"]):
        missing = ", ".join(s["code"] for s in raw["seat"] if "troops" not in s)
        problems.append(f"troops are given for some seats but not for {missing}: give them for every seat or for none")
    return problems


def _check_sizes(raw: JSONObject) -> list[str]:
    high = raw["max_seats"]
    problems = seat_counts(raw, len(raw["seat"]))
    claimable = [t for t in raw["territory"] if _claimable(t)]
    if raw.get("setup", "claim") == "claim" and len(claimable) < high:
        problems.append(f"the map has {len(claimable)} claimable territories but {high} seats need at least one each")
    for key in ("rounds", "unit_limit", "width", "height"):
        if raw.get(key, 1) < 1:
            problems.append(f"{key} must be at least 1, not {raw[key]}")
    if not 0 <= raw.get("start_units", 20) <= raw.get("unit_limit", 100):
        problems.append(f"start_units must be between 0 and unit_limit, not {raw['start_units']}")
    neutral = sum(t.get("neutral", 0) for t in raw["territory"])
    if neutral > NEUTRAL_CUBES:  # neutral troops never grow in play, so the start is the most
        problems.append(f"the map starts {neutral} neutral troops; the game has {NEUTRAL_CUBES} green cubes for them")
    problems += unconnected({t["code"]: t["neighbours"] for t in raw["territory"]}, "territories")
    return problems


def _claimable(territory: JSONObject) -> bool:
    # "until all territories are claimed": neutral ones too (rule D-CE-1), unless the map says not.
    return bool(territory.get("claimable", True))


def _normalise(raw: JSONObject) -> JSONObject:
    scenario = {key: raw.get(key, RULE_BOOK_DEFAULTS.get(key)) for key in REQUIRED_TOP + tuple(RULE_BOOK_DEFAULTS)}
    scenario["seats"] = [
        {
            "code": s["code"],
            "name": s["name"],
            "colour": s["colour"].lower(),
            "core": list(s.get("core", [])),
            "troops": dict(s.get("troops", {})),
        }
        for s in raw["seat"]
    ]
    scenario["territories"] = [
        {
            "code": t["code"],
            "name": t["name"],
            "x": t["x"],
            "y": t["y"],
            "neighbours": list(t["neighbours"]),
            "neutral": t.get("neutral", 0),
            "claimable": _claimable(t),
        }
        for t in raw["territory"]
    ]
    return scenario
