"""Clash of Empires for gm: the ruleset object the `gm.games` entry point names."""
from __future__ import annotations

from random import Random

from gm.core.model import Order, Outcome, Problem, SeatInfo, TurnResult
from gm.core.ruleset import TurnSeeds
from gm.packaged import PackagedScenarios

from . import orders, robot, rules, scenario, view

SCENARIO_PACKAGE = "gm_games.clash.scenarios"


class ClashRuleset(PackagedScenarios):
    """Clash of Empires: 30 rounds of one action each, deterministic combat, victory points."""

    name = "clash"
    version = "1.0"
    title = "Clash of Empires"
    scenario_package = SCENARIO_PACKAGE  # its scenarios: the only packaged data it reads

    def default_scenario(self) -> str:
        return "europe"

    def load_scenario(self, text: str, source: str) -> dict:
        return scenario.load_scenario_text(text, source)

    def seat_codes(self, scenario: dict) -> list[str]:
        return [seat["code"] for seat in scenario["seats"]]

    def seat_limits(self, scenario: dict) -> tuple[int, int]:
        return scenario["min_seats"], scenario["max_seats"]

    def new_game(self, scenario: dict, seats: list[SeatInfo], seeds: TurnSeeds) -> dict:
        return rules.new_game(scenario, seats, seeds)

    def parse_orders(self, lines: list[tuple[int, str]]) -> tuple[list[Order], list[Problem]]:
        return orders.parse_orders(lines)

    def check_orders(self, state: dict, seat: str, order_list: list[Order]) -> list[Problem]:
        return orders.check_orders(state, seat, order_list)

    def resolve(self, state: dict, orders_by_seat: dict, seeds: TurnSeeds) -> TurnResult:
        return rules.resolve(state, orders_by_seat, seeds)

    def robot_orders(self, state: dict, seat: str, rng: Random) -> list[Order]:
        return robot.robot_orders(state, seat, rng)

    def view(self, state: dict, seat: str) -> dict:
        return view.view(state, seat)

    def order_form(self, state: dict, seat: str) -> list[str]:
        return view.order_form(state, seat)

    def turn_label(self, state: dict) -> str:
        return view.turn_label(state)

    def scores(self, state: dict) -> dict[str, int]:
        return rules.scores(state)

    def is_over(self, state: dict) -> Outcome | None:
        return rules.outcome(state)


ruleset = ClashRuleset()

__all__ = ["ClashRuleset", "ruleset"]
