"""The invariant battery (gm.testing.battery): every installed ruleset's robot games keep their
rule book's invariants and the contract's (slow), and a fault planted in a ruleset makes the
battery fail naming the invariant it broke, without stopping at the first game."""

from __future__ import annotations

import dataclasses
import itertools
import json
import re

import pytest
from gm_games.clash import ClashRuleset, rules as clash_rules, ruleset as clash
from gm_games.conqueror import realm as conqueror_realm, ruleset as conqueror
from gm_games.empires import actions as empires_actions, ruleset as empires

from gm.core.model import Event, TurnResult
from gm.packaged import Parts
from gm.rulesets import installed
from gm.testing import contract
from gm.testing.battery import draw_setup, play_game, run_battery

# Games a ruleset in the slow test: a few dozen, fewer where a game costs seconds of CPU (an
# Empires game of 20-odd seats, a Minecraft EMPIRES game on the world map). The whole test took
# 164 CPU-s with 40/24/20/20/12 games (bench/README.md), now about 90.
GAMES = {"clash": 40, "conqueror": 24, "empires": 12, "imperials": 20, "mcempires": 8}
OTHER_GAMES = 12  # a ruleset installed beside gm's own
# The games of a ruleset whose games cost seconds are played by this many tests, each a share of
# the seeds (the same games in all): a test of a minute or two, alone at the end of `make test`,
# kept one of its two cores busy while the other waited.
PARTS = {"empires": 4, "imperials": 2, "mcempires": 4}


def shares() -> list[tuple[str, int, int]]:
    """(ruleset, first seed, games) of each test of the slow battery: seeds 27 on, in parts."""
    found = []
    for name in sorted(installed()):
        games, parts = GAMES.get(name, OTHER_GAMES), PARTS.get(name, 1)
        bounds = [27 + games * k // parts for k in range(parts + 1)]
        found += [(name, first, end - first) for first, end in zip(bounds, bounds[1:])]
    return found


def test_the_parts_play_every_seed_once():
    for name in installed():
        seeds = [seed for part, first, games in shares() if part == name for seed in range(first, first + games)]
        assert seeds == list(range(27, 27 + GAMES.get(name, OTHER_GAMES))), name


@pytest.mark.slow
@pytest.mark.parametrize("name, first, games", shares(), ids=lambda v: str(v))
def test_robot_games_keep_every_invariant(name, first, games):
    report = run_battery(installed()[name], games, seed=first)
    assert report.turns > len(report.games), "the games were played"
    assert not report.findings, "\n".join(report.summary(40))


class Faulty(ClashRuleset):
    """Clash of Empires with one planted fault, chosen by the subclasses below, and without its
    rule book's invariants, so that each generic check is seen alone."""

    parts = dataclasses.replace(ClashRuleset.parts, invariants=None)


class MutatesItsInput(Faulty):
    def resolve(self, state, orders_by_seat, seeds):
        result = super().resolve(state, orders_by_seat, seeds)
        state["round"] = -1
        return result


class TupleInEvent(Faulty):
    def resolve(self, state, orders_by_seat, seeds):
        result = super().resolve(state, orders_by_seat, seeds)
        return TurnResult(result.state, (*result.events, Event("note", {"pair": (1, 2)})))


class FloatInState(Faulty):
    def resolve(self, state, orders_by_seat, seeds):
        result = super().resolve(state, orders_by_seat, seeds)
        return TurnResult({**result.state, "rate": 0.5}, result.events)


CALLS = itertools.count()


class RemembersCalls(Faulty):
    """Chance from outside the seeds (a counter kept between calls): a replay differs."""

    def resolve(self, state, orders_by_seat, seeds):
        result = super().resolve(state, orders_by_seat, seeds)
        return TurnResult({**result.state, "calls": next(CALLS)}, result.events)


class ShowsASecret(Faulty):
    """Says each seat's money is its secret, but Clash's views show every seat's money."""

    def hidden_variant(self, state, seat, rng):
        seats = {**state["seats"], seat: {**state["seats"][seat], "money": state["seats"][seat]["money"] + 1}}
        return {**state, "seats": seats}


class NeverEnds(Faulty):
    def is_over(self, state):
        return None

    def resolve(self, state, orders_by_seat, seeds):
        return super().resolve({**state, "round": 1} if state["phase"] == "play" else state, orders_by_seat, seeds)


class FloatScores(Faulty):
    def scores(self, state):
        return {seat: vp / 2 for seat, vp in super().scores(state).items()}


class RobotOrdersFail(Faulty):
    def robot_orders(self, state, seat, rng):
        return [*super().robot_orders(state, seat, rng), *self.parse_orders([(1, "REVOLT ZZZ")])[0]]


class RaisesOnTurn3(Faulty):
    def resolve(self, state, orders_by_seat, seeds):
        if seeds.turn == 3:
            raise KeyError("lost")
        return super().resolve(state, orders_by_seat, seeds)


@pytest.mark.parametrize(
    "faulty, invariant",
    [
        (MutatesItsInput, contract.PURE),
        (TupleInEvent, contract.EVENTS),
        (FloatInState, contract.STATE),
        (RemembersCalls, contract.REPLAY),
        (ShowsASecret, contract.HIDDEN),
        (NeverEnds, contract.ENDS),
        (FloatScores, contract.SCORES),
        (RobotOrdersFail, contract.ORDERS),
        (RaisesOnTurn3, contract.RAISES),
    ],
    ids=lambda v: v.__name__ if isinstance(v, type) else "",
)
def test_a_planted_fault_is_found_in_every_game_and_named(faulty, invariant):
    report = run_battery(faulty(), games=3, seed=5, cap=40)
    assert report.by_invariant().keys() == {invariant}, "\n".join(report.summary())
    assert {f.seed for f in report.findings} == {5, 6, 7}, "every game is played and checked"


class ViewChangesTheState(Faulty):
    def view(self, state, seat):
        state["looked"] = state.get("looked", 0) + 1
        return super().view(state, seat)


def test_a_view_that_changes_the_state_is_found_and_the_replay_differs():
    report = run_battery(ViewChangesTheState(), games=2, seed=5, cap=40)
    assert report.by_invariant().keys() == {contract.READERS, contract.REPLAY}, "\n".join(report.summary())
    assert {f.turn for f in report.findings if f.invariant == contract.READERS} >= {1, 2, 3}


def test_the_same_clash_games_find_nothing():
    report = run_battery(Faulty(), games=3, seed=5, cap=40)
    assert report.findings == () and all(game.over for game in report.games)
    assert report.turns > 3 and report.cpu > 0


def test_a_finding_says_where_to_look():
    [first, *_] = play_game(RaisesOnTurn3(), 5).findings
    assert (first.seed, first.turn) == (5, 3)
    assert first.line.startswith(f"{contract.RAISES}: turn 3: KeyError: 'lost' (test_battery.py:")
    assert str(first).startswith("game 5, turn 3: ")


def book(before, orders, result):
    """A made-up rule: no round after the 19th."""
    late = result.state["round"] >= 20
    return [f"Book, 'Rounds': round {before['round']} led to round {result.state['round']}"] if late else []


class WithInvariants(Faulty):
    parts = dataclasses.replace(Faulty.parts, invariants=type("Invariants", (), {"invariants": staticmethod(book)}))


def test_the_rulesets_own_invariants_are_checked_after_every_turn():
    report = run_battery(WithInvariants(), games=2, seed=5)
    assert report.by_invariant() == {"Book, 'Rounds'": 2 * 12}, "rounds 19 to 30 of each game"
    assert "round 19 led to round 20" in report.findings[0].line
    assert Faulty.parts.invariants is None and Faulty().invariants({}, {}, TurnResult({}, ())) == []


def test_the_setup_is_drawn_from_the_seed_over_scenarios_options_and_seats():
    mcempires = installed()["mcempires"]
    setups = [draw_setup(mcempires, seed)[0] for seed in range(40)]
    assert setups[7] == draw_setup(mcempires, 7)[0]
    assert {s.scenario for s in setups} == set(mcempires.scenario_names())
    assert {s.options["mode"] for s in setups} == {"original", "war-bounty", "land-game"}
    assert {s.options["peace"] for s in setups} == {True, False} and "round-limit" not in setups[0].options
    assert len({len(s.seats) for s in setups}) > 3


def test_parts_without_invariants_default_to_none():
    fields = {f.name: f for f in dataclasses.fields(Parts)}
    assert fields["invariants"].default is None
    assert fields["offline"].default is None  # the other optional part, after it
    assert [f.name for f in dataclasses.fields(Parts)][-2:] == ["invariants", "offline"]


def test_money_that_appears_in_clash_is_found_and_named(monkeypatch):
    """A pass that pays $2 while its event says $1: the book's Money rule is named."""
    original = clash_rules._pass

    def generous(state, seat, events, sent):
        original(state, seat, events, sent)
        state["seats"][seat]["money"] += 1

    monkeypatch.setattr(clash_rules, "_pass", generous)
    report = run_battery(clash, games=3, seed=5)
    assert set(report.by_invariant()) == {"Money (Game Summary, D-CE-3)"}, "\n".join(report.summary())
    assert {f.seed for f in report.findings} == {5, 6, 7}
    assert "the events explain +1" in report.findings[0].line


def test_a_troop_at_the_wrong_price_in_clash_is_found_and_named(monkeypatch):
    """Recruits charged $1 a troop, as their events say: the book's $2 price is named."""
    monkeypatch.setattr(clash_rules, "TROOP_COST", 1)
    report = run_battery(clash, games=3, seed=5)
    assert set(report.by_invariant()) == {"Prices (Roll phase, Pass, Recruit $2, D-CE-2, D-CE-3)"}
    assert all(" paid $" in f.line for f in report.findings)


def test_armies_at_the_wrong_price_in_empires_are_found_and_named(monkeypatch):
    """ARMY at 2 BPs an army: the price is named, and so is the ARMY ALL that leaves BPs for
    another army at the book's price."""
    monkeypatch.setattr(empires_actions, "ARMY_COST", 2)
    report = run_battery(empires, games=3, seed=3)
    assert set(report.by_invariant()) == {
        "Prices (ARMY 3, RESERVE 1, GROW, FORTIFY, RAZE, D-EMP-4)",
        "Leftover BPs, the implicit ARMY ALL",
    }, "\n".join(report.summary())
    assert {f.seed for f in report.findings} == {3, 4, 5}


def test_winter_pay_off_the_formula_in_conqueror_is_found_and_named(monkeypatch):
    """Winter pay without the + 1 of (distance from capital + 1): Support Costs is named."""
    monkeypatch.setattr(
        conqueror_realm, "support_cost", lambda armies, population, distance: max(armies - population, 0) * distance
    )
    report = run_battery(conqueror, games=2, seed=3)
    assert set(report.by_invariant()) == {"Winter pay (Support Costs, D-CQ-5)"}, "\n".join(report.summary())
    assert {f.turn % 4 for f in report.findings} == {0}, "only winter turns"


@pytest.mark.parametrize(
    "value",
    [
        {"seat": "EN", "regions": [{"name": "Wales", "armies": 3}], "rate": 0.1, "none": None, "yes": True},
        {"pair": (1, 2)},
        {3: "a key that is not text"},
        {"huge": 2**70},
        {"when": float("nan")},
        {"text": "Pläyer <1> \u2603"},
    ],
    ids=["plain", "tuple", "int-key", "huge", "nan", "text"],
)
def test_json_read_back_gives_what_pythons_json_gives(value):
    """The checks read values back through orjson where it gives the same, else Python's json:
    what a check says of a tuple, a key that is not text, a NaN is what json says."""
    for allow_nan in (True, False):
        try:
            expected: object = json.loads(json.dumps(value, allow_nan=allow_nan))
        except ValueError as exc:
            with pytest.raises(ValueError, match=re.escape(str(exc))):
                contract.json_read_back(value, allow_nan)
            continue
        back = contract.json_read_back(value, allow_nan)
        assert json.dumps(back, sort_keys=True) == json.dumps(expected, sort_keys=True)
        assert (back == value) is (expected == value)
