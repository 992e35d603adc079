"""Reading a ruleset's scenario TOML: parse, check in stages, and typed fields that collect
every problem instead of stopping at the first. Pure: text in, dict or ScenarioError out."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Sequence
from typing import Any

from gm.core.model import JSONObject, SeatInfo
from gm.core.ruleset import ScenarioError

COLOUR = re.compile(r"#[0-9a-fA-F]{6}")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# Each kind of field: the test a value must pass, and how a problem names the kind.
KINDS: dict[str, tuple[Callable[[object], bool], str]] = {
    "int": (_is_int, "a whole number"),
    "str": (lambda v: isinstance(v, str), "a string"),
    "bool": (lambda v: isinstance(v, bool), "true or false"),
    "codes": (lambda v: isinstance(v, list) and all(isinstance(c, str) for c in v), "a list of codes"),
    "tables": (lambda v: isinstance(v, list) and all(isinstance(t, dict) for t in v), "a list of tables"),
    "troops": (lambda v: isinstance(v, dict) and all(_is_int(n) for n in v.values()), "a table of territory = troops"),
}


def is_kind(value: object, kind: str) -> bool:
    return KINDS[kind][0](value)


def load_staged(
    text: str,
    source: str,
    stages: tuple[Callable[[JSONObject], list[str]], ...],
    normalise: Callable[[JSONObject], JSONObject],
) -> JSONObject:
    """Parse a scenario's TOML and run its checks; raise ScenarioError naming the source and
    every problem of the first stage that has any (each stage relies on the ones before)."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise ScenarioError(f"{source}: not valid TOML: {err}") from None
    for stage in stages:
        problems = stage(raw)
        if problems:
            raise ScenarioError("\n".join(f"{source}: {p}" for p in problems))
    return normalise(raw)


class Fields:
    """Typed reading of one TOML table; each problem goes to `problems`, naming `where`."""

    def __init__(self, table: JSONObject, where: str, problems: list[str]):
        self.table, self.where, self.problems = table, where, problems

    def get(self, key: str, kind: str, default: Any = None, required: bool = True) -> Any:
        """The value, or `default` when it is missing (a problem if required with no default)
        or of the wrong kind (always a problem). Typed Any: a TOML value whose Python type the
        kind names (KINDS), which the caller knows and mypy cannot see from a string."""
        if key not in self.table:
            if required and default is None:
                self.problems.append(f"{self.where} has no {key}")
            return default
        value = self.table[key]
        test, words = KINDS[kind]
        if not test(value):
            self.problems.append(f"{self.where}: {key} must be {words}, not {value!r}")
            return default
        return value

    def optional(self, key: str, kind: str) -> Any:
        return self.get(key, kind, required=False)

    def unknown(self, allowed: set[str]) -> None:
        self.problems.extend(f"{self.where}: unknown field {key!r}" for key in sorted(set(self.table) - allowed))

    def code(self, pattern: re.Pattern[str], what: str, rule: str) -> str | None:
        """The table's `code`, checked against pattern; `where` then names the table by it."""
        code: str | None = self.get("code", "str")
        if code:
            self.where = f"{what} {code}"
        if code is not None and not pattern.fullmatch(code):
            self.problems.append(f"{what} code {code!r} must be {rule}")
        return code

    def colour(self, key: str = "colour", required: bool = True) -> str | None:
        colour: str | None = self.get(key, "str", required=required)
        if colour is not None and not COLOUR.fullmatch(colour):
            self.problems.append(f"{self.where}: {key} must look like #d62828, not {colour!r}")
        return colour

    def within(self, key: str, low: int, high: int, required: bool = False) -> int | None:
        value: int | None = self.get(key, "int", required=required)
        if value is not None and not low <= value <= high:
            self.problems.append(f"{self.where}: {key} must be between {low} and {high}, not {value}")
        return value

    def top(self, required: tuple[str, ...], defaults: dict[str, str | int]) -> None:
        """A scenario's top-level fields: name and title are text, the rest whole numbers;
        each default's kind follows its value."""
        for key in required:
            self.get(key, "str" if key in ("name", "title") else "int")
        for key, default in defaults.items():
            self.get(key, "str" if isinstance(default, str) else "int", required=False)


def seat_counts(raw: JSONObject, listed: int, nouns: str = "seats") -> list[str]:
    """What is wrong with a scenario's min_seats and max_seats: the least must be at least 2 and
    no more than the most, the most no more than the `listed` seats the scenario names. `nouns` is
    what the game calls its seats ("countries")."""
    problems: list[str] = []
    low, high = raw["min_seats"], raw["max_seats"]
    if low < 2:
        problems.append(f"min_seats must be at least 2, not {low}")
    if low > high:
        problems.append(f"min_seats ({low}) is more than max_seats ({high})")
    if high > listed:
        problems.append(f"max_seats is {high} but only {listed} {nouns} are listed")
    return problems


def seating(scenario: JSONObject, listed: Sequence[str], seats: Sequence[SeatInfo], nouns: str = "seats") -> list[str]:
    """The seated codes in the scenario's order (`listed`), once it is sure the seats fit: between
    the scenario's min_seats and max_seats of them, each one of its codes, none twice. Every
    ruleset's new_game starts here, so a GM gets the same answer from every game; `nouns` is
    what the game calls its seats ("countries", "empires")."""
    codes = [s.code for s in seats]
    low, high = scenario["min_seats"], scenario["max_seats"]
    if not low <= len(codes) <= high:
        raise ScenarioError(f"{scenario['name']} is for {low} to {high} {nouns}, not {len(codes)}")
    unknown = [c for c in codes if c not in listed]
    if unknown:
        raise ScenarioError(f"seat {unknown[0]} is not in {scenario['name']} (its {nouns} are {', '.join(listed)})")
    if len(set(codes)) != len(codes):
        raise ScenarioError("each seat may take part only once")
    return [code for code in listed if code in codes]
