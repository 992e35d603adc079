"""What an Empires player reads: one BP is "1 BP", never "1 BPs", in every event of a robot game
and in the order form's first line."""

from __future__ import annotations

import re

from gm_games.empires import ruleset

from gm.core.model import SeatInfo
from gm.core.ruleset import TurnSeeds

ONE_BPS = re.compile(r"(?<![\d.])1 BPs\b")


def test_one_bp_is_singular_in_every_event_of_a_robot_game():
    scenario = ruleset.load_scenario(ruleset.scenario_text("europe"), "europe")
    codes = ["EN", "CA", "FR", "SA", "PO", "HU", "KI", "BY"]
    state = ruleset.new_game(scenario, [SeatInfo(c, f"Player {c}") for c in codes], TurnSeeds(3, 0))
    texts: list[str] = []
    for turn in range(1, 7):
        seeds = TurnSeeds(3, turn)
        orders = {s: ruleset.robot_orders(state, s, seeds.rng(f"robot:{s}")) for s in state["seating"]}
        result = ruleset.resolve(state, orders, seeds)
        state = result.state
        texts += [str(e.data.get("text", "")) for e in result.events]
    assert any(re.search(r"(?<![\d.])1 BP\b", t) for t in texts), "the game should spend or pay 1 BP somewhere"
    assert [t for t in texts if ONE_BPS.search(t)] == []
