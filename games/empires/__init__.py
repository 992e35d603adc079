"""The Empires ruleset (`empires`): the object the `gm.games` entry point names."""

from __future__ import annotations

from random import Random

from gm.core.model import JSONObject, Order, Problem
from gm.packaged import PackagedRuleset, Parts

from . import invariants, offline, orders, robot, rules, scenario, view

SCENARIO_PACKAGE = "gm_games.empires.scenarios"


class EmpiresRuleset(PackagedRuleset):
    """Empires by mail: numbered actions, land battles, census turns, VP and the three wins."""

    name = "empires"
    version = "1.0"
    title = "Empires"
    scenario_package = SCENARIO_PACKAGE  # its scenarios: the only packaged data it reads
    templates_package = "gm_games.empires.templates"
    cases_package = "gm_games.empires.cases"
    parts = Parts(
        scenario=scenario, rules=rules, orders=orders, robot=robot, view=view, invariants=invariants, offline=offline
    )
    demo_seats = 12  # `gm demo --ruleset empires`: the 12-seat robot game

    def seat_codes(self, scenario: JSONObject) -> list[str]:
        return [country["code"] for country in scenario["countries"]]

    def order_warnings(self, state: JSONObject, seat: str, order_list: list[Order]) -> list[Problem]:
        return orders.order_warnings(state, seat, order_list)

    def order_line(self, order: Order) -> str:
        return orders.order_line(order)

    def score_label(self, state: JSONObject) -> tuple[str, str]:
        return rules.score_label(state)

    def hidden_variant(self, state: JSONObject, seat: str, rng: Random) -> JSONObject:
        """The state with only `seat`'s secrets changed: its BPs, books and (unless it leads) VP."""
        return view.hidden_variant(state, seat, rng)


ruleset = EmpiresRuleset()

__all__ = ["EmpiresRuleset", "ruleset"]
