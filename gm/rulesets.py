"""Finding rulesets: every game, built-in or plug-in, registers in the gm.games entry-point group."""
from __future__ import annotations

from functools import lru_cache
from importlib.metadata import entry_points

from gm.core.ruleset import Ruleset
from gm.errors import GMError

GROUP = "gm.games"


@lru_cache(maxsize=None)
def installed() -> dict[str, Ruleset]:
    found: dict[str, Ruleset] = {}
    for entry in entry_points(group=GROUP):
        found[entry.name] = entry.load()
    return found


def get_ruleset(name: str) -> Ruleset:
    rulesets = installed()
    if name not in rulesets:
        known = ", ".join(sorted(rulesets)) or "none"
        raise GMError(f"unknown ruleset '{name}'. Installed rulesets: {known}.")
    return rulesets[name]
