"""The abuse battery, the portal's and the house's files (issue 29): what a hostile player or
stranger hands gm instead of what gm made. Each must be refused in one clear line and change
nothing; the rightful player is never the worse for it.

- hostile JSON reports for `gm orders check --report`, for every ruleset (16 of these 56 gave a
  traceback before, and 14 more were read as reports or answered in more than one line);
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from gm.rulesets import installed
from tests.render.ruleset_report import report_context

# ---------------------------------------------------------------------------------------------
# Hostile JSON reports: `gm orders check --report REPORT FILE` with each, for every ruleset.


def _at(path: str, value) -> Callable[[dict], object]:
    """A change that sets the report's `path` (keys joined by '.') to `value` (or removes it)."""

    def change(report: dict) -> dict:
        *parents, last = path.split(".")
        where = report
        for key in parents:
            where = where[key]
        if value is _GONE:
            where.pop(last, None)
        else:
            where[last] = value
        return report

    return change


_GONE = object()


def _deep(depth: int, inner="x") -> str:
    return "[" * depth + json.dumps(inner) + "]" * depth


# Each: a name, and what becomes of a real report (a dict to change, or the file's new text).
HOSTILE_REPORTS: list[tuple[str, Callable[[dict], object]]] = [
    ("a list", lambda r: "[1, 2]"),
    ("null", lambda r: "null"),
    ("a string", lambda r: '"report"'),
    ("a bare Infinity", lambda r: "Infinity"),
    ("empty", lambda r: ""),
    ("cut short", lambda r: json.dumps(r)[: len(json.dumps(r)) // 2]),
    ("not UTF-8", lambda r: json.dumps(r).encode("utf-8").replace(b'"view"', b'"vi\xffew"')),
    ("arrays 1,000 deep", lambda r: _deep(1000)),
    ("arrays 100,000 deep", lambda r: _deep(100_000)),
    ("the view 1,000 deep", lambda r: json.dumps(r).replace('"view": {', f'"view": {{"deep": {_deep(1000)}, ', 1)),
    ("objects 200 deep in known", lambda r: _at("view.known", json.loads('{"a": ' * 200 + "1" + "}" * 200))(r)),
    ("turn Infinity", lambda r: json.dumps(r).replace('"turn": ', '"turn": Infinity, "was": ', 1)),
    ("turn -Infinity", lambda r: json.dumps(r).replace('"turn": ', '"turn": -Infinity, "was": ', 1)),
    ("turn NaN", lambda r: json.dumps(r).replace('"turn": ', '"turn": NaN, "was": ', 1)),
    ("turn 1e400", lambda r: json.dumps(r).replace('"turn": ', '"turn": 1e400, "was": ', 1)),
    ("turn of 5,000 digits", lambda r: json.dumps(r).replace('"turn": ', f'"turn": {"9" * 5000}, "was": ', 1)),
    ("turn 10^30", _at("turn", 10**30)),
    ("turn -1", _at("turn", -1)),
    ("turn 2.5", _at("turn", 2.5)),
    ("turn as text", _at("turn", "1")),
    ("turn true", _at("turn", True)),
    ("turn null", _at("turn", None)),
    ("turn missing", _at("turn", _GONE)),
    ("seat null", _at("seat", None)),
    ("seat a number", _at("seat", 7)),
    ("seat a list", _at("seat", ["BR"])),
    ("seat empty", _at("seat", "")),
    ("seat with a line break", _at("seat", "BR\nFR")),
    ("seat of a million characters", _at("seat", "B" * 1_000_000)),
    ("seat missing", _at("seat", _GONE)),
    ("game missing", _at("game", _GONE)),
    ("game a string", _at("game", "g1")),
    ("game a list", _at("game", [])),
    ("game name null", _at("game.name", None)),
    ("game name huge", _at("game.name", "g" * 2_000_000)),
    ("game name with a line break", _at("game.name", "g1\nError: fake")),
    ("ruleset missing", _at("game.ruleset", _GONE)),
    ("ruleset a list", _at("game.ruleset", ["clash"])),
    ("ruleset not installed", _at("game.ruleset", "chess")),
    ("ruleset with a path", _at("game.ruleset", "../../etc/passwd")),
    ("view a list", _at("view", [])),
    ("view null", _at("view", None)),
    ("view missing", _at("view", _GONE)),
    ("view seats a number", _at("view.seats", 5)),
    ("view seats of numbers", _at("view.seats", [1, 2])),
    ("view seat code a list", _at("view.seats", [{"code": ["BR"]}])),
    ("view seat code with a line break", _at("view.seats", [{"code": "BR\nwarning: fake"}])),
    ("view map a list", _at("view.map", [])),
    ("view territories an object", _at("view.map", {"territories": {"ENG": 1}})),
    ("view territory code an object", _at("view.map", {"territories": [{"code": {"x": 1}}]})),
    ("view codes of objects", _at("view.codes", [{"x": 1}])),
    ("view codes a string", _at("view.codes", "ENG")),
    ("order form a number", _at("order_form", 5)),
    ("order form a list", _at("order_form", ["GAME"])),
    ("outcome a string", _at("outcome", "won")),
    ("a number of 31 digits elsewhere", _at("view.you", 10**30)),
]


def _base_report(ruleset: str) -> tuple[dict, str]:
    """A real report of turn 1 for the ruleset's first seat, and a turn file its check accepts."""
    report = report_context(ruleset)
    orders = f"GAME {report['game']['name']}\nPLAYER {report['seat']}\nPASSWORD x\nEND\n"
    return report, orders


@pytest.fixture(scope="module")
def reports() -> dict[str, tuple[dict, str]]:
    return {name: _base_report(name) for name in sorted(installed())}


def test_the_hostile_reports_are_at_least_32(reports):
    assert len(HOSTILE_REPORTS) >= 32 and len({name for name, _ in HOSTILE_REPORTS}) == len(HOSTILE_REPORTS)


@pytest.mark.parametrize("ruleset", sorted(installed()))
def test_each_hostile_report_is_refused_in_one_line(ruleset, reports, gm, tmp_path, monkeypatch):
    monkeypatch.delenv("GM_HOME", raising=False)
    monkeypatch.chdir(tmp_path)  # a player's folder: no GM home anywhere
    report, orders = reports[ruleset]
    path, turn_file = tmp_path / "report.json", tmp_path / "orders.txt"
    turn_file.write_text(orders)
    path.write_text(json.dumps(report))
    ran = gm("orders", "check", "--report", path, turn_file)
    assert (ran.code, ran.err) == (0, ""), ran.err  # the real report checks the file
    for name, hostile in HOSTILE_REPORTS:
        made = hostile(copy.deepcopy(report))
        data = made if isinstance(made, bytes) else (made if isinstance(made, str) else json.dumps(made)).encode()
        path.write_bytes(data)
        ran = gm("orders", "check", "--report", path, turn_file)
        said = ran.err.splitlines()
        assert ran.code == 1 and ran.out == "" and len(said) == 1, (name, ran.code, ran.out[:200], ran.err[:400])
        assert said[0].startswith("Error: ") and len(said[0]) < 400, (name, said[0][:400])
    assert not list(Path(tmp_path).glob("*.db"))
