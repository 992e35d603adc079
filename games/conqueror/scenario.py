"""Conqueror! scenarios: TOML text in, a validated scenario dict out (no file access here)."""

from __future__ import annotations

import re

from gm.core.maps import duplicates, unconnected
from gm.core.model import JSONObject
from gm.core.scenarios import COLOUR, Fields, is_kind, load_staged, seat_counts

# Values the rule text gives or gm chose, used when a scenario leaves them out.
DEFAULTS: dict[str, str | int] = {
    "turns": 24,  # the game limit in turns (rule D-CQ-9)
    "ai_fill": 0,  # AI nations fill empty seats until this many nations play
    "start_gold": 20,  # each nation's treasury on turn 1
    "capital_armies": 8,  # armies in a seated nation's capital on turn 1
    "neutral_colour": "#9e9e9e",  # "neutral (grey) countries"
}
REQUIRED_TOP = ("name", "title", "min_seats", "max_seats", "width", "height")
TOP_KEYS = set(REQUIRED_TOP) | set(DEFAULTS) | {"seat", "province"}
SEAT_KEYS = {"code", "name", "colour", "capital", "armies"}
PROVINCE_KEYS = {"code", "name", "x", "y", "neighbours", "population", "resources", "culture", "fort", "armies"}
LIMITS = {"population": (0, 99), "resources": (0, 99), "culture": (1, 3), "fort": (0, 3), "armies": (0, 999)}

SEAT_CODE = re.compile(r"[A-Z][A-Z0-9]{0,3}")
PROVINCE_CODE = re.compile(r"[A-Z]{3}")


def load_scenario_text(text: str, source: str) -> JSONObject:
    """Parse and validate a scenario; raise ScenarioError naming the source and every problem."""
    return load_staged(text, source, (_read_fields, _check_references, _check_sizes), _normalise)


def _read_fields(raw: JSONObject) -> list[str]:
    problems: list[str] = []
    top = Fields(raw, "the scenario", problems)
    top.unknown(TOP_KEYS)
    top.top(REQUIRED_TOP, DEFAULTS)
    for key in ("seat", "province"):
        if key not in raw:
            problems.append(f"the scenario has no [[{key}]] entries")
    for i, seat in enumerate(top.optional("seat", "tables") or [], 1):
        _read_seat(Fields(seat, f"seat #{i}", problems))
    for i, province in enumerate(top.optional("province", "tables") or [], 1):
        _read_province(Fields(province, f"province #{i}", problems))
    colour = raw.get("neutral_colour", DEFAULTS["neutral_colour"])
    if isinstance(colour, str) and not COLOUR.fullmatch(colour):
        problems.append(f"neutral_colour must look like #9e9e9e, not {colour!r}")
    return problems


def _read_seat(seat: Fields) -> None:
    seat.unknown(SEAT_KEYS)
    seat.code(SEAT_CODE, "seat", "1 to 4 capital letters or digits, like EN")
    seat.get("name", "str")
    seat.get("capital", "str")
    seat.colour()
    seat.within("armies", 0, 999)


def _read_province(province: Fields) -> None:
    province.unknown(PROVINCE_KEYS)
    province.code(PROVINCE_CODE, "province", "three capital letters, like WES")
    for key, kind in (("name", "str"), ("x", "int"), ("y", "int"), ("neighbours", "codes"), ("population", "int")):
        province.get(key, kind)
    for key in ("resources", "culture", "fort", "armies"):
        province.optional(key, "int")
    # Ranges after kinds, so a population of the wrong kind is one problem, not two.
    for key, (low, high) in LIMITS.items():
        value = province.table.get(key)
        if isinstance(value, int) and is_kind(value, "int") and not low <= value <= high:
            province.problems.append(f"{province.where}: {key} must be between {low} and {high}, not {value}")


def _check_references(raw: JSONObject) -> list[str]:
    problems: list[str] = []
    problems += duplicates([s["code"] for s in raw["seat"]], "seat code")
    problems += duplicates([p["code"] for p in raw["province"]], "province code")
    places = {p["code"]: p for p in raw["province"]}
    for p in raw["province"]:
        code = p["code"]
        for axis, size in (("x", raw["width"]), ("y", raw["height"])):
            if not 0 <= p[axis] <= size:
                problems.append(f"province {code}: {axis} must be between 0 and {size}, not {p[axis]}")
        problems += duplicates(p["neighbours"], f"province {code} lists neighbour", "twice")
        for other in p["neighbours"]:
            if other == code:
                problems.append(f"province {code} lists itself as a neighbour")
            elif other not in places:
                problems.append(f"province {code} lists neighbour {other}, which is not on the map")
            elif code not in places[other]["neighbours"]:
                problems.append(f"{code} lists {other} as a neighbour but {other} does not list {code}")
    capital_of: dict[str, str] = {}
    for seat in raw["seat"]:
        capital = seat["capital"]
        if capital not in places:
            problems.append(f"seat {seat['code']}: capital {capital} is not on the map")
        elif capital in capital_of:
            problems.append(f"{capital} is the capital of both {capital_of[capital]} and {seat['code']}")
        capital_of.setdefault(capital, seat["code"])
    return problems


def _check_sizes(raw: JSONObject) -> list[str]:
    low, high = raw["min_seats"], raw["max_seats"]
    problems = seat_counts(raw, len(raw["seat"]))
    fill = raw.get("ai_fill", 0)
    if fill and not low <= fill <= high:
        problems.append(f"ai_fill must be 0 (no AI nations) or between min_seats and max_seats, not {fill}")
    for key in ("turns", "width", "height"):
        if raw.get(key, 1) < 1:
            problems.append(f"{key} must be at least 1, not {raw[key]}")
    for key in ("start_gold", "capital_armies"):
        if not 0 <= raw.get(key, 0) <= 9999:
            problems.append(f"{key} must be between 0 and 9999, not {raw[key]}")
    problems += unconnected({p["code"]: p["neighbours"] for p in raw["province"]}, "provinces")
    return problems


def _normalise(raw: JSONObject) -> JSONObject:
    scenario: JSONObject = {key: raw.get(key, DEFAULTS.get(key)) for key in REQUIRED_TOP + tuple(DEFAULTS)}
    scenario["neutral_colour"] = scenario["neutral_colour"].lower()
    scenario["seats"] = [
        {
            "code": s["code"],
            "name": s["name"],
            "colour": s["colour"].lower(),
            "capital": s["capital"],
            "armies": s.get("armies", scenario["capital_armies"]),
        }
        for s in raw["seat"]
    ]
    scenario["provinces"] = [
        {
            "code": p["code"],
            "name": p["name"],
            "x": p["x"],
            "y": p["y"],
            "neighbours": list(p["neighbours"]),
            "population": p["population"],
            "resources": p.get("resources", 0),
            "culture": p.get("culture", 1),
            "fort": p.get("fort", 0),
            "armies": p.get("armies", p["population"]),
        }
        for p in raw["province"]
    ]
    return scenario
