"""Finding rulesets, and the one door through which gm calls them.

Every game, built-in or plug-in, registers in the gm.games entry-point group. A plug-in that
fails to load, lacks a member of the contract, or names a templates package gm cannot read is
kept aside with the reason (`gm rules list` shows it) instead of stopping every gm command.

Every call from gm into a ruleset goes through a Guarded ruleset (installed() and get_ruleset()
give nothing else): an exception the ruleset raises comes out as a RulesetFault, a GMError that
names the ruleset, the method and the game, as beancount turns a plug-in's failure into an error
value. So one game's bug is that game's problem: gm run-due goes on with the other games, mail
intake with the other messages.
"""

from __future__ import annotations

import sys
import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from importlib.abc import Traversable
from importlib.metadata import entry_points
from importlib.util import find_spec
from pathlib import Path
from random import Random
from typing import Protocol, TypeVar, cast

from gm.core import agreement
from gm.core.model import JSONObject, Order, Outcome, Problem, SeatInfo, TurnResult
from gm.core.order_grammar import OrderGrammar
from gm.core.ruleset import OPTIONAL, REQUIRED, GameOption, Ruleset, ScenarioError, TurnSeeds
from gm.errors import GMError

GROUP = "gm.games"
MEMBERS = REQUIRED + OPTIONAL
T = TypeVar("T")


class RulesetFault(GMError):
    """A ruleset raised where the contract says it must not: a bug in the ruleset, not a
    mistake of the GM or a player. ruleset, version, method: where; game: the game it was
    working on (None when gm called it for no game); cause: the exception, as "Type: message
    (file line N)"."""

    def __init__(self, ruleset: str, version: str, method: str, game: str | None, cause: str):
        self.ruleset, self.version, self.method, self.game, self.cause = ruleset, version, method, game, cause
        where = f" for game '{game}'" if game else ""
        super().__init__(
            f"the {ruleset} ruleset ({version}) failed in {method}{where}: {cause}. This is a bug in the "
            "ruleset, not in the game: give this message to the ruleset's author and install a fixed version."
        )

    @classmethod
    def of(cls, ruleset: Ruleset, method: str, game: str | None, exc: BaseException) -> RulesetFault:
        """The fault for `exc`, raised by `ruleset`'s `method` (or its templates: "render")."""
        inner = ruleset.unguarded if isinstance(ruleset, Guarded) else ruleset
        return cls(ruleset.name, ruleset.version, method, game, cause_of(exc, _package_folder(inner)))


def cause_of(exc: BaseException, near: Path | None = None) -> str:
    """'ZeroDivisionError: division by zero (mygame/rules.py line 12)': the exception and the
    line that raised it, which is what a ruleset's author needs from the GM: the innermost line
    in the folder `near` (the ruleset's package, its templates included), else the innermost."""
    frames = traceback.extract_tb(exc.__traceback__)
    own = [f for f in frames if near is not None and Path(f.filename).is_relative_to(near)]
    if not frames:
        return f"{type(exc).__name__}: {exc}"
    frame = (own or frames)[-1]
    shown = Path(frame.filename).relative_to(near.parent) if own and near is not None else Path(frame.filename).name
    return f"{type(exc).__name__}: {exc} ({shown} line {frame.lineno})"


def _package_folder(ruleset: Ruleset) -> Path | None:
    """The folder of the package that defines the ruleset's class."""
    module = sys.modules.get(type(ruleset).__module__)
    where = module.__file__ if module is not None else None
    return Path(where).parent if where else None


class Guarded:
    """A ruleset behind the door: every member of the contract, each call passed on and any
    exception of the ruleset turned into a RulesetFault naming `game` (see for_game).
    ScenarioError passes as it is where the contract lets a ruleset raise it (loading a
    scenario, starting a game with seats the scenario cannot take)."""

    def __init__(self, ruleset: Ruleset, game: str | None = None):
        self.unguarded = ruleset  # for tests and tools that look inside one ruleset's own parts
        self.game = game

    def for_game(self, game: str) -> Guarded:
        """The same ruleset, its faults naming `game`."""
        return Guarded(self.unguarded, game)

    def _call(self, method: str, call: Callable[[], T], passes: tuple[type[Exception], ...] = ()) -> T:
        try:
            return call()
        except passes:
            raise
        except Exception as exc:  # the door: a ruleset's bug becomes the GM's error message
            raise RulesetFault.of(self.unguarded, method, self.game, exc) from exc

    # What a ruleset is called, and its packages: attributes, read as they are.
    @property
    def name(self) -> str:
        return self.unguarded.name

    @property
    def version(self) -> str:
        return self.unguarded.version

    @property
    def title(self) -> str:
        return self.unguarded.title

    @property
    def templates_package(self) -> str | None:
        return self.unguarded.templates_package

    @property
    def cases_package(self) -> str | None:
        return self.unguarded.cases_package

    @property
    def demo_seats(self) -> int:
        return self._call("demo_seats", lambda: int(self.unguarded.demo_seats))

    def scenario_names(self) -> list[str]:
        return self._call("scenario_names", self.unguarded.scenario_names)

    def default_scenario(self) -> str:
        return self._call("default_scenario", self.unguarded.default_scenario)

    def scenario_text(self, name: str) -> str:
        return self._call("scenario_text", lambda: self.unguarded.scenario_text(name), (ScenarioError,))

    def load_scenario(self, text: str, source: str) -> JSONObject:
        return self._call("load_scenario", lambda: self.unguarded.load_scenario(text, source), (ScenarioError,))

    def game_options(self) -> tuple[GameOption, ...]:
        return self._call("game_options", lambda: tuple(self.unguarded.game_options()))

    def seat_codes(self, scenario: JSONObject) -> list[str]:
        return self._call("seat_codes", lambda: self.unguarded.seat_codes(scenario), (ScenarioError,))

    def seat_limits(self, scenario: JSONObject) -> tuple[int, int]:
        return self._call("seat_limits", lambda: self.unguarded.seat_limits(scenario), (ScenarioError,))

    def new_game(self, scenario: JSONObject, seats: list[SeatInfo], seeds: TurnSeeds) -> JSONObject:
        return self._call("new_game", lambda: self.unguarded.new_game(scenario, seats, seeds), (ScenarioError,))

    def parse_orders(self, lines: list[tuple[int, str]]) -> tuple[list[Order], list[Problem]]:
        return self._call("parse_orders", lambda: self.unguarded.parse_orders(lines))

    def check_orders(self, state: JSONObject, seat: str, orders: list[Order]) -> list[Problem]:
        return self._call("check_orders", lambda: self.unguarded.check_orders(state, seat, orders))

    def order_warnings(self, state: JSONObject, seat: str, orders: list[Order]) -> list[Problem]:
        return self._call("order_warnings", lambda: list(self.unguarded.order_warnings(state, seat, orders)))

    def check_by_view(self, view: JSONObject, seat: str, orders: list[Order]) -> list[Problem]:
        return self._call("check_by_view", lambda: list(self.unguarded.check_by_view(view, seat, orders)))

    def warnings_by_view(self, view: JSONObject, seat: str, orders: list[Order]) -> list[Problem]:
        return self._call("warnings_by_view", lambda: list(self.unguarded.warnings_by_view(view, seat, orders)))

    def order_grammar(self, view: JSONObject, seat: str) -> OrderGrammar | None:
        return self._call("order_grammar", lambda: self.unguarded.order_grammar(view, seat))

    def order_line(self, order: Order) -> str:
        return self._call("order_line", lambda: self.unguarded.order_line(order))

    def resolve(self, state: JSONObject, orders: dict[str, list[Order]], seeds: TurnSeeds) -> TurnResult:
        return self._call("resolve", lambda: self.unguarded.resolve(state, orders, seeds))

    def robot_orders(self, state: JSONObject, seat: str, rng: Random) -> list[Order]:
        return self._call("robot_orders", lambda: self.unguarded.robot_orders(state, seat, rng))

    def view(self, state: JSONObject, seat: str) -> JSONObject:
        return self._call("view", lambda: self.unguarded.view(state, seat))

    def hidden_variant(self, state: JSONObject, seat: str, rng: Random) -> JSONObject | None:
        return self._call("hidden_variant", lambda: self.unguarded.hidden_variant(state, seat, rng))

    def order_form(self, state: JSONObject, seat: str) -> list[str]:
        return self._call("order_form", lambda: self.unguarded.order_form(state, seat))

    def turn_label(self, state: JSONObject) -> str:
        return self._call("turn_label", lambda: self.unguarded.turn_label(state))

    def scores(self, state: JSONObject) -> dict[str, int]:
        return self._call("scores", lambda: self.unguarded.scores(state))

    def score_label(self, state: JSONObject) -> tuple[str, str]:
        return self._call("score_label", lambda: _pair(self.unguarded.score_label(state)))

    def knocked_out(self, state: JSONObject) -> list[str]:
        return self._call("knocked_out", lambda: list(self.unguarded.knocked_out(state)))

    def is_over(self, state: JSONObject) -> Outcome | None:
        """The ruleset's outcome; else the ending its seats agreed by vote (gm/core/agreement.py),
        which the toolkit keeps in the state of the game's last turn."""
        ruled = self._call("is_over", lambda: self.unguarded.is_over(state))
        agreed = agreement.record_of(state)
        if ruled is not None or agreed is None:
            return ruled
        return Outcome(tuple(agreed["winners"]), agreement.reason(agreed), self.scores(state))

    def invariants(self, before: JSONObject, orders: dict[str, list[Order]], result: TurnResult) -> list[str]:
        return self._call("invariants", lambda: list(self.unguarded.invariants(before, orders, result)))


def _pair(label: tuple[str, str]) -> tuple[str, str]:
    title, column = label
    return str(title), str(column)


@dataclass(frozen=True)
class Found:
    """The installed rulesets by name (behind the door), and the entry points that could not
    be used, with why."""

    rulesets: dict[str, Guarded]
    broken: dict[str, str]


class EntryPoint(Protocol):
    """What load_entry_points reads of an importlib.metadata entry point."""

    @property
    def name(self) -> str: ...
    @property
    def value(self) -> str: ...
    def load(self) -> object: ...


def load_entry_points(points: Iterable[EntryPoint]) -> Found:
    """Load each entry point; one that raises, gives an object without every member of the
    contract, or names templates gm cannot read goes to `broken` with a one-line reason."""
    rulesets: dict[str, Guarded] = {}
    broken: dict[str, str] = {}
    for entry in points:
        try:
            loaded = entry.load()
        except Exception as exc:  # a third party's bug must not stop gm: report it instead
            broken[entry.name] = f"{entry.value} cannot be loaded: {type(exc).__name__}: {exc}"
            continue
        why = _unusable(entry, loaded)
        if why:
            broken[entry.name] = why
        else:
            rulesets[entry.name] = Guarded(cast(Ruleset, loaded))  # _unusable checked every member
    return Found(rulesets, broken)


def _unusable(entry: EntryPoint, loaded: object) -> str | None:
    """Why the loaded object cannot be a ruleset, or None."""
    missing = [name for name in MEMBERS if not hasattr(loaded, name)]
    if missing:
        return (
            f"{entry.value} is not a ruleset: it has no {', '.join(missing)} (a subclass of "
            "gm.packaged.PackagedRuleset or gm.core.ruleset.BaseRuleset has every optional member)"
        )
    ruleset = cast(Ruleset, loaded)
    if ruleset.name != entry.name:
        return f"{entry.value} calls itself {ruleset.name!r}, not {entry.name!r}"
    return _unreadable_templates(entry, ruleset.templates_package)


def _unreadable_templates(entry: EntryPoint, package: str | None) -> str | None:
    """Why gm could not read the report templates of `package`, or None. A folder without an
    __init__.py imports as a namespace package, whose files importlib.resources cannot give as
    one folder: every turn of the game would commit and then fail to publish."""
    if package is None:
        return None
    try:
        spec = find_spec(package)
    except Exception as exc:  # its parent package raised on import
        return f"{entry.value}: its templates_package {package} cannot be imported: {type(exc).__name__}: {exc}"
    if spec is None:
        return f"{entry.value}: its templates_package {package} is not installed"
    if spec.origin is None or spec.submodule_search_locations is None:
        folder = package.replace(".", "/")
        return (
            f"{entry.value}: its templates_package {package} is not a package (a folder without "
            f"__init__.py): add an empty {folder}/__init__.py and ship it with the templates"
        )
    return None


@cache
def found() -> Found:
    return load_entry_points(entry_points(group=GROUP))


def installed() -> dict[str, Guarded]:
    return found().rulesets


def get_ruleset(name: str) -> Guarded:
    rulesets = installed()
    if name in found().broken:
        raise GMError(f"ruleset '{name}' is installed but broken: {found().broken[name]}.")
    if name not in rulesets:
        known = ", ".join(sorted(rulesets)) or "none"
        raise GMError(f"unknown ruleset '{name}'. Installed rulesets: {known}.")
    return rulesets[name]


def template_dirs(ruleset: Ruleset) -> list[Path]:
    """The folder of the ruleset's report templates, if it names one (templates_package)."""
    package = ruleset.templates_package
    return [Path(str(resources.files(package)))] if package else []


def case_files(ruleset: Ruleset) -> list[Traversable]:
    """The ruleset's packaged conformance cases (cases_package/*.toml), by file name."""
    package = ruleset.cases_package
    if not package:
        return []
    folder = resources.files(package)
    return sorted((f for f in folder.iterdir() if f.name.endswith(".toml")), key=lambda f: f.name)
