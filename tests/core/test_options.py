"""Game options: what a GM may choose when creating a game, read and checked the same way everywhere."""

from __future__ import annotations

import pytest

from gm.core.ruleset import GameOption, ScenarioError, choose_options, with_options

OFFERED = (
    GameOption("mode", "basic", "which rules", ("basic", "wonders")),
    GameOption("round-limit", 0, "0: none"),
    GameOption("alliances", False, "the optional alliance rules"),
    GameOption("motto", "", "any text"),
)


def test_defaults_fill_every_option():
    assert choose_options(OFFERED, {}) == {"alliances": False, "mode": "basic", "motto": "", "round-limit": 0}


def test_text_from_the_command_line_is_read_by_the_default_type():
    chosen = choose_options(OFFERED, {"mode": " Wonders ", "round-limit": "60", "alliances": "yes", "motto": "Go On"})
    assert chosen == {"alliances": True, "mode": "wonders", "motto": "Go On", "round-limit": 60}


def test_typed_values_from_a_case_or_the_database_are_taken_as_they_are():
    assert choose_options(OFFERED, {"round-limit": 12, "alliances": False})["round-limit"] == 12


@pytest.mark.parametrize(
    "given, message",
    [
        ({"colour": "red"}, "there is no option 'colour'; the options are: alliances, mode, motto, round-limit"),
        ({"mode": "expert"}, "option mode is one of basic, wonders, not 'expert'"),
        ({"round-limit": "ten"}, "option round-limit is a whole number, not 'ten'"),
        ({"alliances": "maybe"}, "option alliances is yes or no, not 'maybe'"),
    ],
)
def test_a_wrong_choice_says_what_is_allowed(given, message):
    with pytest.raises(ScenarioError) as err:
        choose_options(OFFERED, given)
    assert str(err.value) == message


def test_a_ruleset_without_options_keeps_its_scenario_unchanged():
    scenario = {"name": "tiny"}
    assert with_options(scenario, {}) is scenario
    assert with_options(scenario, {"mode": "basic"}) == {"name": "tiny", "options": {"mode": "basic"}}
    assert scenario == {"name": "tiny"}
