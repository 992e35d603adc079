"""A real plug-in ruleset with a bug a test plants: installed as a distribution on sys.path, so
gm finds it through its `gm.games` entry point as it finds any plug-in.

`faulty` plays Clash of Empires; `install(...).FAULTS.add("resolve")` makes its resolve raise,
and likewise check_orders, view, robot_orders and render (its report template then reads a
name its view does not have, as a template with a typo does).
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

import pytest

from gm import rulesets

PACKAGE = "faulty_game"

RULESET = '''"""Clash of Empires with a bug a test plants."""

from gm_games.clash import ClashRuleset

FAULTS = set()  # the methods that raise: resolve, check_orders, view, robot_orders, render


def planted(method):
    if method in FAULTS:
        raise ZeroDivisionError("division by zero")


class FaultyRuleset(ClashRuleset):
    name = "faulty"
    version = "0.1"
    title = "Faulty Clash"
    templates_package = "faulty_game.templates"
    cases_package = None

    def check_orders(self, state, seat, order_list):
        planted("check_orders")
        return super().check_orders(state, seat, order_list)

    def resolve(self, state, orders_by_seat, seeds):
        planted("resolve")
        return super().resolve(state, orders_by_seat, seeds)

    def robot_orders(self, state, seat, rng):
        planted("robot_orders")
        return super().robot_orders(state, seat, rng)

    def view(self, state, seat):
        planted("view")
        return dict(super().view(state, seat), ruleset="faulty", render_fault="render" in FAULTS)


ruleset = FaultyRuleset()
'''

REPORT = """{# The faulty ruleset's part of a report: Clash's facts, and a typo when the test plants one. #}
<h2>{{ view.title }}</h2>
{% if view.render_fault %}<p>{{ view.no_such_key }}</p>{% endif %}
"""


def install(site: Path, monkeypatch: pytest.MonkeyPatch, templates_init: bool = True) -> ModuleType:
    """Write the plug-in into `site`, put it on sys.path for this test, and return its module.
    templates_init=False leaves out templates/__init__.py, as a plug-in author may."""
    package = site / PACKAGE
    (package / "templates").mkdir(parents=True)
    (package / "__init__.py").write_text(RULESET)
    (package / "templates" / "faulty_report.html").write_text(REPORT)
    if templates_init:
        (package / "templates" / "__init__.py").write_text("")
    info = site / f"{PACKAGE}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {PACKAGE}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[gm.games]\nfaulty = {PACKAGE}:ruleset\n")
    monkeypatch.syspath_prepend(str(site))
    importlib.invalidate_caches()
    rulesets.found.cache_clear()
    return importlib.import_module(PACKAGE)


@pytest.fixture
def faulty(tmp_path, monkeypatch):
    """The faulty plug-in, installed for one test and gone after it."""
    yield install(tmp_path / "site", monkeypatch)
    _uninstall()


@pytest.fixture
def faulty_without_templates_init(tmp_path, monkeypatch):
    yield install(tmp_path / "site", monkeypatch, templates_init=False)
    _uninstall()


def _uninstall() -> None:
    for name in [n for n in sys.modules if n == PACKAGE or n.startswith(PACKAGE + ".")]:
        del sys.modules[name]
    rulesets.found.cache_clear()
