"""Clash of Empires for gm: the ruleset object the `gm.games` entry point names."""

from __future__ import annotations

from gm.core.model import JSONObject, Order, Problem
from gm.packaged import PackagedRuleset, Parts

from . import invariants, offline, orders, robot, rules, scenario, view

SCENARIO_PACKAGE = "gm_games.clash.scenarios"


class ClashRuleset(PackagedRuleset):
    """Clash of Empires: 30 rounds of one action each, deterministic combat, victory points."""

    name = "clash"
    version = "1.0"
    title = "Clash of Empires"
    scenario_package = SCENARIO_PACKAGE  # its scenarios: the only packaged data it reads
    templates_package = "gm_games.clash.templates"
    cases_package = "gm_games.clash.cases"
    parts = Parts(
        scenario=scenario, rules=rules, orders=orders, robot=robot, view=view, invariants=invariants, offline=offline
    )

    def order_warnings(self, state: JSONObject, seat: str, order_list: list[Order]) -> list[Problem]:
        return orders.order_warnings(state, seat, order_list)

    def score_label(self, state: JSONObject) -> tuple[str, str]:
        return rules.score_label(state)


ruleset = ClashRuleset()

__all__ = ["ClashRuleset", "ruleset"]
