"""Conqueror! battles and formulas: the duel odds over many seeded duels, and the economy's sums."""

from __future__ import annotations

from random import Random

import pytest
from gm_games.conqueror.battle import fight
from gm_games.conqueror.economy import (
    CONTROL_WORDS,
    band,
    buy_price,
    cultural_power,
    gain,
    influence_gained,
    labour_for,
    lose,
    productivity,
    productivity_word,
    share_gains,
    support_cost,
)

from gm.core.seeds import rng_for


def test_a_field_duel_goes_to_the_defender_11_times_in_21():
    # 40 seeded battles of 3000 against 3000 armies: about 230,000 field duels. The standard
    # error of the share is about 0.001; the bound is five times that.
    defender = duels = 0
    for seed in range(40):
        battle = fight(3000, 3000, 0, rng_for(seed, 1, "battle"))
        defender += battle.duels.count("D")
        duels += len(battle.duels)
    assert duels > 200_000
    assert abs(defender / duels - 11 / 21) < 0.005


@pytest.mark.parametrize("fort, share", [(1, 15 / 25), (2, 20 / 30), (3, 30 / 40)])
def test_a_garrison_duel_goes_to_the_defender_by_its_fortification(fort, share):
    defender = duels = 0
    for seed in range(3000):
        battle = fight(40, 1, fort, rng_for(seed, 1, f"siege{fort}"))
        assert battle.field == 0 and battle.garrison == 1
        defender += battle.siege_duels.count("D")
        duels += len(battle.siege_duels)
    assert abs(defender / duels - share) < 0.02


def test_the_field_fights_first_and_the_battle_goes_on_until_one_side_is_gone():
    battle = fight(30, 8, 3, Random(4))
    assert (battle.field, battle.garrison) == (5, 3)
    assert battle.field_duels.count("A") == 5 or battle.attackers_left == 0
    assert battle.attackers_left == 0 or battle.defenders_left == 0
    assert len(battle.rolls) == len(battle.duels) == len(battle.field_duels) + len(battle.siege_duels)
    assert battle.attacking - battle.attackers_left == battle.duels.count("D")


def test_nobody_defending_means_no_duels():
    battle = fight(3, 0, 2, Random(1))
    assert (battle.duels, battle.captured, battle.attackers_left) == ("", True, 3)


def province(**values) -> dict:
    base = {
        "owner": "AR",
        "population": 3,
        "resources": 0,
        "culture": 2,
        "fort": 0,
        "armies": 0,
        "conquered": False,
        "influence": {"AR": 100, "neutral": 0},
    }
    return base | values


def test_productivity_examples_and_modifiers():
    assert productivity(province()) == 6  # 3 x 2
    assert productivity(province(resources=2)) == 10  # (3 + 2) x 2
    assert productivity(province(influence={"AR": 0, "neutral": 100})) == 3  # never below half
    assert productivity(province(conquered=True)) == 3
    assert productivity(province(owner="neutral", influence={"AR": 0, "neutral": 100})) == 3
    assert (
        productivity(province(population=1, resources=0, culture=1, influence={"AR": 50, "neutral": 50})) == 0
    )  # 0.75 rounds down


@pytest.mark.parametrize(
    "labour, word",
    [
        (0, "unproductive"),
        (1, "barely"),
        (4, "barely"),
        (5, "somewhat"),
        (9, "somewhat"),
        (10, "moderately"),
        (15, "highly"),
        (19, "highly"),
        (20, "extremely"),
        (99, "extremely"),
    ],
)
def test_productivity_bands(labour, word):
    assert productivity_word(labour) == word


@pytest.mark.parametrize(
    "level, word",
    [
        (0, "rebellious"),
        (19, "rebellious"),
        (20, "restless"),
        (40, "content"),
        (60, "supportive"),
        (79, "supportive"),
        (80, "devoted"),
        (100, "devoted"),
    ],
)
def test_control_bands_are_lower_bound_inclusive(level, word):
    assert band(level, CONTROL_WORDS) == word


def test_prices_and_costs():
    assert labour_for("FARMS", 2, 3, 0) == 16 + 25
    assert labour_for("SOLDIERS", 2, 3, 4) == 6
    assert (buy_price(5, 1), buy_price(5, 2), buy_price(5, 3)) == (10, 8, 7)  # 10, 7.5, 6.25 up
    assert support_cost(6, 3, 1) == 6 and support_cost(2, 3, 4) == 0


def test_farms_bought_together_cost_what_each_would_in_turn():
    """D-CQ-4: a farm costs (population + 1)² and raises the population, so n farms cost the
    squares from population + 1 to population + n; so for as many as a BUY line can name."""
    for population in range(13):
        for units in range(31):
            each = sum((population + k) ** 2 for k in range(1, units + 1))
            assert labour_for("FARMS", units, population, 0) == each
            assert labour_for("FARMS", units, population, 7) == max(each - 7, 0)
    assert labour_for("FARMS", 999_999, 5, 0) == sum((5 + k) ** 2 for k in range(1, 1_000_000))


def test_cultural_power_and_influence_gained():
    assert cultural_power(province(population=5, culture=2), 0) == 200
    assert cultural_power(province(culture=1, influence={"AR": 50, "neutral": 50}), 2) == 40
    assert influence_gained(1, 400, 100, 5, 5, 3, 3) == 4
    assert influence_gained(1, 400, 100, 5, 10, 3, 3) == 2
    assert influence_gained(2, 200, -5, 5, 0, 3, 1) == 2 * 200 * 5 * 3  # divisors clamped to 1


def test_gains_and_losses_keep_the_sum_at_100():
    influence = {"A": 20, "B": 15, "C": 15, "D": 15, "E": 15, "neutral": 20}
    parties = ["A", "B", "C", "D", "E", "neutral"]
    assert gain(influence, "A", 10, parties) == 10
    assert influence == {"A": 30, "B": 13, "C": 13, "D": 13, "E": 13, "neutral": 18}
    # A party that runs dry drops out and the others give the rest.
    influence = {"A": 50, "B": 1, "neutral": 49}
    assert gain(influence, "A", 10, ["A", "B", "neutral"]) == 10
    assert influence == {"A": 60, "B": 0, "neutral": 40}
    assert gain(influence, "A", 90, ["A", "B", "neutral"]) == 40 and influence["A"] == 100
    assert lose(influence, "A", 5) == 5 and influence == {"A": 95, "B": 0, "neutral": 5}


def test_simultaneous_gains_do_not_depend_on_who_comes_first():
    parties = ["A", "B", "neutral"]
    first = {"A": 40, "B": 40, "neutral": 20}
    assert share_gains(first, {"A": 60, "B": 60}, parties) == {"A": 10, "B": 10}
    assert first == {"A": 50, "B": 50, "neutral": 0}
    second = {"A": 40, "B": 40, "neutral": 20}
    assert share_gains(second, {"B": 60, "A": 60}, parties) == {"A": 10, "B": 10}
    third = {"A": 10, "B": 0, "neutral": 90}
    assert share_gains(third, {"A": 30, "B": 10}, parties) == {"A": 30, "B": 10}
    assert third == {"A": 40, "B": 10, "neutral": 50}
