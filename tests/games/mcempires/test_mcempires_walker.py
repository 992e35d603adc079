"""The walker's permits kept on the turn (paths.permits) and its live look-up of city centres
give the very games of a walker that works everything out afresh, as it did before."""

from __future__ import annotations

import pytest
from gm_games.mcempires import diplomacy, moves, paths, robot, ruleset, view
from gm_games.mcempires.turn import Turn

from gm.core.model import SeatInfo
from gm.core.ruleset import TurnSeeds
from gm.core.statehash import canonical_json
from gm.testing.suite import scenario_of


class AfreshWalker(paths.Walker):
    """The walker as it was: its marks and the other empires' city centres worked out anew."""

    def __init__(self, turn: Turn, gid: str):
        super().__init__(turn, gid)
        seat = self.seat
        allies = [s for s in turn.seats if diplomacy.allied(turn, seat, s)]
        self.fast = frozenset({turn.marks[seat], *(turn.marks[a] for a in allies)})
        self.closed = frozenset(
            turn.marks[s] for s in turn.seats if s != seat and not diplomacy.may_pass(turn, seat, s)
        )
        self.centres = {i for i, cid in turn.city_at.items() if turn.cities[cid]["owner"] != seat}

    def halts(self, i: int) -> bool:
        return i in self.centres


def game(seed: int, turns: int) -> list[str]:
    """The state after every turn of a robot game with every diplomatic option."""
    options = {"declarations": True, "borders": True, "alliances": True, "peace": True}
    scenario = scenario_of(ruleset, "valley", options)
    codes = ruleset.seat_codes(scenario)[:4]
    state = ruleset.new_game(scenario, [SeatInfo(c, c) for c in codes], TurnSeeds(seed, 0))
    states = []
    for number in range(1, turns + 1):
        if ruleset.is_over(state):
            break
        seeds = TurnSeeds(seed, number)
        orders = {c: ruleset.robot_orders(state, c, seeds.rng(f"robot:{c}")) for c in codes}
        state = ruleset.resolve(state, orders, TurnSeeds(seed, number)).state
        states.append(canonical_json(state))
    return states


def test_kept_permits_play_the_games_a_walker_working_them_out_afresh_plays(monkeypatch):
    kept = [game(seed, 30) for seed in (3, 4)]
    for module in (paths, moves, robot, view):
        monkeypatch.setattr(module, "Walker", AfreshWalker)
    afresh = [game(seed, 30) for seed in (3, 4)]
    assert kept == afresh
    assert all(len(states) == 30 for states in kept)


def started_turn() -> Turn:
    options = {"borders": True, "declarations": True, "alliances": True}
    scenario = scenario_of(ruleset, "testbed", options)
    return Turn(ruleset.new_game(scenario, [SeatInfo(c, c) for c in ("RE", "BL", "YE")], TurnSeeds(1, 0)))


def war(turn: Turn) -> None:
    diplomacy.start_war(turn, "RE", "BL", "declared")


def alliance(turn: Turn) -> None:
    diplomacy.ally(turn, "RE", "BL")


def agreement(turn: Turn) -> None:
    diplomacy.open_borders(turn, "BL", "RE", "MINE")


def agreement_runs_out(turn: Turn) -> None:
    turn.state["borders"].append({"host": "BL", "guest": "RE", "until": turn.round - 1})


@pytest.mark.parametrize("change", [war, alliance, agreement, agreement_runs_out])
def test_permits_follow_a_change_made_on_the_same_turn(change):
    """The key holds what the marks depend on: a war, an alliance or an agreement made during
    the turn opens Blue's territory to the next walker of Red's made on that turn (and one that
    has run out keeps it shut)."""
    turn = started_turn()
    blue = turn.marks["BL"]
    assert blue in paths.permits(turn, "RE")[1]
    if change is agreement_runs_out:
        turn.state["borders"].append({"host": "BL", "guest": "RE", "until": turn.round})
        assert blue not in paths.permits(turn, "RE")[1]
        turn.state["borders"].clear()
    change(turn)
    assert (blue in paths.permits(turn, "RE")[1]) == (change is agreement_runs_out)
    assert (blue in paths.permits(turn, "RE")[0]) == (change is alliance)  # allied land is fast
