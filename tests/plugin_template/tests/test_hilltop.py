"""Hilltop's own tests, as an outside author writes them: gm's pytest plug-in (installed with gm)
gives the contract suite, the case runner and golden files as fixtures."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from hilltop import ruleset

from gm.core.model import SeatInfo
from gm.core.ruleset import TurnSeeds

HERE = Path(__file__).parent


def test_the_contract(gm_contract: Callable[..., None]) -> None:
    gm_contract("hilltop")


def test_a_case_kept_beside_the_tests(gm_case: Callable[..., list[str]]) -> None:
    assert gm_case("hilltop", HERE / "cases" / "walk-in.toml") == []


def test_what_the_ravens_see_at_the_start(gm_golden: Callable[..., None]) -> None:
    scenario = ruleset.load_scenario(ruleset.scenario_text("ring"), "ring")
    state = ruleset.new_game(scenario, [SeatInfo("RA", "Ann"), SeatInfo("WO", "Bob")], TurnSeeds(1, 0))
    view = json.dumps(ruleset.view(state, "RA"), indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    gm_golden(HERE / "golden" / "view_RA_start.json", view)
