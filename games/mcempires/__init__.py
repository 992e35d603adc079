"""Minecraft EMPIRES for gm: the ruleset object the `gm.games` entry point names."""

from __future__ import annotations

from random import Random

from gm.core.model import JSONObject, Order, Problem
from gm.core.ruleset import GameOption
from gm.packaged import PackagedRuleset, Parts

from . import grammar, invariants, offline, orders, robot, rules, scenario, view
from .economy import MODES, ORIGINAL

SCENARIO_PACKAGE = "gm_games.mcempires.scenarios"


class McEmpiresRuleset(PackagedRuleset):
    """Minecraft EMPIRES: a world of blocks, cities and infrastructure, groups of troops, dice
    battles, capture and capitulation; the last empire standing wins."""

    name = "mcempires"
    # 1.1: issue 27's decisions D-MC-11 to D-MC-15 change how rounds resolve and what the state
    # holds; games made with 1.0 keep their stored turns (gm turn verify names them) but run on.
    # 1.2: retreat became the option `retreat`, off by default (rule D-MC-7), and a defence of
    # n troops without RETREAT leaves the others standing aside: a new game's state differs.
    version = "1.2"
    title = "Minecraft EMPIRES"
    scenario_package = SCENARIO_PACKAGE  # its scenarios: the only packaged data it reads
    templates_package = "gm_games.mcempires.templates"
    cases_package = "gm_games.mcempires.cases"
    parts = Parts(
        scenario=scenario, rules=rules, orders=orders, robot=robot, view=view, invariants=invariants, offline=offline
    )
    demo_seats = 6  # `gm demo --ruleset mcempires` seats this many robot empires
    default_scenario_name = "frontier"
    # The modes of the guide, the GM's round limit (rule D-MC-10) and its optional rules, off by
    # default (rule D-MC-7).
    options = (
        GameOption(
            "mode",
            ORIGINAL,
            "original (a capital, 10 E$), war-bounty (5 cities and 30 "
            "troops, E$ only from bounties) or land-game (50 blocks, land earns from round 1)",
            MODES,
        ),
        GameOption(
            "round-limit",
            0,
            "end after this round: most cities, then territory, then E$ "
            "win (0: no limit, the last empire standing wins)",
        ),
        GameOption("declarations", False, "declarations of war (DECLARE): war only by declaring it"),
        GameOption("peace", False, "peace treaties (PEACE, ACCEPT PEACE), ceding cities"),
        GameOption(
            "borders",
            False,
            "open border agreements (BORDERS): without one, troops keep out of other empires' territory unless at war",
        ),
        GameOption("alliances", False, "alliances for 10 rounds, of up to 3 in War Bounty (ALLY, LEAVE)"),
        GameOption("amphibious", False, "amphibious attacks: the attacker loses 1 per troop"),
        GameOption("retreat", False, "retreats (DEFEND ... RETREAT): troops that do not fight pull back one block"),
    )

    def order_warnings(self, state: JSONObject, seat: str, order_list: list[Order]) -> list[Problem]:
        return orders.order_warnings(state, seat, order_list)

    def order_line(self, order: Order) -> str:
        return grammar.order_line(order.verb, order.args)

    def score_label(self, state: JSONObject) -> tuple[str, str]:
        return rules.score_label(state)

    def knocked_out(self, state: JSONObject) -> list[str]:
        return rules.knocked_out(state)

    def hidden_variant(self, state: JSONObject, seat: str, rng: Random) -> JSONObject:
        """The state as it might be if `seat`'s private facts were different: its standing
        orders (how its groups defend, which cities it would destroy) are its own secret, and so
        is the site gm suggests for its capital."""
        return view.hidden_variant(state, seat, rng)


ruleset = McEmpiresRuleset()

__all__ = ["McEmpiresRuleset", "ruleset"]
