"""Imperials scenarios: every packaged one loads; a broken one says what is wrong; the geometry
numbers vertices and names edges the way the README says; a damaged file never crashes."""

from __future__ import annotations

from random import Random

import pytest
from gm_games.imperials import ruleset
from gm_games.imperials.board import geometry, parse_edge, tile_code
from gm_games.imperials.deal import deal_board
from hypothesis import given, settings, strategies as st

from gm.core.ruleset import ScenarioError

ISLAND = ruleset.scenario_text("island")


def load(text: str) -> dict:
    return ruleset.load_scenario(text, "test.toml")


def broken(text: str) -> str:
    with pytest.raises(ScenarioError) as raised:
        load(text)
    return str(raised.value)


@pytest.mark.parametrize("name", ruleset.scenario_names())
def test_every_packaged_scenario_loads(name):
    scenario = ruleset.load_scenario(ruleset.scenario_text(name), name)
    assert len(scenario["tiles"]) == len(scenario["slots"])
    assert scenario["options"] == {"mode": "basic", "round-limit": 100}


def test_the_standard_island_has_the_book_s_tiles_and_54_vertices():
    scenario = load(ISLAND)
    geo = geometry(tuple(tuple(s) for s in scenario["slots"]))
    assert (len(geo.tiles), geo.vertex_count, len(geo.edge_ends), len(geo.coast)) == (19, 54, 72, 30)
    assert sorted(scenario["tiles"]).count("desert") == 1 and (scenario["min_seats"], scenario["max_seats"]) == (3, 4)
    # Vertices are numbered in reading order: 1 is the top corner of A, the first tile.
    assert geo.tile_vertices["A"] == (5, 9, 13, 8, 4, 1)
    assert geo.vertex_tiles[13] == ("A", "D", "E")
    greater = load(ruleset.scenario_text("greater-island"))
    big = geometry(tuple(tuple(s) for s in greater["slots"]))
    assert (len(big.tiles), big.vertex_count, greater["max_seats"]) == (30, 80, 6)


def test_the_greater_island_deals_the_implementation_s_nine_ports():
    """The implementation's "Base Big" map has 4 ports of 3:1 and one 2:1 for each resource."""
    greater = load(ruleset.scenario_text("greater-island"))
    kinds = sorted(p["kind"] for p in deal_board(greater, Random(7))["ports"])
    assert kinds == ["3:1", "3:1", "3:1", "3:1", "brick", "ore", "wheat", "wood", "wool"]


def test_edges_are_named_by_their_two_vertices_in_either_order():
    assert parse_edge("13-18") == parse_edge("18-13") == (13, 18)
    assert parse_edge("13") is None and parse_edge("1-2-3") is None and parse_edge("١-٢") is None
    assert [tile_code(i) for i in (0, 25, 26, 29)] == ["A", "Z", "AA", "AD"]


@pytest.mark.parametrize(
    "change, message",
    [
        (("tiles = { forest = 4,", "tiles = { forest = 5,"), "test.toml: the map has 19 tiles but tiles lists 20"),
        (
            ("numbers = [2, 3,", "numbers = [2, 7, 3,"),
            "test.toml: numbers must be a list of number tokens from 2 to 12, without 7",
        ),
        (
            ("numbers = [2, 3,", "numbers = [3,"),
            "test.toml: numbers has 17 tokens but 18 tiles produce (every tile except the desert takes one)",
        ),
        (
            ('  "  . . .",\n  " . . . .",', '  "  . . .",\n  "  . . . .",'),
            "test.toml: the map's tiles do not line up as hexes: put a tile every second character and shift "
            "each row by one against the row above",
        ),
        (
            ("desert = 1 }", "desert = 1, swamp = 1 }"),
            "test.toml: tiles: 'swamp' is not a kind of tile; kinds are forest, kiln, pasture, farm, mine, desert, gold",
        ),
        (
            ('code = "RED"', 'code = "red"'),
            "test.toml: seat code 'red' must be 1 to 6 capital letters or digits, like RED",
        ),
        (
            ('ports = ["3:1",', 'ports = ["3:1", "3:1", "3:1", "3:1", "3:1", "3:1", "3:1", "3:1",'),
            "test.toml: 16 ports do not fit on a coast of 30 edges (at most one port every second edge)",
        ),
    ],
)
def test_a_broken_scenario_says_what_is_wrong(change, message):
    old, new = change
    assert old in ISLAND
    assert message in broken(ISLAND.replace(old, new, 1)).splitlines()


def test_the_generator_needs_no_layout_but_a_fixed_board_keeps_its_own():
    fixed = load(ruleset.scenario_text("first-game"))
    assert fixed["layout"] == "fixed" and fixed["tiles"][9] == "desert"
    assert load(ISLAND)["layout"] == "dealt"
    frontier = load(ruleset.scenario_text("frontier"))
    assert frontier["fog"] == [0, 1, 2, 16, 17, 18]


LINES = ISLAND.splitlines()
toml_value = st.sampled_from(
    ['"forest"', "0", "-3", "true", "[]", '[".."]', "{}", '"#zzzzzz"', "1.5", "[2, 7]", "{ gold = 30 }", '[" ? ? ?"]']
)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, len(LINES) - 1), st.one_of(st.none(), toml_value)), max_size=4))
def test_a_damaged_scenario_gives_a_scenario_error_or_a_scenario(damage):
    lines = list(LINES)
    for index, value in damage:
        key = lines[index].split("=")[0].strip()
        lines[index] = "" if value is None or "=" not in lines[index] else f"{key} = {value}"
    try:
        scenario = load("\n".join(lines))
    except ScenarioError as err:
        assert str(err).startswith("test.toml: ")
    else:
        assert scenario["slots"] and scenario["seats"]
