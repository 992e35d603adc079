"""Minecraft EMPIRES scenarios and worlds: the packaged ones load, broken ones are refused with a
sentence per problem, and the generator makes the same fair world from the same seed."""

from __future__ import annotations

from random import Random

import pytest
from gm_games.mcempires import ruleset, scenario
from gm_games.mcempires.world import WATER, make_board
from gm_games.mcempires.worldgen import generate_world, world_side

from gm.core.model import SeatInfo
from gm.core.ruleset import ScenarioError, TurnSeeds, choose_options, with_options

ROWS = "\n".join(["~" * 14] + ["~" + "." * 12 + "~"] * 12 + ["~" * 14])
GOOD = f'''
name = "tiny"
title = "A tiny world"
min_seats = 2
max_seats = 2
[world]
sites = [[2, 2], [11, 11]]
terrain = """
{ROWS}
"""
'''


def load(text: str) -> dict:
    return scenario.load_scenario_text(text, "tiny.toml")


def problems(text: str) -> str:
    with pytest.raises(ScenarioError) as caught:
        load(text)
    return str(caught.value)


def test_the_packaged_scenarios_load():
    assert ruleset.scenario_names() == ["frontier", "testbed", "valley", "world"]
    for name in ruleset.scenario_names():
        loaded = ruleset.load_scenario(ruleset.scenario_text(name), name)
        assert 2 <= loaded["min_seats"] <= loaded["max_seats"] <= 16
        assert len(loaded["seats"]) == loaded["max_seats"]
    assert ruleset.default_scenario() == "frontier"


def test_a_hand_made_world_and_the_standard_empires():
    loaded = load(GOOD)
    assert loaded["world"]["terrain"][1] == "~" + "." * 12 + "~"
    assert [s["code"] for s in loaded["seats"]] == ["RE", "BL"]
    assert loaded["seats"][0] == {"code": "RE", "name": "Red", "colour": "#e6194b", "mark": "R"}


@pytest.mark.parametrize(
    "change, message",
    [
        (("...........", ".....x....."), "terrain row 1 has 'x', which is not a terrain letter"),
        (("[[2, 2], [11, 11]]", "[[2, 2], [0, 0]]"), "site 0,0 is water"),
        (("[[2, 2], [11, 11]]", "[[2, 2], [4, 5]]"), "sites 2,2 and 4,5 are closer than 6 blocks"),
        (("[[2, 2], [11, 11]]", "[[2, 2]]"), "[world] lists 1 sites but max_seats is 2"),
        (("min_seats = 2", "min_seats = 1"), "seats must run from at least 2 to at most 16"),
        (("[world]", "[world]\nsize = 400"), "[world] gives either terrain (a hand-made map) or size"),
    ],
)
def test_a_broken_scenario_says_what_is_wrong(change, message):
    old, new = change
    assert message in problems(GOOD.replace(old, new, 1))


def test_rows_of_different_lengths_are_refused():
    text = GOOD.replace("~" + "." * 12 + "~", "~" + "." * 11 + "~", 1)
    assert "terrain row 1 has 13 blocks, not 14 like row 0" in problems(text)


def test_two_empires_cannot_share_a_colour():
    seats = "\n".join(
        f'[[seat]]\ncode = "{c}"\nname = "{c}"\ncolour = "#112233"\nmark = "{c[0]}"' for c in ("AA", "BB")
    )
    assert "colour #112233 is used twice" in problems(GOOD + seats)


def test_the_generator_makes_the_same_world_from_the_same_seed():
    first = generate_world(48, 48, 6, Random(3))
    assert generate_world(48, 48, 6, Random(3)) == first
    assert generate_world(48, 48, 6, Random(4)) != first


@pytest.mark.parametrize("side, seats", [(30, 2), (48, 6), (64, 4), (112, 16)])
def test_generated_sites_are_fair(side, seats):
    """Every capital site is grass with land all round, on the one largest land mass, and at
    least 8 blocks from every other site."""
    made = generate_world(side, side, seats, Random(side))
    board = make_board(tuple(made["terrain"]))
    blocks = [board.index(x, y) for x, y in made["sites"]]
    assert len(blocks) == seats
    assert len({board.landmass[i] for i in blocks}) == 1
    for i in blocks:
        assert board.terrain[i] == "." and not any(board.water[n] for n in board.around(i))
        assert min(board.distance(i, j) for j in blocks if j != i) >= 8
    land = sum(1 for c in "".join(made["terrain"]) if c not in WATER)
    assert 0.45 < land / (side * side) < 0.7


def test_a_generated_world_is_sized_for_the_seats_and_the_mode():
    assert world_side(2, 200) == 26 and world_side(6, 200) == 45 and world_side(16, 760) == 143
    assert world_side(64, 760) == 160  # never more than 160 x 160


def test_the_world_is_made_in_new_game_and_kept_in_the_state():
    loaded = ruleset.load_scenario(ruleset.scenario_text("world"), "world")
    seats = [SeatInfo(code, code) for code in ruleset.seat_codes(loaded)[:3]]
    state = ruleset.new_game(loaded, seats, TurnSeeds(11, 0))
    assert (state["world"]["width"], state["world"]["height"]) == (160, 160)
    assert state == ruleset.new_game(loaded, seats, TurnSeeds(11, 0))
    assert [state["seats"][c]["site"] for c in ("RE", "BL", "YE")] != [[0, 0]] * 3


def test_war_bounty_lays_out_five_cities_and_300_blocks_each():
    loaded = ruleset.load_scenario(ruleset.scenario_text("valley"), "valley")
    loaded = with_options(loaded, choose_options(ruleset.game_options(), {"mode": "war-bounty"}))
    state = ruleset.new_game(loaded, [SeatInfo(c, c) for c in ("RE", "BL", "YE", "PU")], TurnSeeds(2, 0))
    for code, seat in state["seats"].items():
        assert sum(row.count(seat["mark"]) for row in state["territory"]) == 300
        cities = [c for c in state["cities"].values() if c["owner"] == code]
        assert len(cities) == 5 and sum(c["naval"] for c in cities) == 1
        assert sum(c["transport"] for c in cities) == 1 and not any(c["treasury"] for c in cities)
        troops = [g["troops"] for g in state["groups"].values() if g["owner"] == code]
        assert troops == [6] * 5 and seat["money"] == 0


def test_too_few_seats_are_refused():
    loaded = ruleset.load_scenario(ruleset.scenario_text("valley"), "valley")
    with pytest.raises(ScenarioError, match="valley is for 2 to 4 empires, not 1"):
        ruleset.new_game(loaded, [SeatInfo("RE", "Ann")], TurnSeeds(1, 0))
