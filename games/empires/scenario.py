"""Empires scenarios: TOML text in, a validated scenario dict out (no file access here)."""
from __future__ import annotations

import re
import tomllib

from gm.core.maps import duplicates, unconnected
from gm.core.ruleset import ScenarioError

from .terrain import TERRAINS

DEFAULTS = {"points_target": 0, "neutral_colour": "#9aa38f", "sea_colour": "#b9d3e8"}
REQUIRED_TOP = ("name", "title", "min_seats", "max_seats", "width", "height")
TOP_KEYS = set(REQUIRED_TOP) | set(DEFAULTS) | {"country", "area"}
COUNTRY_KEYS = {"code", "name", "colour", "capital", "bps"}
AREA_KEYS = {"code", "name", "terrain", "x", "y", "neighbours", "owner", "population", "armies",
             "fort"}
LAND_ONLY = ("owner", "population", "armies", "fort")
COUNTRY_CODE = re.compile(r"[A-Z]{2}")   # "Countries have two-letter codes"
AREA_CODE = re.compile(r"[A-Z]{3}")      # "areas three-letter codes"
COLOUR = re.compile(r"#[0-9a-fA-F]{6}")
MAX_FORT = 3                             # rule D-EMP-4


def load_scenario_text(text: str, source: str) -> dict:
    """Parse and validate a scenario; raise ScenarioError naming the source and every problem."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise ScenarioError(f"{source}: not valid TOML: {err}") from None
    # Each stage relies on the one before, so it stops at the first stage with problems.
    for stage in (_read_fields, _check_references, _check_sizes):
        problems = stage(raw)
        if problems:
            raise ScenarioError("\n".join(f"{source}: {p}" for p in problems))
    return _normalise(raw)


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


KINDS = {
    "int": (_is_int, "a whole number"),
    "str": (lambda v: isinstance(v, str), "a string"),
    "codes": (lambda v: isinstance(v, list) and all(isinstance(c, str) for c in v), "a list of codes"),
    "tables": (lambda v: isinstance(v, list) and all(isinstance(t, dict) for t in v), "a list of tables"),
}


def _field(table: dict, key: str, kind: str, where: str, problems: list, required: bool = True):
    if key not in table:
        if required:
            problems.append(f"{where} has no {key}")
        return None
    test, words = KINDS[kind]
    if not test(table[key]):
        problems.append(f"{where}: {key} must be {words}, not {table[key]!r}")
        return None
    return table[key]


def _read_fields(raw: dict) -> list[str]:
    problems: list[str] = [f"the scenario: unknown field {k!r}" for k in sorted(set(raw) - TOP_KEYS)]
    for key in REQUIRED_TOP:
        _field(raw, key, "str" if key in ("name", "title") else "int", "the scenario", problems)
    for key, default in DEFAULTS.items():
        _field(raw, key, "str" if isinstance(default, str) else "int", "the scenario", problems, False)
    for key in ("country", "area"):
        if _field(raw, key, "tables", "the scenario", problems) is None and key in raw:
            raw.pop(key)
    for i, country in enumerate(raw.get("country", []), 1):
        where = f"country {country.get('code', f'#{i}')}"
        problems += [f"{where}: unknown field {k!r}" for k in sorted(set(country) - COUNTRY_KEYS)]
        code = _field(country, "code", "str", where, problems)
        if code is not None and not COUNTRY_CODE.fullmatch(code):
            problems.append(f"country code {code!r} must be two capital letters, like FR")
        _field(country, "name", "str", where, problems)
        _field(country, "capital", "str", where, problems)
        colour = _field(country, "colour", "str", where, problems)
        if colour is not None and not COLOUR.fullmatch(colour):
            problems.append(f"{where}: colour must look like #d62828, not {colour!r}")
        if (_field(country, "bps", "int", where, problems, False) or 0) < 0:
            problems.append(f"{where}: bps must be 0 or more")
    for i, area in enumerate(raw.get("area", []), 1):
        problems += _read_area(area, f"area {area.get('code', f'#{i}')}")
    return problems


def _read_area(area: dict, where: str) -> list[str]:
    problems = [f"{where}: unknown field {k!r}" for k in sorted(set(area) - AREA_KEYS)]
    code = _field(area, "code", "str", where, problems)
    if code is not None and not AREA_CODE.fullmatch(code):
        problems.append(f"area code {code!r} must be three capital letters, like PAR")
    for key, kind in (("name", "str"), ("x", "int"), ("y", "int"), ("neighbours", "codes")):
        _field(area, key, kind, where, problems)
    terrain = _field(area, "terrain", "str", where, problems)
    if terrain is not None and terrain not in TERRAINS:
        problems.append(f"{where}: terrain {terrain!r} is not one of {', '.join(TERRAINS)}")
    elif terrain == "seas":
        problems += [f"{where} is a sea and cannot have {k}" for k in LAND_ONLY if k in area]
    _field(area, "owner", "str", where, problems, False)
    for key in ("population", "armies", "fort"):
        value = _field(area, key, "int", where, problems, False)
        if value is not None and not 0 <= value <= (MAX_FORT if key == "fort" else 99):
            top = MAX_FORT if key == "fort" else 99
            problems.append(f"{where}: {key} must be between 0 and {top}, not {value}")
    return problems


def _check_references(raw: dict) -> list[str]:
    problems: list[str] = []
    countries = {c["code"]: c for c in raw["country"]}
    areas = {a["code"]: a for a in raw["area"]}
    problems += duplicates([c["code"] for c in raw["country"]], "country code")
    problems += duplicates([a["code"] for a in raw["area"]], "area code")
    for area in raw["area"]:
        code = area["code"]
        for axis, size in (("x", raw["width"]), ("y", raw["height"])):
            if not 0 <= area[axis] <= size:
                problems.append(f"area {code}: {axis} must be between 0 and {size}, not {area[axis]}")
        owner = area.get("owner")
        if owner is not None and owner not in countries:
            problems.append(f"area {code}: owner {owner} is not a country of this scenario")
        problems += duplicates(area["neighbours"], f"area {code} lists neighbour", "twice")
        for other in area["neighbours"]:
            if other == code:
                problems.append(f"area {code} lists itself as a neighbour")
            elif other not in areas:
                problems.append(f"area {code} lists neighbour {other}, which is not on the map")
            elif code not in areas[other]["neighbours"]:
                problems.append(f"{code} lists {other} as a neighbour but {other} does not list {code}")
    for country in raw["country"]:
        capital = areas.get(country["capital"])
        if capital is None or capital.get("owner") != country["code"]:
            problems.append(f"country {country['code']}: its capital {country['capital']} "
                            "must be a land area it owns")
    return problems


def _check_sizes(raw: dict) -> list[str]:
    problems: list[str] = []
    low, high, listed = raw["min_seats"], raw["max_seats"], len(raw["country"])
    if low < 2:
        problems.append(f"min_seats must be at least 2, not {low}")
    if low > high:
        problems.append(f"min_seats ({low}) is more than max_seats ({high})")
    if high > listed:
        problems.append(f"max_seats is {high} but only {listed} countries are listed")
    if raw.get("points_target", 0) < 0:
        problems.append("points_target must be 0 (the number of land areas) or more")
    return problems + unconnected({a["code"]: a["neighbours"] for a in raw["area"]}, "areas")


def _normalise(raw: dict) -> dict:
    scenario = {key: raw[key] for key in REQUIRED_TOP}
    scenario.update({key: raw.get(key, default) for key, default in DEFAULTS.items()})
    terrain = {a["code"]: a["terrain"] for a in raw["area"]}
    scenario["countries"] = [{"code": c["code"], "name": c["name"], "colour": c["colour"].lower(),
                              "capital": c["capital"], "bps": c.get("bps")} for c in raw["country"]]
    areas = []
    for a in raw["area"]:
        land = TERRAINS[a["terrain"]].land
        areas.append({
            "code": a["code"], "name": a["name"], "terrain": a["terrain"], "x": a["x"], "y": a["y"],
            "neighbours": list(a["neighbours"]), "land": land,
            "reach": _reach(a["code"], {x["code"]: x["neighbours"] for x in raw["area"]}, terrain)
            if land else [],
            "owner": a.get("owner") if land else None, "population": a.get("population", 0),
            "armies": a.get("armies", 0), "fort": a.get("fort", 0),
        })
    scenario["areas"] = areas
    if not scenario["points_target"]:  # rule D-EMP-12: roughly the number of land areas
        scenario["points_target"] = sum(1 for a in areas if a["land"])
    return scenario


def _reach(code: str, links: dict, terrain: dict) -> list[str]:
    """Land areas armies in `code` can move to or attack: its land neighbours, and the land
    areas on the far side of a sea next to it (a crossing)."""
    found = set()
    for other in links[code]:
        if terrain[other] != "seas":
            found.add(other)
            continue
        found.update(x for x in links[other] if terrain[x] != "seas")
    found.discard(code)
    return sorted(found)
