"""Rule D-MC-11 over several rounds: a city taken, returned by a peace treaty and taken again is
one city captured, not two (gm 1.0 counted it twice, and knocked empires out too soon)."""

from __future__ import annotations

from gm_games.mcempires import ruleset

from gm.core.model import SeatInfo
from gm.core.ruleset import TurnSeeds, choose_options, with_options

TERRITORY = [
    "....................",
    "..RRR...............",
    "..RRR...............",
    "..RRR...............",
    "....................",
    "....................",
    "........BBB.........",
    "........BBB.........",
    "........BBB....BBB..",
    "...............BBB..",
    "...............BBB..",
    "....................",
    "....................",
    "....................",
]


def test_a_city_taken_twice_counts_once():
    loaded = ruleset.load_scenario(ruleset.scenario_text("testbed"), "testbed")
    loaded = with_options(loaded, choose_options(ruleset.game_options(), {"peace": True}))
    state = ruleset.new_game(loaded, [SeatInfo("RE", "Ann"), SeatInfo("BL", "Bob")], TurnSeeds(1, 0))
    state |= {"round": 5, "first": 0, "territory": TERRITORY}
    state["wars"] = [{"sides": ["BL", "RE"], "since": 2, "taken": {}}]
    state["seats"]["RE"] |= {"capital": "RE1", "founded": 1}
    state["seats"]["BL"] |= {"capital": "BL1", "founded": 2}
    state["cities"] = {
        "RE1": {"owner": "RE", "x": 3, "y": 2, "capital": True, "treasury": True},
        "BL1": {"owner": "BL", "x": 16, "y": 9, "capital": True, "treasury": True},
        "BL2": {"owner": "BL", "x": 9, "y": 7, "occupier": "RE", "held": 1},
    }
    state["groups"] = {"G1": {"owner": "RE", "x": 9, "y": 7, "troops": 3}}
    rounds = {
        5: {"RE": ["PEACE BL"]},  # Red captures BL2 at the end of its turn, and proposes peace
        6: {"BL": ["ACCEPT PEACE RE"]},  # the peace returns BL2; Red's group is moved out
        7: {"RE": ["MOVE G1 BL2"]},  # marching in starts a war again: held 1 at the turn's end
        8: {},  # held 2: captured again
    }
    lost = {}
    for number, lines in rounds.items():
        orders = {seat: ruleset.parse_orders(list(enumerate(text, 1)))[0] for seat, text in lines.items()}
        state = ruleset.resolve(state, orders, TurnSeeds(1, number)).state
        lost[number] = list(state["seats"]["BL"]["lost"])
    assert lost == {5: ["BL2"], 6: [], 7: [], 8: ["BL2"]}
    assert state["cities"]["BL2"]["owner"] == "RE"
