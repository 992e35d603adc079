"""Clash of Empires' rule-book invariants (games/clash/invariants.py): a robot game keeps them,
and each fault planted in a turn's result is found and named."""

from __future__ import annotations

import copy
import dataclasses

from gm_games.clash import ruleset
from gm_games.clash.invariants import ADJACENT, CORES, ROUND, invariants

from gm.core.model import Event, SeatInfo, TurnResult
from gm.core.ruleset import TurnSeeds


def turn_with(seed: int, want) -> tuple[dict, dict, TurnResult]:
    """(state before, orders, result) of the first robot turn of a europe game whose result
    `want` accepts."""
    loaded = ruleset.load_scenario(ruleset.scenario_text("europe"), "europe")
    codes = ("BR", "RU", "FR", "GE")
    state = ruleset.new_game(loaded, [SeatInfo(c, c) for c in codes], TurnSeeds(seed, 0))
    for number in range(1, 33):
        seeds = TurnSeeds(seed, number)
        orders = {s: ruleset.robot_orders(state, s, seeds.rng(f"robot:{s}")) for s in codes}
        result = ruleset.resolve(state, orders, seeds)
        if want(state, result):
            return state, orders, result
        state = result.state
    raise AssertionError("no such turn")


def named(lines: list[str]) -> set[str]:
    return {line.split(": ", 1)[0] for line in lines}


def kinds(result: TurnResult) -> list[str]:
    return [e.kind for e in result.events]


def rolled(die_is_six: bool):
    def want(before: dict, result: TurnResult) -> bool:
        dice = [e.data["die"] for e in result.events if e.kind == "roll"]
        if not dice or (dice[0] == 6) != die_is_six:
            return False
        return die_is_six or sum(k in ("move", "battle") for k in kinds(result)) >= 2

    return want


def with_events(result: TurnResult, events: list[Event]) -> TurnResult:
    return dataclasses.replace(result, events=tuple(events))


def test_robot_turns_keep_the_new_invariants():
    for die_is_six in (False, True):
        before, orders, result = turn_with(3, rolled(die_is_six))
        assert invariants(before, orders, result) == []


def test_a_move_to_a_territory_not_adjacent_is_found():
    before, orders, result = turn_with(3, rolled(False))
    events = list(result.events)
    i = next(i for i, e in enumerate(events) if e.kind in ("move", "battle"))
    far = next(
        t["code"]
        for t in before["scenario"]["territories"]
        if t["code"]
        not in {
            events[i].data["from"],
            *next(p["neighbours"] for p in before["scenario"]["territories"] if p["code"] == events[i].data["from"]),
        }
    )
    events[i] = Event(events[i].kind, {**events[i].data, "to": far}, events[i].seats)
    assert ADJACENT in named(invariants(before, orders, with_events(result, events)))


def test_a_core_territory_changing_hands_after_claiming_is_found():
    before, orders, result = turn_with(3, rolled(False))
    state = copy.deepcopy(result.state)
    code = next(c for c, t in state["territories"].items() if t["core_of"] == "BR")
    state["territories"][code]["core_of"] = "FR"
    assert CORES in named(invariants(before, orders, dataclasses.replace(result, state=state)))


def test_a_six_that_pays_a_player_twice_or_not_at_all_is_found():
    before, orders, result = turn_with(3, rolled(True))
    events = list(result.events)
    i = next(i for i, e in enumerate(events) if e.kind == "bonus")
    events[i] = Event("bonus", {**events[i].data, "seat": events[i + 1].data["seat"]}, events[i].seats)
    assert ROUND in named(invariants(before, orders, with_events(result, events)))


def test_actions_out_of_the_order_of_play_or_before_the_roll_are_found():
    before, orders, result = turn_with(3, rolled(False))
    events = list(result.events)
    acts = [i for i, e in enumerate(events) if e.kind in ("pass", "recruit", "revolt", "move", "battle")]
    swapped = list(events)
    swapped[acts[0]], swapped[acts[-1]] = events[acts[-1]], events[acts[0]]
    assert ROUND in named(invariants(before, orders, with_events(result, swapped)))
    first = [events[acts[0]], *(e for i, e in enumerate(events) if i != acts[0])]
    assert ROUND in named(invariants(before, orders, with_events(result, first)))
