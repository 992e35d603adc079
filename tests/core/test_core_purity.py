"""gm/core and every module of every installed ruleset do no I/O: held by reading their imports
with the purity rule gm ships to ruleset authors (gm.testing.purity, which the contract suite
runs on every ruleset)."""

from __future__ import annotations

from pathlib import Path

from gm.rulesets import installed
from gm.testing.purity import offences, ruleset_modules

ROOT = Path(__file__).resolve().parents[2]


def pure_modules() -> list[tuple[Path, str]]:
    """(file, the package it belongs to) for gm/core and every module of every ruleset."""
    found = [(path, "gm.core") for path in sorted((ROOT / "gm" / "core").glob("*.py"))]
    for ruleset in installed().values():
        found += ruleset_modules(ruleset)
    return found


def test_pure_modules_do_no_io():
    modules = pure_modules()
    packages = {package for _, package in modules}
    assert {"gm.core", "gm_games.clash", "gm_games.conqueror", "gm_games.empires"} <= packages
    assert any(path.name == "make_europe.py" for path, _ in modules)  # subpackages are read too
    problems = [f"{package}: {p}" for path, package in modules for p in offences(path, package)]
    assert problems == []


def test_the_purity_check_can_fail(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text(
        "import sqlite3\nimport random\nfrom os import path\nopen('x')\nimport datetime\n"
        "datetime.datetime.now()\nimport numpy\nfrom gm.services import games\n"
        "from gm_games.other import rules\nfrom gm.packaged import PackagedRuleset\n"
        "from random import Random\nfrom . import view\nfrom gm.core.model import Order\n"
        "from dateutil.rrule import rrule\nfrom dateutil import tz\n"
    )
    assert offences(bad, "gm_games.mine") == [
        "bad.py:1: imports sqlite3",
        "bad.py:2: imports the module-level random",
        "bad.py:3: imports os.path",
        "bad.py:4: calls open()",
        "bad.py:6: reads the clock (now())",
        "bad.py:7: imports numpy",
        "bad.py:8: imports gm.services.games",
        "bad.py:9: imports gm_games.other.rules",
        "bad.py:14: imports dateutil.rrule.rrule",
        "bad.py:15: imports dateutil.tz",
    ]
    assert offences(bad, "gm.core")[-2:] == [
        "bad.py:10: imports gm.packaged.PackagedRuleset",
        "bad.py:15: imports dateutil.tz",
    ]
