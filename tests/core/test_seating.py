"""gm.core.scenarios.seating: the one check every ruleset's new_game makes of the seats a GM
gives it, with the same answers in every game; and seat_counts, the one check of a scenario's
min_seats and max_seats."""

import pytest

from gm.core.model import SeatInfo
from gm.core.ruleset import ScenarioError
from gm.core.scenarios import seat_counts, seating

SCENARIO = {"name": "europe", "min_seats": 2, "max_seats": 3}
LISTED = ["BR", "FR", "GE", "RU"]


def seats(*codes: str) -> list[SeatInfo]:
    return [SeatInfo(code=c, name=f"player {c}") for c in codes]


def test_seating_is_in_the_scenarios_order_whatever_the_order_given():
    assert seating(SCENARIO, LISTED, seats("RU", "BR", "GE")) == ["BR", "GE", "RU"]


@pytest.mark.parametrize(
    "codes, message",
    [
        (("BR",), "europe is for 2 to 3 countries, not 1"),
        (("BR", "FR", "GE", "RU"), "europe is for 2 to 3 countries, not 4"),
        (("BR", "XX"), r"seat XX is not in europe \(its countries are BR, FR, GE, RU\)"),
        (("BR", "BR"), "each seat may take part only once"),
    ],
)
def test_seats_that_do_not_fit_are_refused_with_the_reason(codes, message):
    with pytest.raises(ScenarioError, match=message):
        seating(SCENARIO, LISTED, seats(*codes), "countries")


def test_a_scenarios_seat_counts_are_checked_with_the_same_words_in_every_game():
    assert seat_counts({"min_seats": 2, "max_seats": 4}, 4) == []
    assert seat_counts({"min_seats": 1, "max_seats": 1}, 2) == ["min_seats must be at least 2, not 1"]
    assert seat_counts({"min_seats": 5, "max_seats": 4}, 3, "countries") == [
        "min_seats (5) is more than max_seats (4)",
        "max_seats is 4 but only 3 countries are listed",
    ]
