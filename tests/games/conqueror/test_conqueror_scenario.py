"""Conqueror! scenarios: the packaged maps are sound, and a broken scenario says what and where."""

from __future__ import annotations

from collections import deque

import pytest
from gm_games.conqueror import ruleset

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
code = "AR"
name = "Arden"
colour = "#d62828"
capital = "ARD"

[[seat]]
code = "BE"
name = "Bervia"
colour = "#1f5fbf"
capital = "BER"

[[province]]
code = "ARD"
name = "Arden"
x = 10
y = 10
neighbours = ["MID"]
population = 5
culture = 2

[[province]]
code = "MID"
name = "Midmark"
x = 50
y = 50
neighbours = ["ARD", "BER"]
population = 3

[[province]]
code = "BER"
name = "Bervia"
x = 90
y = 90
neighbours = ["MID"]
population = 5
"""


def load(text: str) -> dict:
    return ruleset.load_scenario(text, "tiny.toml")


def error(text: str) -> str:
    with pytest.raises(ScenarioError) as caught:
        load(text)
    return str(caught.value)


def test_the_ruleset_meets_the_contract_and_lists_its_scenarios():
    assert isinstance(ruleset, Ruleset)
    assert (ruleset.name, ruleset.version, ruleset.title) == ("conqueror", "1.1", "Conqueror!")
    assert ruleset.default_scenario() == "europe" and ruleset.scenario_names() == ["europe", "vale"]
    with pytest.raises(ScenarioError, match="conqueror has no scenario 'mars'; it has europe, vale"):
        ruleset.scenario_text("mars")


def test_the_small_scenario_loads_with_defaults():
    scenario = load(SMALL)
    assert (
        scenario["turns"],
        scenario["ai_fill"],
        scenario["start_gold"],
        scenario["capital_armies"],
        scenario["neutral_colour"],
    ) == (24, 0, 20, 8, "#9e9e9e")
    assert scenario["seats"][0] == {"code": "AR", "name": "Arden", "colour": "#d62828", "capital": "ARD", "armies": 8}
    mid = scenario["provinces"][1]
    assert (mid["resources"], mid["culture"], mid["fort"], mid["armies"]) == (0, 1, 0, 3)
    assert ruleset.seat_limits(scenario) == (2, 2)


def test_europe_is_about_seventy_provinces_for_two_to_sixteen_nations():
    scenario = ruleset.load_scenario(ruleset.scenario_text("europe"), "europe")
    provinces = {p["code"]: p for p in scenario["provinces"]}
    capitals = [s["capital"] for s in scenario["seats"]]
    assert len(provinces) == 75 and len(scenario["seats"]) == 16
    assert (scenario["min_seats"], scenario["max_seats"], scenario["ai_fill"]) == (2, 16, 8)
    # One player is a game there: the AI fills the other seats.
    assert ruleset.seat_limits(scenario) == (1, 16)
    assert len(set(capitals)) == 16
    for code, p in provinces.items():
        assert all(code in provinces[n]["neighbours"] for n in p["neighbours"])
        assert 0 <= p["x"] <= scenario["width"] and 0 <= p["y"] <= scenario["height"]
    # No two capitals are neighbours; every capital is developed and fortified.
    assert not any(set(provinces[c]["neighbours"]) & set(capitals) for c in capitals)
    assert all(provinces[c]["culture"] == 2 and provinces[c]["fort"] >= 1 for c in capitals)
    # The first eight seats (the default AI game) are spread out: at least three steps apart.
    first = capitals[:8]
    for capital in first:
        near = _within(provinces, capital, 2)
        assert not (near & set(first)) - {capital}, capital


def _within(provinces: dict, start: str, steps: int) -> set[str]:
    seen, queue = {start: 0}, deque([start])
    while queue:
        here = queue.popleft()
        for other in provinces[here]["neighbours"]:
            if other not in seen and seen[here] < steps:
                seen[other] = seen[here] + 1
                queue.append(other)
    return set(seen)


def test_the_vale_is_the_cases_map():
    scenario = ruleset.load_scenario(ruleset.scenario_text("vale"), "vale")
    assert [s["code"] for s in scenario["seats"]] == ["AR", "BE", "CA", "DU", "EL"]
    assert ruleset.seat_limits(scenario) == (2, 5) and scenario["turns"] == 12


def test_toml_syntax_error_names_the_line():
    message = error(SMALL.replace('title = "Tiny"', "title = Tiny"))
    assert message.startswith("tiny.toml: not valid TOML: ") and "line 3" in message


def test_unknown_neighbour_and_one_way_adjacency():
    assert error(
        SMALL.replace(
            'neighbours = ["MID"]\npopulation = 5\nculture = 2',
            'neighbours = ["MID", "XYZ"]\npopulation = 5\nculture = 2',
        )
    ) == ("tiny.toml: province ARD lists neighbour XYZ, which is not on the map")
    assert error(SMALL.replace('neighbours = ["ARD", "BER"]', 'neighbours = ["BER"]')) == (
        "tiny.toml: ARD lists MID as a neighbour but MID does not list ARD"
    )


def test_missing_mistyped_and_out_of_range_fields_are_all_listed():
    text = (
        SMALL.replace("min_seats = 2\n", "")
        .replace("x = 50", 'x = "50"')
        .replace('name = "Midmark"', 'nme = "Midmark"')
        .replace("culture = 2", "culture = 4")
        .replace('colour = "#1f5fbf"', 'colour = "blue"')
    )
    assert error(text).splitlines() == [
        "tiny.toml: the scenario has no min_seats",
        "tiny.toml: seat BE: colour must look like #d62828, not 'blue'",
        "tiny.toml: province ARD: culture must be between 1 and 3, not 4",
        "tiny.toml: province #2: unknown field 'nme'",
        "tiny.toml: province MID has no name",
        "tiny.toml: province MID: x must be a whole number, not '50'",
    ]


def test_capitals_must_be_on_the_map_and_distinct():
    assert error(SMALL.replace('capital = "BER"', 'capital = "XYZ"')) == (
        "tiny.toml: seat BE: capital XYZ is not on the map"
    )
    assert error(SMALL.replace('capital = "BER"', 'capital = "ARD"')) == (
        "tiny.toml: ARD is the capital of both AR and BE"
    )


def test_seat_counts_turns_and_ai_fill():
    assert error(SMALL.replace("max_seats = 2", "max_seats = 3")) == (
        "tiny.toml: max_seats is 3 but only 2 seats are listed"
    )
    assert error(SMALL.replace("min_seats = 2", "min_seats = 1")) == ("tiny.toml: min_seats must be at least 2, not 1")
    assert error(SMALL.replace("height = 100", "height = 100\nturns = 0")) == (
        "tiny.toml: turns must be at least 1, not 0"
    )
    assert error(SMALL.replace("height = 100", "height = 100\nai_fill = 5")) == (
        "tiny.toml: ai_fill must be 0 (no AI nations) or between min_seats and max_seats, not 5"
    )


def test_a_map_must_be_connected():
    text = SMALL.replace('neighbours = ["ARD", "BER"]', 'neighbours = ["ARD"]').replace(
        'y = 90\nneighbours = ["MID"]', "y = 90\nneighbours = []"
    )
    assert error(text) == "tiny.toml: the map is not connected: BER cannot be reached from ARD"


def test_a_new_game_has_one_capital_per_nation_and_neutral_elsewhere():
    scenario = load(SMALL)
    state = ruleset.new_game(scenario, [SeatInfo("AR", "Ann"), SeatInfo("BE", "Bob")], TurnSeeds(1, 0))
    provinces = state["provinces"]
    assert (provinces["ARD"]["owner"], provinces["ARD"]["armies"]) == ("AR", 8)
    assert provinces["ARD"]["influence"] == {"AR": 100, "BE": 0, "neutral": 0}
    # Midmark neighbours both capitals: a moderate 40% each, the local leaders keep 20%.
    assert (provinces["MID"]["owner"], provinces["MID"]["armies"]) == ("neutral", 3)
    assert provinces["MID"]["influence"] == {"AR": 40, "BE": 40, "neutral": 20}
    assert state["seats"]["AR"]["gold"] == 20 and state["seats"]["AR"]["score"] > 0
