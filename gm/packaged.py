"""Rulesets shipped as packages: their scenarios as TOML files, their parts as modules."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from random import Random
from typing import Protocol

from gm.core.model import JSONObject, Order, Outcome, Problem, SeatInfo, TurnResult
from gm.core.order_grammar import OrderGrammar
from gm.core.ruleset import BaseRuleset, ScenarioError, TurnSeeds, choose_options, with_options


# The parts of a packaged ruleset, each usually a module of its package: what gm calls on it.
class ScenarioPart(Protocol):
    def load_scenario_text(self, text: str, source: str) -> JSONObject: ...


class RulesPart(Protocol):
    def new_game(self, scenario: JSONObject, seats: list[SeatInfo], seeds: TurnSeeds) -> JSONObject: ...
    def resolve(self, state: JSONObject, orders: dict[str, list[Order]], seeds: TurnSeeds) -> TurnResult: ...
    def scores(self, state: JSONObject) -> dict[str, int]: ...
    def outcome(self, state: JSONObject) -> Outcome | None: ...


class OrdersPart(Protocol):
    def parse_orders(self, lines: list[tuple[int, str]]) -> tuple[list[Order], list[Problem]]: ...
    def check_orders(self, state: JSONObject, seat: str, orders: list[Order]) -> list[Problem]: ...


class RobotPart(Protocol):
    def robot_orders(self, state: JSONObject, seat: str, rng: Random) -> list[Order]: ...


class ViewPart(Protocol):
    def view(self, state: JSONObject, seat: str) -> JSONObject: ...
    def order_form(self, state: JSONObject, seat: str) -> list[str]: ...
    def turn_label(self, state: JSONObject) -> str: ...


class InvariantsPart(Protocol):
    def invariants(self, before: JSONObject, orders: dict[str, list[Order]], result: TurnResult) -> list[str]: ...


class OfflinePart(Protocol):
    def check_by_view(self, view: JSONObject, seat: str, orders: list[Order]) -> list[Problem]: ...
    def warnings_by_view(self, view: JSONObject, seat: str, orders: list[Order]) -> list[Problem]: ...
    def order_grammar(self, view: JSONObject, seat: str) -> OrderGrammar | None: ...


@dataclass(frozen=True)
class Parts:
    """Where each part of the contract lives (PackagedRuleset's docstring lists them); the
    optional invariants part is the rule book's invariants the battery checks (gm.testing.battery),
    the optional offline part the player's own check from a report (gm orders check --report)."""

    scenario: ScenarioPart
    rules: RulesPart
    orders: OrdersPart
    robot: RobotPart
    view: ViewPart
    invariants: InvariantsPart | None = None
    offline: OfflinePart | None = None


class PackagedScenarios:
    """Mixin for a ruleset whose scenarios are <scenario_package>/<name>.toml."""

    name: str
    scenario_package: str

    def scenario_names(self) -> list[str]:
        files = resources.files(self.scenario_package).iterdir()
        return sorted(f.name[:-5] for f in files if f.name.endswith(".toml"))

    def scenario_text(self, name: str) -> str:
        known = self.scenario_names()
        if name not in known:
            raise ScenarioError(f"{self.name} has no scenario {name!r}; it has {', '.join(known)}")
        return resources.files(self.scenario_package).joinpath(f"{name}.toml").read_text("utf-8")


class PackagedRuleset(PackagedScenarios, BaseRuleset):
    """A whole ruleset whose package keeps each part of the contract in a module of its own:

    - scenario: load_scenario_text(text, source)
    - rules: new_game, resolve, scores, outcome
    - orders: parse_orders, check_orders
    - robot: robot_orders
    - view: view, order_form, turn_label
    - invariants (optional): invariants(before, orders, result), the rule book's invariants
    - offline (optional): check_by_view, warnings_by_view, order_grammar; without it, BaseRuleset's
      defaults (the report settles nothing)

    A subclass names its package's modules in `parts` (a Parts) and the packages that hold its
    data, and overrides only what differs from BaseRuleset's defaults (seat_codes, seat_limits,
    options, order_warnings, score_label...). docs/writing-a-ruleset.md walks through one.
    """

    parts: Parts
    default_scenario_name = "europe"

    def default_scenario(self) -> str:
        return self.default_scenario_name

    def load_scenario(self, text: str, source: str) -> JSONObject:
        scenario = self.parts.scenario.load_scenario_text(text, source)
        return with_options(scenario, choose_options(self.game_options(), {}))

    def new_game(self, scenario: JSONObject, seats: list[SeatInfo], seeds: TurnSeeds) -> JSONObject:
        return self.parts.rules.new_game(scenario, seats, seeds)

    def parse_orders(self, lines: list[tuple[int, str]]) -> tuple[list[Order], list[Problem]]:
        return self.parts.orders.parse_orders(lines)

    def check_orders(self, state: JSONObject, seat: str, order_list: list[Order]) -> list[Problem]:
        return self.parts.orders.check_orders(state, seat, order_list)

    def resolve(self, state: JSONObject, orders_by_seat: dict[str, list[Order]], seeds: TurnSeeds) -> TurnResult:
        return self.parts.rules.resolve(state, orders_by_seat, seeds)

    def robot_orders(self, state: JSONObject, seat: str, rng: Random) -> list[Order]:
        return self.parts.robot.robot_orders(state, seat, rng)

    def view(self, state: JSONObject, seat: str) -> JSONObject:
        return self.parts.view.view(state, seat)

    def order_form(self, state: JSONObject, seat: str) -> list[str]:
        return self.parts.view.order_form(state, seat)

    def turn_label(self, state: JSONObject) -> str:
        return self.parts.view.turn_label(state)

    def scores(self, state: JSONObject) -> dict[str, int]:
        return self.parts.rules.scores(state)

    def is_over(self, state: JSONObject) -> Outcome | None:
        return self.parts.rules.outcome(state)

    def invariants(self, before: JSONObject, orders: dict[str, list[Order]], result: TurnResult) -> list[str]:
        """Every rule-book invariant the turn from `before` to `result` broke, one line each
        naming the rule; [] when all hold, or when the ruleset has no invariants part."""
        if self.parts.invariants is None:
            return []
        return list(self.parts.invariants.invariants(before, orders, result))

    def check_by_view(self, view: JSONObject, seat: str, order_list: list[Order]) -> list[Problem]:
        if self.parts.offline is None:
            return super().check_by_view(view, seat, order_list)
        return self.parts.offline.check_by_view(view, seat, order_list)

    def warnings_by_view(self, view: JSONObject, seat: str, order_list: list[Order]) -> list[Problem]:
        if self.parts.offline is None:
            return super().warnings_by_view(view, seat, order_list)
        return self.parts.offline.warnings_by_view(view, seat, order_list)

    def order_grammar(self, view: JSONObject, seat: str) -> OrderGrammar | None:
        if self.parts.offline is None:
            return super().order_grammar(view, seat)
        return self.parts.offline.order_grammar(view, seat)
