"""Imperials for gm: the ruleset object the `gm.games` entry point names."""

from __future__ import annotations

from random import Random

from gm.core.model import JSONObject, Order, Problem
from gm.core.ruleset import GameOption
from gm.packaged import PackagedRuleset, Parts

from . import grammar, invariants, offline, orders, robot, rules, scenario, view
from .privacy import hidden_variant as _hidden_variant

SCENARIO_PACKAGE = "gm_games.imperials.scenarios"


class ImperialsRuleset(PackagedRuleset):
    """Imperials: a hex island, production by dice, trade, the robber and action cards; in the
    Wonders & Warriors mode also commodities, improvements, wonders, warriors and the dragon."""

    name = "imperials"
    version = "2.0"
    title = "Imperials"
    scenario_package = SCENARIO_PACKAGE  # its scenarios: the only packaged data it reads
    templates_package = "gm_games.imperials.templates"
    cases_package = "gm_games.imperials.cases"
    parts = Parts(
        scenario=scenario, rules=rules, orders=orders, robot=robot, view=view, invariants=invariants, offline=offline
    )
    default_scenario_name = "island"
    demo_seats = 4
    options = (
        GameOption(
            "mode",
            "basic",
            "basic: the Basic rules; wonders: Wonders & Warriors "
            "(commodities, improvements, wonders, warriors, the dragon)",
            ("basic", "wonders"),
        ),
        GameOption(
            "round-limit",
            rules.ROUND_LIMIT,
            "rounds before the game ends with the most victory points winning, if nobody has won by then; 0: no limit",
        ),
    )

    def order_warnings(self, state: JSONObject, seat: str, order_list: list[Order]) -> list[Problem]:
        return orders.order_warnings(state, seat, order_list)

    def order_line(self, order: Order) -> str:
        return grammar.order_line(order.verb, order.args)

    def score_label(self, state: JSONObject) -> tuple[str, str]:
        return rules.score_label(state)

    def hidden_variant(self, state: JSONObject, seat: str, rng: Random) -> JSONObject:
        """A copy of the state where only what `seat` alone may know differs: its hand, its
        action cards and its standing answers (contract: every other view stays the same)."""
        return _hidden_variant(state, seat, rng)


ruleset = ImperialsRuleset()

__all__ = ["ImperialsRuleset", "ruleset"]
