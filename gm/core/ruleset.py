"""The contract every ruleset fulfils, and the seeds a turn hands to it."""
from __future__ import annotations

from dataclasses import dataclass
from random import Random
from typing import Protocol, runtime_checkable

from gm.core.model import Order, Outcome, Problem, SeatInfo, TurnResult
from gm.core.seeds import rng_for


@dataclass(frozen=True)
class TurnSeeds:
    """The randomness of one turn: one generator per purpose (rule D-ALL-1).

    game_seed: the seed chosen when the game was created.
    turn: the number of the turn being resolved.
    """

    game_seed: int
    turn: int

    def rng(self, purpose: str) -> Random:
        return rng_for(self.game_seed, self.turn, purpose)


class ScenarioError(ValueError):
    """A scenario file that cannot make a game: the message says what and where."""


@runtime_checkable
class Ruleset(Protocol):
    """What gm needs from a game. States are JSON-able dicts owned by the ruleset.

    Everything here is pure except load_scenario/scenario_text, which read the ruleset's own
    packaged data. resolve never raises for bad player input and never mutates its arguments.
    """

    name: str       # the name GMs type: --ruleset clash
    version: str    # stored with every turn; bump when resolution changes
    title: str      # "Clash of Empires"

    def scenario_names(self) -> list[str]: ...
    def default_scenario(self) -> str: ...
    def scenario_text(self, name: str) -> str: ...
    def load_scenario(self, text: str, source: str) -> dict: ...      # raises ScenarioError
    def seat_codes(self, scenario: dict) -> list[str]: ...            # codes in seating order
    def seat_limits(self, scenario: dict) -> tuple[int, int]: ...     # (min, max) seats
    def new_game(self, scenario: dict, seats: list[SeatInfo], seeds: TurnSeeds) -> dict: ...
    def parse_orders(self, lines: list[tuple[int, str]]) -> tuple[list[Order], list[Problem]]: ...
    def check_orders(self, state: dict, seat: str, orders: list[Order]) -> list[Problem]: ...
    def resolve(self, state: dict, orders: dict[str, list[Order]], seeds: TurnSeeds) -> TurnResult: ...
    def robot_orders(self, state: dict, seat: str, rng: Random) -> list[Order]: ...
    def view(self, state: dict, seat: str) -> dict: ...
    def order_form(self, state: dict, seat: str) -> list[str]: ...
    def turn_label(self, state: dict) -> str: ...
    def scores(self, state: dict) -> dict[str, int]: ...
    def is_over(self, state: dict) -> Outcome | None: ...
