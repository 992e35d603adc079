"""The contract every ruleset fulfils, and the seeds a turn hands to it."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from random import Random
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from gm.core.model import JSONObject, Order, Outcome, Problem, SeatInfo, TurnResult
from gm.core.seeds import rng_for

if TYPE_CHECKING:  # gm.core.order_grammar reads the warnings, which read this module
    from gm.core.order_grammar import OrderGrammar


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
    and new_game. The members after the first group are optional: BaseRuleset gives each its
    default, so a ruleset subclasses it (or gm.packaged.PackagedRuleset) and overrides what it
    has. docs/writing-a-ruleset.md explains each member; gm reaches a ruleset only through the
    door of gm/rulesets.py, which turns an exception of the ruleset into an error for the GM.
    """

    @property
    def name(self) -> str: ...  # the name GMs type: --ruleset clash
    @property
    def version(self) -> str: ...  # stored with every turn; bump when resolution changes
    @property
    def title(self) -> str: ...  # "Clash of Empires"

    def scenario_names(self) -> list[str]: ...
    def default_scenario(self) -> str: ...
    def scenario_text(self, name: str) -> str: ...
    def load_scenario(self, text: str, source: str) -> JSONObject: ...  # raises ScenarioError
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

    # Optional: BaseRuleset's defaults are in brackets.
    @property
    def templates_package(self) -> str | None: ...  # its report part lives here [None]
    @property
    def cases_package(self) -> str | None: ...  # its rule-book conformance cases [None]
    @property
    def demo_seats(self) -> int: ...  # seats of `gm demo` [4]
    def game_options(self) -> tuple[GameOption, ...]: ...  # [(): none]
    def seat_codes(self, scenario: JSONObject) -> list[str]: ...  # in seating order [scenario["seats"]]
    def seat_limits(self, scenario: JSONObject) -> tuple[int, int]: ...  # (min, max) [min_seats, max_seats]
    def order_warnings(self, state: JSONObject, seat: str, orders: list[Order]) -> list[Problem]: ...  # [[]]
    def check_by_view(self, view: JSONObject, seat: str, orders: list[Order]) -> list[Problem]: ...  # [[]]
    def warnings_by_view(self, view: JSONObject, seat: str, orders: list[Order]) -> list[Problem]: ...  # [[]]
    def order_grammar(self, view: JSONObject, seat: str) -> OrderGrammar | None: ...  # [None: free text]
    def order_line(self, order: Order) -> str: ...  # [the verb and its args, a space between]
    def score_label(self, state: JSONObject) -> tuple[str, str]: ...  # [("Score", "Score")]
    def knocked_out(self, state: JSONObject) -> list[str]: ...  # [[]]
    def hidden_variant(self, state: JSONObject, seat: str, rng: Random) -> JSONObject | None: ...  # [None]
    def invariants(
        self, before: JSONObject, orders: dict[str, list[Order]], result: TurnResult
    ) -> list[str]: ...  # [[]]


# The members every ruleset must define itself; BaseRuleset gives the rest (OPTIONAL) their defaults.
REQUIRED = (
    "name",
    "version",
    "title",
    "scenario_names",
    "default_scenario",
    "scenario_text",
    "load_scenario",
    "new_game",
    "parse_orders",
    "check_orders",
    "resolve",
    "robot_orders",
    "view",
    "order_form",
    "turn_label",
    "scores",
    "is_over",
)
OPTIONAL = (
    "templates_package",
    "cases_package",
    "demo_seats",
    "game_options",
    "seat_codes",
    "seat_limits",
    "order_warnings",
    "check_by_view",
    "warnings_by_view",
    "order_grammar",
    "order_line",
    "score_label",
    "knocked_out",
    "hidden_variant",
    "invariants",
)


class BaseRuleset:
    """Every optional member of the Ruleset contract with its default, as python-chess's Board
    carries what its variants override: a ruleset subclasses this (gm.packaged.PackagedRuleset
    does) and overrides only what its game has, so gm calls every member of every ruleset
    without asking whether it is there."""

    templates_package: str | None = None  # the package of its report part, <name>_report.html
    cases_package: str | None = None  # the package of its rule-book conformance cases, *.toml
    demo_seats = 4  # how many robot seats `gm demo --ruleset NAME` plays
    options: tuple[GameOption, ...] = ()  # what the GM may choose when creating a game

    def game_options(self) -> tuple[GameOption, ...]:
        """The options a GM may choose when creating a game (`options`); none by default."""
        return tuple(self.options)

    def seat_codes(self, scenario: JSONObject) -> list[str]:
        """The seat codes in seating order: by default each scenario["seats"][i]["code"]."""
        return [str(seat["code"]) for seat in scenario["seats"]]

    def seat_limits(self, scenario: JSONObject) -> tuple[int, int]:
        """(fewest, most) seats a game takes: by default the scenario's min_seats and max_seats."""
        return int(scenario["min_seats"]), int(scenario["max_seats"])

    def order_warnings(self, state: JSONObject, seat: str, orders: list[Order]) -> list[Problem]:
        """What is probably a slip in orders that count all the same; none by default."""
        return []

    def check_by_view(self, view: JSONObject, seat: str, orders: list[Order]) -> list[Problem]:
        """The player's own check (gm orders check --report): the problems of check_orders that
        the seat's own view(state, seat) settles alone (its pieces, the board's places), in
        check_orders' own words, and never one check_orders would not give. Whatever the view
        holds (a report file may be anything), it never raises; none by default."""
        return []

    def warnings_by_view(self, view: JSONObject, seat: str, orders: list[Order]) -> list[Problem]:
        """The player's own check's warnings: those of order_warnings that the seat's own view
        settles alone (an order that fails on its own when the turn runs, D-ALL-3), in
        order_warnings' own words, and never one it would not give. Like check_by_view it reads
        the view as untrusted and never raises; none by default."""
        return []

    def order_grammar(self, view: JSONObject, seat: str) -> OrderGrammar | None:
        """The ruleset's orders as data with the facts of the seat's position in its view (a
        place of the board, a piece of the seat, a card held): the player's own check and the
        turn kit's check and order builder read it (gm.core.order_grammar). None by default:
        the kit gives a free text box only. Never raises, whatever the view holds."""
        return None

    def order_line(self, order: Order) -> str:
        """The order as a player writes it, the one line parse_orders reads back as this very
        order (acknowledgements echo it); by default its verb and arguments, a space between."""
        return " ".join([order.verb, *(str(arg) for arg in order.args)])

    def score_label(self, state: JSONObject) -> tuple[str, str]:
        """What scores(state) counts, as (the table's title, its column)."""
        return ("Score", "Score")

    def knocked_out(self, state: JSONObject) -> list[str]:
        """Seats out of the game, for the house's knock-out discount; none by default (the
        toolkit's own eliminations count without it)."""
        return []

    def hidden_variant(self, state: JSONObject, seat: str, rng: Random) -> JSONObject | None:
        """A copy of state in which only what `seat` alone may know is changed; None (the
        default) says the state keeps nothing from any seat."""
        return None

    def invariants(self, before: JSONObject, orders: dict[str, list[Order]], result: TurnResult) -> list[str]:
        """Every rule-book invariant the turn from `before` to `result` broke, one line each
        naming its rule (gm.testing.battery checks them); none by default."""
        return []
