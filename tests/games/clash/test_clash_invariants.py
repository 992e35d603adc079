"""Clash of Empires' rule-book invariants (games/clash/invariants.py): a robot game keeps them,
and each fault planted in a turn's result is found and named."""

from __future__ import annotations

import copy
import dataclasses
from pathlib import Path

import gm_games.clash
import pytest
from gm_games.clash import ruleset
from gm_games.clash.board import troops_of
from gm_games.clash.invariants import (
    ADJACENT,
    BOARD,
    CORES,
    END,
    EVERY,
    HIDDEN,
    LIMIT,
    NEUTRALS,
    PLACING,
    ROLL,
    ROUND,
    TURNS,
    WHO,
    _neutrals,
    invariants,
)

from gm.core.cases import ScriptedSeeds
from gm.core.model import Event, SeatInfo, TurnResult
from gm.core.ruleset import TurnSeeds
from tests.games import case_turns

CASES = Path(gm_games.clash.__file__).parent / "cases"


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


def lowlands_round(start: str, orders: dict[str, list[str]], **territories) -> tuple[dict, dict, TurnResult]:
    """(state before, orders, result) of a lowlands round with the die at 3, the territories set
    as (owner, troops[, core])."""
    loaded = ruleset.load_scenario(ruleset.scenario_text("lowlands"), "lowlands")
    state = ruleset.new_game(loaded, [SeatInfo("BR", "Ann"), SeatInfo("FR", "Bob")], TurnSeeds(1, 0))
    state.update(phase="play", round=5, start=start)
    state["seats"]["BR"]["money"] = 10
    for code, (owner, troops, *core) in territories.items():
        state["territories"][code].update(owner=owner, troops=troops, core_of=(core or [None])[0])
    parsed = {seat: ruleset.parse_orders(list(enumerate(lines, 1)))[0] for seat, lines in orders.items()}
    return state, parsed, ruleset.resolve(state, parsed, ScriptedSeeds(1, 5, [3], "roll"))


def replaced(result: TurnResult, kind: str, **data) -> TurnResult:
    events = [Event(e.kind, {**e.data, **data}, e.seats) if e.kind == kind else e for e in result.events]
    return with_events(result, events)


def test_a_battle_against_other_troops_than_the_board_holds_is_found():
    # "The attacker loses ... the defense strength of all the units in a region during the start
    # of the battle": France took Holland first, so Britain's attack meets France's 3 survivors.
    before, orders, result = lowlands_round(
        "FR", {"FR": ["MOVE BEL HOL ALL"], "BR": ["MOVE ENG HOL 5"]}, ENG=("BR", 5), HOL=("BR", 1), BEL=("FR", 4)
    )
    assert invariants(before, orders, result) == []
    events = list(result.events)
    i = [n for n, e in enumerate(events) if e.kind == "battle"][1]
    assert events[i].data["defending"] == 3
    # The board as the files saw it (1 British troop) instead of the board at the battle.
    events[i] = Event("battle", {**events[i].data, "defending": 1, "attacker_losses": 1}, events[i].seats)
    assert BOARD in named(invariants(before, orders, with_events(result, events)))


def test_a_recruit_past_the_cubes_made_good_by_later_losses_is_found():
    """FAQ: "The player may no longer place unit cubes until some unit cubes are removed from the
    board". Britain acts first with 97 troops and recruits 3 (100); France then takes 5. Planted:
    the recruit was of 4 (101 on the board when it ran), which France's attack brings back to 96
    by the end of the round, so only the count at the recruit finds it."""
    before, orders, result = lowlands_round(
        "BR", {"BR": ["RECRUIT ENG 3"], "FR": ["MOVE BEL HOL 5"]}, ENG=("BR", 60), HOL=("BR", 37), BEL=("FR", 5)
    )
    assert invariants(before, orders, result) == []
    assert troops_of(result.state, "BR") == 95
    state = copy.deepcopy(result.state)
    state["territories"]["ENG"]["troops"] += 1
    state["seats"]["BR"]["money"] -= 2
    planted = dataclasses.replace(replaced(result, "recruit", troops=4, cost=8), state=state)
    # The recruit of 4 is no RECRUIT ENG 3 either (the order's number is what goes).
    assert invariants(before, orders, planted) == [
        f"{LIMIT}: BR's recruit put it at 101 troops, past 100",
        f"{ORDERED}: BR picked RECRUIT ENG 3; the round saw: Britain (BR) recruits 3 troops in England (ENG) for $6.",
    ]


def test_a_recruit_where_the_seat_has_no_troops_is_found():
    before, orders, result = lowlands_round("BR", {"BR": ["RECRUIT ENG 2"]}, ENG=("BR", 1), HOL=("FR", 1))
    assert invariants(before, orders, result) == []
    assert BOARD in named(invariants(before, orders, replaced(result, "recruit", territory="HOL")))


def test_a_move_into_an_opponent_without_combat_is_found():
    before, orders, result = lowlands_round("BR", {"BR": ["MOVE ENG HOL 2"]}, ENG=("BR", 3), HOL=(None, 0))
    assert invariants(before, orders, result) == []
    moved = copy.deepcopy(before)
    moved["territories"]["HOL"].update(owner="FR", troops=1)  # France holds Holland after all
    assert BOARD in named(invariants(moved, orders, result))


def test_a_revolt_on_a_territory_of_ones_own_is_found():
    before, orders, result = lowlands_round("BR", {"BR": ["REVOLT ENG"]}, ENG=("FR", 2, "BR"), HOL=("BR", 1))
    assert invariants(before, orders, result) == []
    held = copy.deepcopy(before)
    held["territories"]["ENG"]["owner"] = "BR"
    assert BOARD in named(invariants(held, orders, result))


def test_survivors_left_out_of_a_captured_territory_are_found():
    before, orders, result = lowlands_round("BR", {"BR": ["MOVE ENG BEL 4"]}, ENG=("BR", 5), BEL=("FR", 1))
    assert invariants(before, orders, result) == []
    state = copy.deepcopy(result.state)
    state["territories"]["BEL"]["troops"] = 1  # one survivor moved in, two went back
    state["territories"]["ENG"]["troops"] = 3
    assert BOARD in named(invariants(before, orders, dataclasses.replace(result, state=state)))


def test_neutral_troops_that_act_grow_or_pass_their_100_cubes_are_found():
    """List of Components: "100 green cubes to represent neutral troops"; D-CE-1: they never act."""
    before, orders, result = turn_with(3, rolled(False))
    assert NEUTRALS not in named(invariants(before, orders, result))
    state = copy.deepcopy(result.state)
    code = next(c for c, t in state["territories"].items() if t["owner"] == "neutral")
    state["territories"][code]["troops"] += 100
    was, now = troops_of(before, "neutral"), troops_of(state, "neutral")
    lines = invariants(before, orders, dataclasses.replace(result, state=state))
    assert [line for line in lines if line.startswith(NEUTRALS)] == [
        f"{NEUTRALS}: {now} neutral troops on the board",
        f"{NEUTRALS}: the neutral troops grew from {was} to {now}",
    ]
    # An action of theirs (the other checks expect a seat's, so this one is asked alone).
    events = list(result.events)
    i = next(i for i, e in enumerate(events) if e.kind in ("move", "battle"))
    who = "seat" if events[i].kind == "move" else "attacker"
    events[i] = Event(events[i].kind, {**events[i].data, who: "neutral"}, events[i].seats)
    assert _neutrals(before, result.state, tuple(events)) == [
        f"{NEUTRALS}: the neutral troops took a {events[i].kind} action"
    ]


def test_a_failed_order_told_to_everyone_or_an_open_event_kept_from_them_is_found():
    """D-ALL-5: "an order that fails for want of something is reported to its own seat"."""
    before, orders, result = lowlands_round("BR", {"BR": ["RECRUIT HOL 2"]}, ENG=("BR", 1), HOL=("FR", 1))
    assert invariants(before, orders, result) == []
    told = [Event(e.kind, e.data, None if e.kind == "order_failed" else e.seats) for e in result.events]
    assert HIDDEN in named(invariants(before, orders, with_events(result, told)))
    kept = [Event(e.kind, e.data, ("BR",) if e.kind == "roll" else e.seats) for e in result.events]
    assert HIDDEN in named(invariants(before, orders, with_events(result, kept)))


def test_troops_or_a_home_of_a_seat_not_in_the_game_are_found():
    before, orders, result = lowlands_round("BR", {"BR": ["PASS"]}, ENG=("BR", 1), HOL=("FR", 1))
    for field, value in (("owner", "GE"), ("core_of", "GE")):
        state = copy.deepcopy(result.state)
        state["territories"]["HOL"][field] = value
        assert WHO in named(invariants(before, orders, dataclasses.replace(result, state=state)))


def test_a_round_with_two_dice_or_a_seven_is_found():
    before, orders, result = lowlands_round("BR", {"BR": ["PASS"]}, ENG=("BR", 1), HOL=("FR", 1))
    events = list(result.events)
    i = kinds(result).index("roll")
    assert ROLL in named(invariants(before, orders, with_events(result, [*events[: i + 1], *events[i:]])))
    events[i] = Event("roll", {**events[i].data, "die": 7}, events[i].seats)
    assert ROLL in named(invariants(before, orders, with_events(result, events)))


def test_a_bonus_without_a_six_or_an_action_before_round_one_is_found():
    """Roll phase: "If a 6 is rolled, the following happens" (D-CE-2), and only then."""
    _, _, six = turn_with(3, rolled(True))
    before, orders, result = turn_with(3, rolled(False))
    drawn = next(e for e in six.events if e.kind == "start_player")
    lines = invariants(before, orders, with_events(result, [*result.events, drawn]))
    assert ROLL in named(lines)
    placing, orders, result = turn_with(3, lambda before, result: before["phase"] == "place")
    passed = Event("pass", {"text": "", "seat": "BR", "money": 0, "sent": True})
    assert ROLL in named(invariants(placing, orders, with_events(result, [*result.events, passed])))


def test_a_claim_out_of_turn_or_of_a_claimed_territory_is_found():
    before, orders, result = turn_with(3, lambda before, result: before["phase"] == "claim")
    assert invariants(before, orders, result) == []
    events = list(result.events)
    claims = [i for i, e in enumerate(events) if e.kind == "claim"]
    swapped = list(events)
    swapped[claims[0]], swapped[claims[1]] = events[claims[1]], events[claims[0]]
    assert TURNS in named(invariants(before, orders, with_events(result, swapped)))
    again = dict(events[claims[1]].data, territory=events[claims[0]].data["territory"])
    events[claims[1]] = Event("claim", again, events[claims[1]].seats)
    assert TURNS in named(invariants(before, orders, with_events(result, events)))


def test_a_player_left_without_an_action_is_found():
    before, orders, result = lowlands_round("BR", {"BR": ["PASS"]}, ENG=("BR", 1), HOL=("FR", 1))
    events = [e for e in result.events if not (e.kind == "pass" and e.data["seat"] == "FR")]
    state = copy.deepcopy(result.state)
    state["seats"]["FR"]["money"] -= 1
    assert named(invariants(before, orders, TurnResult(state, tuple(events)))) == {EVERY}


def test_a_game_over_that_misnames_the_winners_or_comes_early_is_found():
    """End of the game: "The winner is the player with the most victory points" (D-CE-6)."""
    before, orders, result = lowlands_round("BR", {"BR": ["PASS"]}, ENG=("BR", 1), HOL=("FR", 1))
    last = copy.deepcopy(before)
    last["round"] = last["rounds"]
    last["seats"]["FR"]["vp"] = 2
    result = ruleset.resolve(last, orders, ScriptedSeeds(1, 5, [3], "roll"))
    assert invariants(last, orders, result) == []
    for wrong in ({"winners": ["BR"]}, {"tie": True}, {"scores": {"BR": 0, "FR": 0}}):
        assert END in named(invariants(last, orders, replaced(result, "game_over", **wrong)))
    round_5 = ruleset.resolve(before, orders, ScriptedSeeds(1, 5, [3], "roll"))
    early = with_events(round_5, [*round_5.events, next(e for e in result.events if e.kind == "game_over")])
    assert END in named(invariants(before, orders, early))
    over = copy.deepcopy(result.state)  # "When 30 rounds have passed, the game ends"
    again = ruleset.resolve(over, orders, ScriptedSeeds(1, 6, [], "roll"))
    assert invariants(over, orders, again) == []
    played_on = copy.deepcopy(over)
    played_on["seats"]["BR"]["money"] += 1
    assert END in named(invariants(over, orders, TurnResult(played_on, ())))


def test_units_placed_out_of_the_order_of_play_or_after_set_up_are_found():
    """Setting up the game, 2, placed in the order of play (D-ALL-4); a round places none."""
    before, orders, result = turn_with(3, lambda before, result: before["phase"] == "place")
    assert invariants(before, orders, result) == []
    events = list(result.events)
    placing = [i for i, e in enumerate(events) if e.kind in ("place", "spread")]
    first, last = placing[0], placing[-1]
    assert events[first].data["seat"] != events[last].data["seat"]
    swapped = list(events)
    swapped[first], swapped[last] = events[last], events[first]
    assert any(line.startswith(PLACING) for line in invariants(before, orders, with_events(result, swapped)))
    play, orders, result = lowlands_round("BR", {"BR": ["PASS"]}, ENG=("BR", 1), HOL=("FR", 1))
    extra = Event("place", {"text": "", "seat": "FR", "territory": "BEL", "troops": 1})
    state = copy.deepcopy(result.state)
    state["territories"]["BEL"].update(owner="FR", troops=1)
    lines = invariants(play, orders, TurnResult(state, (*result.events, extra)))
    assert f"{PLACING}: units were placed in the play phase" in lines


@pytest.mark.parametrize("name", sorted(p.stem for p in CASES.glob("*.toml")))
def test_the_turn_of_every_case_keeps_the_invariants(name):
    """The cases play the book's edges (orders on the boundary, seats' orders meeting in one
    round, a turn after the end); the invariants hold on each as on a robot game's turns."""
    assert case_turns.played_case(CASES, ruleset, name, invariants) == []


ORDERED = "The action is the one the player picked (Action phase: Pass, Recruit, Revolt, Move)"


@pytest.mark.parametrize(
    ("name", "kind", "changed", "picked"),
    [
        ("action-recruit", "recruit", {"troops": 2, "cost": 4}, "RECRUIT ENG 3"),
        ("action-revolt", "revolt", {"territory": "PIC"}, "REVOLT ENG"),
        ("combat-example-2", "battle", {"from": "HOL"}, "MOVE ENG BEL 4"),
        ("move-every-troop-by-number", "move", {"troops": 1}, "MOVE ENG HOL 4"),
    ],
)
def test_an_action_other_than_the_one_picked_is_found(name, kind, changed, picked):
    """ "A player takes one of the following actions": Recruit "any number of troops" in the
    territory picked, Revolt on the core picked, Move "any number of troops from one territory
    to another": the action carried out is the order as written, territories and number."""
    before, orders, result = case_turns.case_turn(CASES, ruleset, name)
    assert [line for line in invariants(before, orders, result) if line.startswith(ORDERED)] == []
    found = [
        line for line in invariants(before, orders, case_turns.with_event(result, kind, **changed)) if ORDERED in line
    ]
    assert len(found) == 1 and f" picked {picked};" in found[0]
