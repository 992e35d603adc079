"""Conqueror! for gm: the ruleset object the `gm.games` entry point names."""

from __future__ import annotations

from random import Random

from gm.core.model import JSONObject, Order, Problem
from gm.core.ruleset import GameOption
from gm.packaged import PackagedRuleset, Parts

from . import invariants, offline, orders, robot, rules, scenario, view
from .warnings import order_warnings

SCENARIO_PACKAGE = "gm_games.conqueror.scenarios"


class ConquerorRuleset(PackagedRuleset):
    """Conqueror!: simultaneous order stacks, provinces, culture and influence, AI nations."""

    name = "conqueror"
    # 1.1: the option `internal-moves` (the book's Show Internal Moves), on by default; games
    # made with 1.0 store no options and keep their moves the mover's own.
    version = "1.1"
    title = "Conqueror!"
    scenario_package = SCENARIO_PACKAGE  # its scenarios: the only packaged data it reads
    templates_package = "gm_games.conqueror.templates"
    cases_package = "gm_games.conqueror.cases"
    parts = Parts(
        scenario=scenario, rules=rules, orders=orders, robot=robot, view=view, invariants=invariants, offline=offline
    )
    demo_seats = 8  # `gm demo --ruleset conqueror` seats this many robot players
    # The book's in-game option "Show Internal Moves", on until a player turns it off: by mail
    # the GM chooses it for every report of the game (README, choice 15).
    options = (
        GameOption(
            "internal-moves",
            True,
            "every report shows the moves between a nation's own provinces (the book's Show Internal "
            "Moves, on unless turned off); no: only the mover's own report",
        ),
    )

    def hidden_variant(self, state: JSONObject, seat: str, rng: Random) -> JSONObject:
        """The state with only `seat`'s secrets changed: its treasury (so its whole score and
        prestige) and its production's progress."""
        return view.hidden_variant(state, seat, rng)

    def order_warnings(self, state: JSONObject, seat: str, order_list: list[Order]) -> list[Problem]:
        return order_warnings(state, seat, order_list)

    def score_label(self, state: JSONObject) -> tuple[str, str]:
        return rules.score_label(state)

    def knocked_out(self, state: JSONObject) -> list[str]:
        return rules.knocked_out(state)

    def seat_limits(self, scenario: JSONObject) -> tuple[int, int]:
        # With ai_fill the AI nations make up the numbers, so one player is a game.
        low = 1 if scenario["ai_fill"] else scenario["min_seats"]
        return low, scenario["max_seats"]


ruleset = ConquerorRuleset()

__all__ = ["ConquerorRuleset", "ruleset"]
