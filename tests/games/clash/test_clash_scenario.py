"""Clash scenarios: the packaged maps load, and a broken scenario says what and where."""

from __future__ import annotations

import colorsys
import re
from collections import deque

import pytest
from gm_games.clash import ruleset

from gm.core.model import SeatInfo
from gm.core.ruleset import Ruleset, ScenarioError, TurnSeeds

SMALL = """
name = "tiny"
title = "Tiny"
min_seats = 2
max_seats = 2
width = 100
height = 100

[[seat]]
code = "BR"
name = "Britain"
colour = "#d62828"

[[seat]]
code = "FR"
name = "France"
colour = "#1f5fbf"

[[territory]]
code = "ENG"
name = "England"
x = 10
y = 10
neighbours = ["WAL", "PIC"]

[[territory]]
code = "WAL"
name = "Wales"
x = 20
y = 10
neighbours = ["ENG"]

[[territory]]
code = "PIC"
name = "Picardy"
x = 30
y = 50
neighbours = ["ENG"]
"""


def load(text: str) -> dict:
    return ruleset.load_scenario(text, "tiny.toml")


def error(text: str) -> str:
    with pytest.raises(ScenarioError) as caught:
        load(text)
    return str(caught.value)


def test_the_small_scenario_loads_with_rule_book_defaults():
    scenario = load(SMALL)
    assert (scenario["setup"], scenario["rounds"], scenario["start_units"], scenario["unit_limit"]) == (
        "claim",
        30,
        20,
        100,
    )
    assert [t["claimable"] for t in scenario["territories"]] == [True, True, True]


def test_toml_syntax_error_names_the_line():
    message = error(SMALL.replace('title = "Tiny"', "title = Tiny"))
    assert message.startswith("tiny.toml: not valid TOML: ") and "line 3" in message


def test_unknown_neighbour():
    message = error(
        SMALL.replace(
            'neighbours = ["ENG"]\n\n[[territory]]\ncode = "PIC"',
            'neighbours = ["ENG", "XYZ"]\n\n[[territory]]\ncode = "PIC"',
        )
    )
    assert message == "tiny.toml: territory WAL lists neighbour XYZ, which is not on the map"


def test_one_way_adjacency():
    message = error(SMALL.replace('neighbours = ["WAL", "PIC"]', 'neighbours = ["PIC"]'))
    assert message == "tiny.toml: WAL lists ENG as a neighbour but ENG does not list WAL"


def test_duplicate_codes():
    message = error(SMALL.replace('code = "PIC"', 'code = "WAL"'))
    assert "tiny.toml: territory code WAL is used twice" in message.splitlines()


def test_missing_and_mistyped_fields_are_all_listed():
    text = (
        SMALL.replace("min_seats = 2\n", "")
        .replace("x = 20", 'x = "20"')
        .replace('name = "Picardy"', 'nme = "Picardy"')
    )
    assert error(text).splitlines() == [
        "tiny.toml: the scenario has no min_seats",
        "tiny.toml: territory WAL: x must be a whole number, not '20'",
        "tiny.toml: territory #3: unknown field 'nme'",
        "tiny.toml: territory PIC has no name",
    ]


def test_bad_seat_counts():
    assert error(SMALL.replace("max_seats = 2", "max_seats = 3")) == (
        "tiny.toml: max_seats is 3 but only 2 seats are listed"
    )
    assert error(SMALL.replace("min_seats = 2", "min_seats = 1")) == ("tiny.toml: min_seats must be at least 2, not 1")


def test_fewer_territories_than_seats_need():
    text = SMALL.replace('neighbours = ["ENG"]\n', 'neighbours = ["ENG"]\nclaimable = false\n')
    assert error(text) == "tiny.toml: the map has 1 claimable territories but 2 seats need at least one each"


def test_the_neutral_troops_fit_the_100_green_cubes():
    """List of Components: "100 green cubes to represent neutral troops"."""
    text = SMALL.replace('y = 10\nneighbours = ["ENG"]', 'y = 10\nneighbours = ["ENG"]\nneutral = 60')
    assert load(text.replace('y = 50\nneighbours = ["ENG"]', 'y = 50\nneighbours = ["ENG"]\nneutral = 40'))
    text = text.replace('y = 50\nneighbours = ["ENG"]', 'y = 50\nneighbours = ["ENG"]\nneutral = 41')
    assert error(text) == "tiny.toml: the map starts 101 neutral troops; the game has 100 green cubes for them"


def test_a_map_must_be_connected():
    text = SMALL.replace('neighbours = ["WAL", "PIC"]', 'neighbours = ["WAL"]').replace(
        'y = 50\nneighbours = ["ENG"]', "y = 50\nneighbours = []"
    )
    assert error(text) == "tiny.toml: the map is not connected: PIC cannot be reached from ENG"


def test_fixed_setup_is_checked():
    fixed = SMALL.replace("height = 100", 'height = 100\nsetup = "fixed"')
    fixed = fixed.replace('colour = "#d62828"', 'colour = "#d62828"\ncore = ["ENG", "XYZ"]\ntroops = { WAL = 3 }')
    fixed = fixed.replace('colour = "#1f5fbf"', 'colour = "#1f5fbf"\ncore = ["ENG"]')
    assert error(fixed).splitlines() == [
        "tiny.toml: seat BR: core territory XYZ is not on the map",
        "tiny.toml: seat BR: troops are given for WAL, which is not one of its core territories",
        "tiny.toml: ENG is a core territory of both BR and FR",
        "tiny.toml: troops are given for some seats but not for FR: give them for every seat or for none",
    ]
    claim = SMALL.replace('colour = "#d62828"', 'colour = "#d62828"\ncore = ["ENG"]')
    assert error(claim) == 'tiny.toml: seat BR: core and troops are only for setup = "fixed"'


def test_the_ruleset_meets_the_contract_and_lists_its_scenarios():
    assert isinstance(ruleset, Ruleset)
    assert (ruleset.name, ruleset.version, ruleset.title) == ("clash", "1.0", "Clash of Empires")
    assert ruleset.default_scenario() == "europe"
    assert {"europe", "lowlands", "channel"} <= set(ruleset.scenario_names())
    with pytest.raises(ScenarioError, match="clash has no scenario 'mars'; it has channel, europe, lowlands"):
        ruleset.scenario_text("mars")


def test_europe_is_a_readable_symmetric_connected_map_for_four():
    europe = ruleset.load_scenario(ruleset.scenario_text("europe"), "europe")
    assert ruleset.seat_codes(europe) == ["BR", "RU", "FR", "GE"]
    assert ruleset.seat_limits(europe) == (2, 4)
    territories = europe["territories"]
    neutral = [t for t in territories if t["neutral"]]
    # "until all territories are claimed": the neutral ones too (rule D-CE-1).
    assert len(territories) >= 24 and neutral and all(t["claimable"] for t in territories)
    assert (europe["width"], europe["height"]) == (800, 560)
    assert all(re.fullmatch(r"#[0-9a-f]{6}", s["colour"]) for s in europe["seats"])
    links = {t["code"]: set(t["neighbours"]) for t in territories}
    assert all(a in links[b] for a in links for b in links[a])
    reached, queue = {"ENG"}, deque(["ENG"])
    while queue:
        for other in links[queue.popleft()] - reached:
            reached.add(other)
            queue.append(other)
    assert reached == set(links)


def colour_name(colour: str) -> str:
    """The book's name for a colour by its hue and lightness (HLS): red, yellow, blue, pink or
    green, "other" for none of them."""
    red, green, blue = (int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    hue, lightness, saturation = colorsys.rgb_to_hls(red, green, blue)
    degrees = hue * 360
    if saturation < 0.25:  # a grey has no colour of the book's
        return "other"
    if lightness >= 0.65 and (degrees >= 290 or degrees <= 10):
        return "pink"
    bands = {"red": (345, 375), "yellow": (40, 65), "blue": (190, 250), "green": (90, 160)}
    return next((n for n, (lo, hi) in bands.items() if lo <= degrees <= hi or lo <= degrees + 360 <= hi), "other")


def test_the_packaged_scenarios_give_each_empire_the_book_s_colour():
    """List of Components: "Britain: Red, Russia: Yellow, France: Blue, Germany: Pink" and "100
    green cubes to represent neutral troops": the colours every seat sees on the map."""
    book = {"BR": "red", "RU": "yellow", "FR": "blue", "GE": "pink"}
    assert [colour_name(c) for c in ("#d62828", "#f2c318", "#1f5fbf", "#f08cb4", "#3a9a4a", "#808080")] == [
        "red",
        "yellow",
        "blue",
        "pink",
        "green",
        "other",
    ]
    for name in ruleset.scenario_names():
        scenario = ruleset.load_scenario(ruleset.scenario_text(name), name)
        seen = {s["code"]: colour_name(s["colour"]) for s in scenario["seats"]}
        assert seen == {code: book[code] for code in seen}, name
        assert colour_name(scenario["neutral_colour"]) == "green", name


def test_the_packaged_fixed_set_ups_give_each_player_its_20_units():
    """Setting up the game, 2: "Each player gets 20 units": a packaged scenario that places the
    troops itself gives every seat its start_units (the book's 20), no more and no fewer."""
    fixed = 0
    for name in ruleset.scenario_names():
        scenario = ruleset.load_scenario(ruleset.scenario_text(name), name)
        given = [sum(seat["troops"].values()) for seat in scenario["seats"] if seat["troops"]]
        assert scenario["start_units"] == 20, name
        assert given in ([], [20] * len(scenario["seats"])), name
        fixed += bool(given)
    assert fixed  # channel


def test_a_fixed_scenario_with_troops_starts_in_round_one():
    channel = ruleset.load_scenario(ruleset.scenario_text("channel"), "channel")
    state = ruleset.new_game(channel, [SeatInfo("FR", "Bob"), SeatInfo("BR", "Ann")], TurnSeeds(4, 0))
    assert (state["phase"], state["round"], state["seating"]) == ("play", 1, ["BR", "FR"])
    assert state["territories"]["ENG"] == {"owner": "BR", "troops": 12, "core_of": "BR"}
    assert ruleset.turn_label(state) == "Round 1 of 30"


def test_a_fixed_scenario_without_troops_starts_with_placing():
    text = (
        ruleset.scenario_text("channel")
        .replace("troops = { ENG = 12, WAL = 8 }\n", "")
        .replace("troops = { BRI = 8, PIC = 12 }\n", "")
    )
    state = ruleset.new_game(
        ruleset.load_scenario(text, "channel"), [SeatInfo("BR", "Ann"), SeatInfo("FR", "Bob")], TurnSeeds(4, 0)
    )
    assert (state["phase"], ruleset.turn_label(state)) == ("place", "Set-up: placing 20 units")
    assert state["territories"]["PIC"] == {"owner": None, "troops": 0, "core_of": "FR"}


def test_new_game_refuses_wrong_seats():
    europe = ruleset.load_scenario(ruleset.scenario_text("europe"), "europe")
    with pytest.raises(ScenarioError, match="europe is for 2 to 4 seats, not 1"):
        ruleset.new_game(europe, [SeatInfo("BR", "Ann")], TurnSeeds(1, 0))
    with pytest.raises(ScenarioError, match=r"seat XX is not in europe \(its seats are BR, RU, FR, GE\)"):
        ruleset.new_game(europe, [SeatInfo("BR", "Ann"), SeatInfo("XX", "Bob")], TurnSeeds(1, 0))
