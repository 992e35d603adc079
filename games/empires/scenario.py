"""Empires scenarios: TOML text in, a validated scenario dict out (no file access here)."""

from __future__ import annotations

import re

from gm.core.maps import duplicates, unconnected
from gm.core.model import JSONObject
from gm.core.scenarios import Fields, load_staged, seat_counts

from .terrain import TERRAINS

DEFAULTS: dict[str, str | int] = {"points_target": 0, "neutral_colour": "#9aa38f", "sea_colour": "#b9d3e8"}
REQUIRED_TOP = ("name", "title", "min_seats", "max_seats", "width", "height")
TOP_KEYS = set(REQUIRED_TOP) | set(DEFAULTS) | {"country", "area"}
COUNTRY_KEYS = {"code", "name", "colour", "capital", "bps"}
AREA_KEYS = {"code", "name", "terrain", "x", "y", "neighbours", "owner", "population", "armies", "fort"}
LAND_ONLY = ("owner", "population", "armies", "fort")
COUNTRY_CODE = re.compile(r"[A-Z]{2}")  # "Countries have two-letter codes"
AREA_CODE = re.compile(r"[A-Z]{3}")  # "areas three-letter codes"
MAX_FORT = 3  # rule D-EMP-4


def load_scenario_text(text: str, source: str) -> JSONObject:
    """Parse and validate a scenario; raise ScenarioError naming the source and every problem."""
    return load_staged(text, source, (_read_fields, _check_references, _check_sizes), _normalise)


def _read_fields(raw: JSONObject) -> list[str]:
    problems: list[str] = []
    top = Fields(raw, "the scenario", problems)
    top.unknown(TOP_KEYS)
    top.top(REQUIRED_TOP, DEFAULTS)
    for key in ("country", "area"):
        if top.get(key, "tables") is None and key in raw:
            raw.pop(key)
    for i, country in enumerate(raw.get("country", []), 1):
        fields = Fields(country, f"country {country.get('code', f'#{i}')}", problems)
        fields.unknown(COUNTRY_KEYS)
        fields.code(COUNTRY_CODE, "country", "two capital letters, like FR")
        fields.get("name", "str")
        fields.get("capital", "str")
        fields.colour()
        if (fields.optional("bps", "int") or 0) < 0:
            problems.append(f"{fields.where}: bps must be 0 or more")
    for i, area in enumerate(raw.get("area", []), 1):
        _read_area(Fields(area, f"area {area.get('code', f'#{i}')}", problems))
    return problems


def _read_area(area: Fields) -> None:
    area.unknown(AREA_KEYS)
    area.code(AREA_CODE, "area", "three capital letters, like PAR")
    for key, kind in (("name", "str"), ("x", "int"), ("y", "int"), ("neighbours", "codes")):
        area.get(key, kind)
    terrain = area.get("terrain", "str")
    if terrain is not None and terrain not in TERRAINS:
        area.problems.append(f"{area.where}: terrain {terrain!r} is not one of {', '.join(TERRAINS)}")
    elif terrain == "seas":
        area.problems.extend(f"{area.where} is a sea and cannot have {k}" for k in LAND_ONLY if k in area.table)
    area.optional("owner", "str")
    for key in ("population", "armies"):
        area.within(key, 0, 99)
    area.within("fort", 0, MAX_FORT)


def _check_references(raw: JSONObject) -> list[str]:
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
            problems.append(f"country {country['code']}: its capital {country['capital']} must be a land area it owns")
    return problems


def _check_sizes(raw: JSONObject) -> list[str]:
    problems = seat_counts(raw, len(raw["country"]), "countries")
    if raw.get("points_target", 0) < 0:
        problems.append("points_target must be 0 (the number of land areas) or more")
    return problems + unconnected({a["code"]: a["neighbours"] for a in raw["area"]}, "areas")


def _normalise(raw: JSONObject) -> JSONObject:
    scenario = {key: raw[key] for key in REQUIRED_TOP}
    scenario.update({key: raw.get(key, default) for key, default in DEFAULTS.items()})
    terrain = {a["code"]: a["terrain"] for a in raw["area"]}
    scenario["countries"] = [
        {
            "code": c["code"],
            "name": c["name"],
            "colour": c["colour"].lower(),
            "capital": c["capital"],
            "bps": c.get("bps"),
        }
        for c in raw["country"]
    ]
    areas = []
    for a in raw["area"]:
        land = TERRAINS[a["terrain"]].land
        areas.append(
            {
                "code": a["code"],
                "name": a["name"],
                "terrain": a["terrain"],
                "x": a["x"],
                "y": a["y"],
                "neighbours": list(a["neighbours"]),
                "land": land,
                "reach": _reach(a["code"], {x["code"]: x["neighbours"] for x in raw["area"]}, terrain) if land else [],
                "owner": a.get("owner") if land else None,
                "population": a.get("population", 0),
                "armies": a.get("armies", 0),
                "fort": a.get("fort", 0),
            }
        )
    scenario["areas"] = areas
    if not scenario["points_target"]:  # rule D-EMP-12: roughly the number of land areas
        scenario["points_target"] = sum(1 for a in areas if a["land"])
    return scenario


def _reach(code: str, links: dict[str, list[str]], terrain: dict[str, str]) -> list[str]:
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
