"""Hilltop for gm: the ruleset object the `gm.games` entry point names."""

from __future__ import annotations

from gm.core.model import JSONObject
from gm.packaged import PackagedRuleset, Parts

from . import orders, robot, rules, scenario, view


class HilltopRuleset(PackagedRuleset):
    """Hill clans grow, march and fight over a ring of hills."""

    name = "hilltop"
    version = "0.1"
    title = "Hilltop"
    scenario_package = "hilltop.scenarios"
    templates_package = "hilltop.templates"
    cases_package = "hilltop.cases"
    parts = Parts(scenario=scenario, rules=rules, orders=orders, robot=robot, view=view)
    default_scenario_name = "ring"
    demo_seats = 3

    def score_label(self, state: JSONObject) -> tuple[str, str]:
        return ("Hills held", "Hills")


ruleset = HilltopRuleset()
