"""The toolkit's census, VP and victory services (chapter 11, D-EMP-7..14), as pure functions."""

from __future__ import annotations

from hypothesis import given, strategies as st

from gm.core import census, victory, vp
from gm.core.victory import KNOCKOUT, POINTS, RUNAWAY, Standing, judge, standing


@given(st.integers(0, 2**63))
def test_census_turns_are_three_to_five_apart_from_turn_three_to_five(seed):
    turns = census.draw_schedule(seed)
    assert turns[0] in (3, 4, 5) and turns[-1] > census.HORIZON
    assert all(b - a in (3, 4, 5) for a, b in zip(turns, turns[1:]))
    assert census.draw_schedule(seed) == turns  # drawn from the seed alone (D-ALL-1)
    longer = census.extend_schedule(turns, seed, 400)
    assert longer[: len(turns)] == turns and longer[-1] > 400


def test_census_scores_populated_areas_of_survivors():
    changes = census.census_points({"FR": 3, "EN": 0, "XX": 2}, ["EN", "FR"])
    assert changes == [vp.VPChange("FR", 3, "census", "3 populated land areas")]
    assert census.next_census({"turns": [4, 8]}, 4) == 8 and census.next_census({"turns": [4]}, 4) is None


def test_battle_vp_by_d_emp_7():
    assert vp.battle_changes("FR", "EN", True, 4, 1, "Kent") == [
        vp.VPChange("FR", 3, "capture", "captured Kent with 3 population"),
        vp.VPChange("EN", -5, "loss", "lost Kent: 1 + 4 population"),
    ]
    assert vp.battle_changes("FR", None, True, 0, 0, "Kent") == []
    assert vp.battle_changes("FR", "EN", False, 4, 2, "Kent") == [
        vp.VPChange("FR", -3, "failed attack", "attack on Kent failed: 2 population lost, + 1"),
        vp.VPChange("EN", -2, "defence", "Kent held but lost 2 population"),
    ]
    assert vp.apply({"FR": 1}, [vp.VPChange("FR", -3, "failed attack")]) == {"FR": -2}


def test_the_three_wins():
    assert standing({"A": 20, "B": 10, "C": 10}, "ABC", 100) == Standing("A", 20, (RUNAWAY, KNOCKOUT))
    assert standing({"A": 20, "B": 19, "C": 18, "D": 17}, "ABCD", 100) == Standing("A", 20, ())
    assert standing({"A": 20, "B": 20}, "AB", 1) == Standing(None, 20, ())  # D-EMP-9: a tie
    assert standing({"A": 40, "B": 30, "C": 30}, "ABC", 100) == Standing("A", 40, (KNOCKOUT,))
    assert standing({"A": 39, "B": 31, "C": 30}, "ABC", 38) == Standing("A", 39, (POINTS,))
    assert standing({"A": 39, "B": 31, "C": 30}, "ABC", 39) == Standing("A", 39, ())  # strictly above
    assert standing({"A": 5, "B": 90}, "A", 100) == Standing("A", 5, (RUNAWAY, KNOCKOUT))  # lone survivor
    assert standing({"A": 0}, "A", 100) == Standing("A", 0, ())
    assert standing({"A": 3, "B": -4}, "AB", 100) == Standing("A", 3, (RUNAWAY,))  # total not above 0
    assert standing({}, "", 1) == Standing(None, None, ())


def test_warning_then_end_at_the_next_census_strictly_after():
    holds = Standing("A", 50, (POINTS,))
    none = Standing("A", 50, ())
    assert judge(None, 4, True, holds) == victory.Verdict(4, "warning")  # a census turn warns only
    assert judge(4, 5, False, none) == victory.Verdict(4)  # the warning stands
    assert judge(4, 7, True, Standing("B", 60, (RUNAWAY, POINTS))) == victory.Verdict(4, "win", "B", RUNAWAY)
    assert judge(4, 7, True, none) == victory.Verdict(None, "withdrawn")
    assert judge(None, 7, False, Standing(None, None)).over


def test_elimination_and_discounts():
    assert victory.is_eliminated(0, 10, 5) and victory.is_eliminated(3, 0, 0)
    assert not victory.is_eliminated(3, 0, 2) and not victory.is_eliminated(3, 4, 0)
    assert victory.earned_discounts(["A", "B"], "A", KNOCKOUT) == {"A": 3, "B": 1}
    assert victory.earned_discounts(["A", "B"], "B", POINTS) == {"A": 1, "B": 2}
    assert victory.still_playing({"victory": {"eliminated": {"B": 3}}}, "A")
    assert not victory.still_playing({"victory": {"eliminated": {"B": 3}}}, "B")
    assert victory.earned({"victory": {"discounts": {"A": 3}}}) == {"A": 3} and victory.earned({}) == {}
