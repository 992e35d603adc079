"""games/empires/invariants.py: the turns of the cases keep the book's invariants, and a fault
planted in the end-of-turn check (an old reading of the warning put back) is found and named."""

from __future__ import annotations

from pathlib import Path

import gm_games.empires
import pytest
from gm_games.empires import ruleset
from gm_games.empires.invariants import invariants

from gm.core import victory
from tests.games import case_turns

CASES = Path(gm_games.empires.__file__).parent / "cases"


def played_case(name: str) -> list[str]:
    """The invariants' findings on the turn a conformance case plays."""
    return case_turns.played_case(CASES, ruleset, name, invariants)


@pytest.mark.parametrize(
    "name",
    [
        "win-runaway-warning",
        "end-warning-stands-until-the-census",
        "end-warning-withdrawn",
        "end-not-on-the-warning-census",
        "end-at-the-next-census",
        "win-eliminated-this-turn-not-a-survivor",
    ],
)
def test_the_turns_of_the_cases_keep_the_invariants(name):
    assert played_case(name) == []


def test_a_warning_withdrawn_before_the_census_is_found(monkeypatch):
    """A reading that drops the warning on any turn no condition holds: 11.6 gives "a few turns
    to do something about it", up to the next census turn (D-EMP-13)."""
    judge = victory.judge

    def hasty(warning, turn, census_turn, now):
        return (
            victory.Verdict(None, "withdrawn")
            if warning is not None and not now.holds
            else judge(warning, turn, census_turn, now)
        )

    monkeypatch.setattr(victory, "judge", hasty)
    found = played_case("end-warning-stands-until-the-census")
    assert found and all(
        line.startswith("Victory conditions and game end (11.6, D-EMP-9..13): on turn 3") for line in found
    )


def test_a_warning_kept_past_its_census_is_found(monkeypatch):
    """A reading that keeps the warning standing when the census finds no win condition."""
    judge = victory.judge
    monkeypatch.setattr(
        victory,
        "judge",
        lambda warning, turn, census_turn, now: (
            victory.Verdict(warning) if warning else judge(warning, turn, census_turn, now)
        ),
    )
    found = played_case("end-warning-withdrawn")
    assert found and "the warning is 2, the book: None" in found[0]


def test_a_points_target_moved_during_the_game_is_found(monkeypatch):
    """11.6: the target is "set at the start of the game"."""
    resolve = ruleset.resolve

    def moving(state, orders, seeds):
        result = resolve(state, orders, seeds)
        result.state["victory"]["target"] += 1
        return result

    monkeypatch.setattr(ruleset, "resolve", moving)
    assert "the points target went from 40 to 41" in played_case("win-tie-at-the-top")[0]
