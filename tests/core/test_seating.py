"""gm.core.scenarios.seating: the one check every ruleset's new_game makes of the seats a GM
gives it, with the same answers in every game."""

import pytest

from gm.core.model import SeatInfo
from gm.core.ruleset import ScenarioError
from gm.core.scenarios import seating

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
