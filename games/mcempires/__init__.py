"""Minecraft EMPIRES for gm: the ruleset object the `gm.games` entry point names."""
from __future__ import annotations

from types import SimpleNamespace

from gm.packaged import PackagedRuleset

from . import orders, robot, rules, scenario, view

SCENARIO_PACKAGE = "gm_games.mcempires.scenarios"


class McEmpiresRuleset(PackagedRuleset):
    """Minecraft EMPIRES: a world of blocks, cities and infrastructure, groups of troops, dice
    battles, capture and capitulation; the last empire standing wins."""

    name = "mcempires"
    version = "1.0"
    title = "Minecraft EMPIRES"
    scenario_package = SCENARIO_PACKAGE  # its scenarios: the only packaged data it reads
    parts = SimpleNamespace(scenario=scenario, rules=rules, orders=orders, robot=robot, view=view)
    demo_seats = 6  # `gm demo --ruleset mcempires` seats this many robot empires
    default_scenario_name = "frontier"

    def seat_codes(self, scenario: dict) -> list[str]:
        return [seat["code"] for seat in scenario["seats"]]

    def hidden_variant(self, state: dict, seat: str, rng) -> dict:
        """The state as it might be if `seat`'s private facts were different: its standing
        orders (how its groups defend, which cities it would destroy) are its own secret."""
        return view.hidden_variant(state, seat, rng)


ruleset = McEmpiresRuleset()

__all__ = ["McEmpiresRuleset", "ruleset"]
