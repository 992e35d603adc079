"""Clash of Empires for gm: the ruleset object the `gm.games` entry point names."""

from __future__ import annotations

from gm.core.model import JSONObject
from gm.packaged import PackagedRuleset, Parts

from . import invariants, orders, robot, rules, scenario, view

SCENARIO_PACKAGE = "gm_games.clash.scenarios"


class ClashRuleset(PackagedRuleset):
    """Clash of Empires: 30 rounds of one action each, deterministic combat, victory points."""

    name = "clash"
    version = "1.0"
    title = "Clash of Empires"
    scenario_package = SCENARIO_PACKAGE  # its scenarios: the only packaged data it reads
    templates_package = "gm_games.clash.templates"
    cases_package = "gm_games.clash.cases"
    parts = Parts(scenario=scenario, rules=rules, orders=orders, robot=robot, view=view, invariants=invariants)

    def seat_codes(self, scenario: JSONObject) -> list[str]:
        return [seat["code"] for seat in scenario["seats"]]


ruleset = ClashRuleset()

__all__ = ["ClashRuleset", "ruleset"]
