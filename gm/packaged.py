"""Scenarios a ruleset ships as TOML files in its package: listing and reading them."""
from __future__ import annotations

from importlib import resources

from gm.core.ruleset import ScenarioError


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
