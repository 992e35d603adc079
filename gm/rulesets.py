"""Finding rulesets: every game, built-in or plug-in, registers in the gm.games entry-point group.

A plug-in that fails to load, or loads something that is not a ruleset, is kept aside with the
reason (`gm rules list` shows it) instead of stopping every gm command.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources
from importlib.abc import Traversable
from importlib.metadata import entry_points
from pathlib import Path

from gm.core.ruleset import GameOption, Ruleset
from gm.errors import GMError

GROUP = "gm.games"
# What every ruleset object must have; the optional attributes are read with defaults below.
REQUIRED = (
    "name",
    "version",
    "title",
    "scenario_names",
    "default_scenario",
    "scenario_text",
    "load_scenario",
    "seat_codes",
    "seat_limits",
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


@dataclass(frozen=True)
class Found:
    """The installed rulesets by name, and the entry points that could not be used, with why."""

    rulesets: dict[str, Ruleset]
    broken: dict[str, str]


def load_entry_points(points) -> Found:
    """Load each entry point; one that raises, or gives an object without the contract's
    methods, goes to `broken` with a one-line reason."""
    rulesets: dict[str, Ruleset] = {}
    broken: dict[str, str] = {}
    for entry in points:
        try:
            loaded = entry.load()
        except Exception as exc:  # a third party's bug must not stop gm: report it instead
            broken[entry.name] = f"{entry.value} cannot be loaded: {type(exc).__name__}: {exc}"
            continue
        missing = [name for name in REQUIRED if not hasattr(loaded, name)]
        if missing:
            broken[entry.name] = f"{entry.value} is not a ruleset: it has no {', '.join(missing)}"
        elif loaded.name != entry.name:
            broken[entry.name] = f"{entry.value} calls itself {loaded.name!r}, not {entry.name!r}"
        else:
            rulesets[entry.name] = loaded
    return Found(rulesets, broken)


@cache
def found() -> Found:
    return load_entry_points(entry_points(group=GROUP))


def installed() -> dict[str, Ruleset]:
    return found().rulesets


def get_ruleset(name: str) -> Ruleset:
    rulesets = installed()
    if name in found().broken:
        raise GMError(f"ruleset '{name}' is installed but broken: {found().broken[name]}.")
    if name not in rulesets:
        known = ", ".join(sorted(rulesets)) or "none"
        raise GMError(f"unknown ruleset '{name}'. Installed rulesets: {known}.")
    return rulesets[name]


def game_options(ruleset: Ruleset) -> tuple[GameOption, ...]:
    """The options a GM may choose when creating a game of this ruleset."""
    offered = getattr(ruleset, "game_options", None)
    return tuple(offered()) if callable(offered) else ()


def template_dirs(ruleset: Ruleset) -> list[Path]:
    """The folder of the ruleset's report templates, if it names one (templates_package)."""
    package = getattr(ruleset, "templates_package", None)
    return [Path(str(resources.files(package)))] if package else []


def case_files(ruleset: Ruleset) -> list[Traversable]:
    """The ruleset's packaged conformance cases (cases_package/*.toml), by file name."""
    package = getattr(ruleset, "cases_package", None)
    if not package:
        return []
    folder = resources.files(package)
    return sorted((f for f in folder.iterdir() if f.name.endswith(".toml")), key=lambda f: f.name)
