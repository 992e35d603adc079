"""Reading a Hilltop scenario: its clans and its hills, every problem listed at once."""

from __future__ import annotations

import re

from gm.core.maps import duplicates, unconnected
from gm.core.model import JSONObject
from gm.core.scenarios import Fields, load_staged

CODE = re.compile(r"[A-Z]{1,3}")


def load_scenario_text(text: str, source: str) -> JSONObject:
    """The scenario as a dict, or ScenarioError naming `source` and every problem."""
    return load_staged(text, source, (_fields, _links), _normalised)


def _fields(raw: JSONObject) -> list[str]:
    problems: list[str] = []
    top = Fields(raw, "the scenario", problems)
    top.top(("name", "title", "width", "height", "min_seats", "max_seats", "turns"), {})
    top.unknown({"name", "title", "width", "height", "min_seats", "max_seats", "turns", "seats", "hills"})
    for seat in top.get("seats", "tables") or []:
        fields = Fields(seat, "a seat", problems)
        fields.code(CODE, "seat", "one to three capital letters")
        fields.get("name", "str")
        fields.colour()
        fields.get("home", "str")
        fields.unknown({"code", "name", "colour", "home"})
    for hill in top.get("hills", "tables") or []:
        fields = Fields(hill, "a hill", problems)
        fields.code(CODE, "hill", "one to three capital letters")
        fields.get("name", "str")
        fields.within("x", 0, 10_000, required=True)
        fields.within("y", 0, 10_000, required=True)
        fields.get("neighbours", "codes")
        fields.unknown({"code", "name", "x", "y", "neighbours"})
    return problems


def _links(raw: JSONObject) -> list[str]:
    hills = {h["code"]: list(h["neighbours"]) for h in raw["hills"]}
    problems = duplicates([h["code"] for h in raw["hills"]], "hill")
    problems += duplicates([s["code"] for s in raw["seats"]], "seat")
    problems += [f"hill {c}: neighbour {n} is no hill" for c, ns in hills.items() for n in ns if n not in hills]
    problems += [f"seat {s['code']}: home {s['home']} is no hill" for s in raw["seats"] if s["home"] not in hills]
    if not problems:
        problems += unconnected(hills, "hills")
    return problems


def _normalised(raw: JSONObject) -> JSONObject:
    return dict(raw)
