"""The contract every ruleset fulfils, and the seeds a turn hands to it."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from random import Random
from typing import Protocol, runtime_checkable

from gm.core.model import JSONObject, Order, Outcome, Problem, SeatInfo, TurnResult
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


_YES, _NO = ("yes", "true", "on", "1"), ("no", "false", "off", "0")


@dataclass(frozen=True)
class GameOption:
    """A choice the GM makes once, when creating a game: `gm game new G --option NAME=VALUE`.

    name: as the GM types it, lower case with '-' between words (mode, round-limit).
    default: the value when the GM says nothing; its type is the option's type: text, a whole
        number, or yes/no (bool).
    help: one line saying what the option does, for `gm rules list` and the ruleset's docs.
    choices: the values a text option may take; empty means any text.
    """

    name: str
    default: str | int | bool
    help: str
    choices: tuple[str, ...] = ()

    def read(self, value: object) -> str | int | bool:
        """The value as the ruleset reads it, from a GM's text or a stored/typed value."""
        if isinstance(self.default, bool):
            return self._read_bool(value)
        if isinstance(self.default, int):
            return self._read_int(value)
        text = str(value).strip().lower() if self.choices else str(value).strip()
        if self.choices and text not in self.choices:
            raise ScenarioError(f"option {self.name} is one of {', '.join(self.choices)}, not {value!r}")
        return text

    def _read_bool(self, value: object) -> bool:
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text not in _YES + _NO:
            raise ScenarioError(f"option {self.name} is yes or no, not {value!r}")
        return text in _YES

    def _read_int(self, value: object) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        try:
            return int(str(value).strip())
        except ValueError:
            raise ScenarioError(f"option {self.name} is a whole number, not {value!r}") from None


def choose_options(offered: Iterable[GameOption], chosen: Mapping[str, object]) -> dict[str, str | int | bool]:
    """Every option a ruleset offers, with the GM's choices read and the rest at their defaults."""
    by_name = {option.name: option for option in offered}
    unknown = sorted(set(chosen) - set(by_name))
    if unknown:
        known = ", ".join(sorted(by_name)) or "none"
        raise ScenarioError(f"there is no option {unknown[0]!r}; the options are: {known}")
    return {
        name: option.read(chosen[name]) if name in chosen else option.default
        for name, option in sorted(by_name.items())
    }


def with_options(scenario: JSONObject, options: Mapping[str, object]) -> JSONObject:
    """The scenario as a ruleset reads it: its own data, and every option at scenario["options"].

    A ruleset without options gets its scenario unchanged, so its states (and their hashes) are
    the same as before options existed.
    """
    return {**scenario, "options": dict(options)} if options else scenario


@runtime_checkable
class Ruleset(Protocol):
    """What gm needs from a game. States are JSON-able dicts owned by the ruleset.

    Everything here is pure except load_scenario/scenario_text, which read the ruleset's own
    packaged data. resolve never raises for bad player input and never mutates its arguments.
    load_scenario returns the scenario with every game option at its default in
    scenario["options"]; gm replaces them with the GM's choices (with_options) before seat_limits
    and new_game. docs/writing-a-ruleset.md explains each method and the optional attributes
    (templates_package, cases_package, demo_seats, hidden_variant).
    """

    name: str  # the name GMs type: --ruleset clash
    version: str  # stored with every turn; bump when resolution changes
    title: str  # "Clash of Empires"

    def game_options(self) -> tuple[GameOption, ...]: ...  # () when it has none
    def scenario_names(self) -> list[str]: ...
    def default_scenario(self) -> str: ...
    def scenario_text(self, name: str) -> str: ...
    def load_scenario(self, text: str, source: str) -> JSONObject: ...  # raises ScenarioError
    def seat_codes(self, scenario: JSONObject) -> list[str]: ...  # codes in seating order
    def seat_limits(self, scenario: JSONObject) -> tuple[int, int]: ...  # (min, max) seats
    def new_game(self, scenario: JSONObject, seats: list[SeatInfo], seeds: TurnSeeds) -> JSONObject: ...
    def parse_orders(self, lines: list[tuple[int, str]]) -> tuple[list[Order], list[Problem]]: ...
    def check_orders(self, state: JSONObject, seat: str, orders: list[Order]) -> list[Problem]: ...
    def resolve(self, state: JSONObject, orders: dict[str, list[Order]], seeds: TurnSeeds) -> TurnResult: ...
    def robot_orders(self, state: JSONObject, seat: str, rng: Random) -> list[Order]: ...
    def view(self, state: JSONObject, seat: str) -> JSONObject: ...
    def order_form(self, state: JSONObject, seat: str) -> list[str]: ...
    def turn_label(self, state: JSONObject) -> str: ...
    def scores(self, state: JSONObject) -> dict[str, int]: ...
    def is_over(self, state: JSONObject) -> Outcome | None: ...
