"""The packaged Empires maps load, and a broken scenario says what is wrong and where."""

from __future__ import annotations

import pytest
from gm_games.empires import ruleset

from gm.core.ruleset import ScenarioError

GOOD = """
name = "tiny"
title = "Tiny"
min_seats = 2
max_seats = 2
width = 100
height = 100

[[country]]
code = "AA"
name = "Aland"
colour = "#112233"
capital = "AAA"

[[country]]
code = "BB"
name = "Bland"
colour = "#445566"
capital = "BBB"

[[area]]
code = "AAA"
name = "A town"
terrain = "towns"
x = 10
y = 10
neighbours = ["SEA"]
owner = "AA"
population = 3
armies = 2

[[area]]
code = "BBB"
name = "B town"
terrain = "plains"
x = 90
y = 90
neighbours = ["SEA"]
owner = "BB"
population = 3
armies = 2

[[area]]
code = "SEA"
name = "The Sea"
terrain = "seas"
x = 50
y = 50
neighbours = ["AAA", "BBB"]
"""


def load(text: str) -> dict:
    return ruleset.load_scenario(text, "tiny.toml")


def test_the_default_map_is_a_medieval_europe():
    assert ruleset.default_scenario() == "europe" and ruleset.scenario_names() == ["duchies", "europe"]
    europe = load(ruleset.scenario_text("europe"))
    land = [a for a in europe["areas"] if a["land"]]
    seas = [a for a in europe["areas"] if not a["land"]]
    assert len(europe["countries"]) == 32 and 120 <= len(land) <= 200 and len(seas) >= 20
    assert europe["points_target"] == len(land)  # rule D-EMP-12
    assert all(len(c["code"]) == 2 for c in europe["countries"])
    assert all(len(a["code"]) == 3 and a["reach"] for a in land)
    terrains = {a["terrain"] for a in land}
    assert {"mountains", "forests", "wetlands", "uplands", "lowlands", "plains", "towns", "islands"} <= terrains
    london = next(a for a in land if a["code"] == "LON")
    assert "ROU" in london["reach"] and "ROU" not in london["neighbours"]  # across the Channel


def test_sea_crossings_and_defaults():
    tiny = load(GOOD)
    assert [a["reach"] for a in tiny["areas"]] == [["BBB"], ["AAA"], []]
    assert tiny["points_target"] == 2 and tiny["countries"][0]["bps"] is None


@pytest.mark.parametrize(
    "change, message",
    [
        (('code = "AA"', 'code = "AAX"'), "tiny.toml: country code 'AAX' must be two capital letters, like FR"),
        (
            ('terrain = "plains"', 'terrain = "swamp"'),
            "tiny.toml: area BBB: terrain 'swamp' is not one of mountains, forests, wetlands, uplands, jungle, "
            "deserts, tundra, lowlands, plains, towns, islands, seas",
        ),
        (
            ('neighbours = ["AAA", "BBB"]', 'neighbours = ["AAA"]'),
            "tiny.toml: BBB lists SEA as a neighbour but SEA does not list BBB",
        ),
        (('capital = "BBB"', 'capital = "AAA"'), "tiny.toml: country BB: its capital AAA must be a land area it owns"),
        (("max_seats = 2", "max_seats = 3"), "tiny.toml: max_seats is 3 but only 2 countries are listed"),
        (
            ('armies = 2\n\n[[area]]\ncode = "SEA"', 'armies = 2\n\n[[area]]\ncode = "SEA"\nowner = "AA"'),
            "tiny.toml: area SEA is a sea and cannot have owner",
        ),
    ],
)
def test_scenario_problems(change, message):
    with pytest.raises(ScenarioError) as err:
        load(GOOD.replace(*change, 1) if change[0] != 'terrain = "plains"' else GOOD.replace(*change))
    assert str(err.value) == message
