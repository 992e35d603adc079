"""Empires past the census turns drawn at creation (issue 14, item 9): the schedule goes on 3-5
turns after the last census (11.3), drawn from the game seed, so a long game can still end."""

from __future__ import annotations

from gm.core import census
from gm.core.model import SeatInfo
from gm.core.ruleset import TurnSeeds
from gm.core.statehash import state_hash
from gm.rulesets import get_ruleset

SEED = 11


def _state_past_the_horizon() -> dict:
    """A three-seat duchies game moved on to the turn after its last drawn census, with the
    Alban seat far ahead: the runaway win holds, so the next census must end the game."""
    ruleset = get_ruleset("empires")
    scenario = ruleset.load_scenario(ruleset.scenario_text("duchies"), "duchies")
    codes = ruleset.seat_codes(scenario)[:3]
    state = ruleset.new_game(scenario, [SeatInfo(c, c) for c in codes], TurnSeeds(SEED, 0))
    last = state[census.STATE_KEY]["turns"][-1]
    assert last > census.HORIZON
    vp = {code: 0 for code in codes}
    vp[codes[0]] = 500
    return dict(state, turn=last + 1, vp=vp)


def _play(state: dict, turns: int) -> tuple[dict, list]:
    ruleset = get_ruleset("empires")
    played = []
    for _ in range(turns):
        if ruleset.is_over(state):
            break
        number = state["turn"]
        result = ruleset.resolve(state, {}, TurnSeeds(SEED, number))
        played.append((number, [e.kind for e in result.events]))
        state = result.state
    return state, played


def test_a_game_past_the_drawn_census_turns_still_has_censuses_and_ends():
    start = _state_past_the_horizon()
    last = start[census.STATE_KEY]["turns"][-1]
    state, played = _play(start, 12)
    censuses = [number for number, kinds in played if "census" in kinds]
    assert censuses and censuses[0] - last in census.GAP  # 11.3: 3, 4 or 5 turns after the last
    assert [n for n, kinds in played if "warning" in kinds] == [last + 1]
    assert get_ruleset("empires").is_over(state) is not None
    assert state["victory"]["ended"] == censuses[0]
    drawn = state[census.STATE_KEY]["turns"]
    assert drawn == census.extend_schedule(start[census.STATE_KEY]["turns"], SEED, drawn[-1] - 1)
    assert all(b - a in census.GAP for a, b in zip(drawn, drawn[1:]))


def test_the_longer_schedule_is_the_same_every_time():
    first, _ = _play(_state_past_the_horizon(), 12)
    again, _ = _play(_state_past_the_horizon(), 12)
    assert state_hash(first) == state_hash(again)
    assert census.next_census(first[census.STATE_KEY], first["turn"] - 1) is not None or first["phase"] == "over"
