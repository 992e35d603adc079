"""Whole Clash games played by robots: legal orders, an end after round 30, views and order forms."""

from __future__ import annotations

import json

import pytest
from gm_games.clash import ruleset

from gm.core.model import Order, SeatInfo
from gm.core.ruleset import TurnSeeds

VIEW_KEYS = {
    "ruleset",
    "title",
    "seat",
    "phase",
    "round",
    "rounds",
    "start_units",
    "unit_limit",
    "turn_label",
    "map",
    "seats",
    "you",
    "order_of_play",
    "known",
    "outcome",
}
TERRITORY_KEYS = {"code", "name", "x", "y", "neighbours", "owner", "troops", "core_of", "colour"}
SEAT_KEYS = {"code", "name", "nation", "colour", "money", "vp", "territories", "troops"}
YOU_KEYS = {"code", "name", "nation", "colour", "money", "vp", "core", "territories"}


def new_game(seed: int, codes=("BR", "RU", "FR", "GE"), scenario="europe") -> dict:
    loaded = ruleset.load_scenario(ruleset.scenario_text(scenario), scenario)
    return ruleset.new_game(loaded, [SeatInfo(c, f"Player {c}") for c in codes], TurnSeeds(seed, 0))


def robot_game(seed: int, codes=("BR", "RU", "FR", "GE"), each_turn=None) -> tuple[dict, list]:
    """Play a game to the end with robots at every seat; check every robot order on the way."""
    state, turn, labels = new_game(seed, codes), 1, []
    while ruleset.is_over(state) is None:
        labels.append(ruleset.turn_label(state))
        orders = {}
        for seat in state["seating"]:
            orders[seat] = ruleset.robot_orders(state, seat, TurnSeeds(seed, turn).rng(f"robot:{seat}"))
            assert ruleset.check_orders(state, seat, orders[seat]) == [], (turn, seat, orders[seat])
        if each_turn:
            each_turn(state)
        state = ruleset.resolve(state, orders, TurnSeeds(seed, turn)).state
        turn += 1
        assert turn < 40
    return state, labels


def test_a_four_seat_robot_game_on_europe_ends_after_round_30():
    # What a robot game costs is measured by bench/bench_invariants.py, not timed here.
    state, labels = robot_game(2026)
    assert labels[:3] == ["Set-up: claiming territories", "Set-up: placing 20 units", "Round 1 of 30"]
    assert labels[-1] == "Round 30 of 30" and len(labels) == 32
    outcome = ruleset.is_over(state)
    assert state["phase"] == "over" and ruleset.turn_label(state) == "Game over"
    assert outcome.scores == ruleset.scores(state) and max(outcome.scores.values()) > 0
    assert set(outcome.winners) == {s for s, vp in outcome.scores.items() if vp == max(outcome.scores.values())}


def test_a_rerun_of_the_last_round_ends_the_game_the_same_way():
    """End of the game (D-CE-6): the last round run again from what gm stores (the state and the
    orders as JSON, the turn's seeds, D-ALL-1) gives the same end, winners and report lines; a
    turn after the end plays nothing."""
    last = {}
    state, _ = robot_game(11, ("BR", "FR"), each_turn=lambda before: last.update(before=before))
    before = json.loads(json.dumps(last["before"]))
    assert before["round"] == before["rounds"] == 30
    turn = 32  # claiming, placing, then rounds 1 to 30
    orders = {
        seat: ruleset.robot_orders(before, seat, TurnSeeds(11, turn).rng(f"robot:{seat}")) for seat in before["seating"]
    }
    stored = {
        seat: [Order.from_json(json.loads(json.dumps(o.to_json()))) for o in given] for seat, given in orders.items()
    }
    first, again = (ruleset.resolve(before, stored, TurnSeeds(11, turn)) for _ in range(2))
    assert first.state == again.state == state
    assert [e.to_json() for e in first.events] == [e.to_json() for e in again.events]
    assert ruleset.is_over(again.state) == ruleset.is_over(state)
    [over] = [e.data for e in again.events if e.kind == "game_over"]
    assert sorted(over["winners"]) == sorted(ruleset.is_over(state).winners)
    after = ruleset.resolve(state, stored, TurnSeeds(11, turn + 1))
    assert after.state == state and after.events == ()


@pytest.mark.parametrize("codes", [("BR", "FR"), ("RU", "FR", "GE")])
def test_smaller_robot_games_end_too(codes):
    state, _ = robot_game(7, codes)
    assert ruleset.is_over(state) and state["seating"] == [c for c in ("BR", "RU", "FR", "GE") if c in codes]


def test_claiming_gives_every_claimable_territory_a_core_owner():
    state = new_game(3)
    orders = {s: ruleset.robot_orders(state, s, TurnSeeds(3, 1).rng(s)) for s in state["seating"]}
    after = ruleset.resolve(state, orders, TurnSeeds(3, 1)).state
    claimable = [t["code"] for t in after["scenario"]["territories"] if t["claimable"]]
    cores = [after["territories"][c]["core_of"] for c in claimable]
    assert None not in cores
    assert max(cores.count(s) for s in after["seating"]) - min(cores.count(s) for s in after["seating"]) <= 1


def check_view(state: dict, seat: str) -> None:
    view = ruleset.view(state, seat)
    assert json.loads(json.dumps(view)) == view
    assert set(view) == VIEW_KEYS and view["seat"] == seat and view["ruleset"] == "clash"
    assert (view["start_units"], view["unit_limit"]) == (
        state["scenario"]["start_units"],
        state["scenario"]["unit_limit"],
    )
    assert {"width", "height", "territories"} == set(view["map"])
    assert all(set(t) == TERRITORY_KEYS for t in view["map"]["territories"])
    assert all(set(s) == SEAT_KEYS for s in view["seats"])
    assert set(view["you"]) == YOU_KEYS
    assert [s["code"] for s in view["seats"]] == state["seating"]
    assert sorted(view["order_of_play"]) == sorted(state["seating"])


def test_views_fit_every_turn_of_a_game_and_the_last_form_says_it_is_over():
    def each_turn(state):
        for seat in state["seating"]:
            check_view(state, seat)

    final, _ = robot_game(11, each_turn=each_turn)
    check_view(final, "BR")
    assert ruleset.view(final, "BR")["outcome"] == ruleset.is_over(final).to_json()
    assert ruleset.order_form(final, "BR") == ["# The game is over: no orders are needed."]


def test_the_view_of_a_round():
    state = new_game(5, ("BR", "FR"), "lowlands")
    state.update(phase="play", round=4, start="FR")
    state["territories"]["ENG"].update(owner="BR", troops=3, core_of="BR")
    state["seats"]["BR"].update(money=5, vp=2)
    view = ruleset.view(state, "BR")
    eng, lux, hol = (next(t for t in view["map"]["territories"] if t["code"] == c) for c in ("ENG", "LUX", "HOL"))
    assert (eng["owner"], eng["colour"], eng["core_of"]) == ("BR", "#d62828", "BR")
    assert (lux["owner"], lux["troops"], lux["colour"]) == ("neutral", 2, "#3a9a4a")
    assert (hol["owner"], hol["colour"]) == (None, "#d9d9d9")
    assert view["seats"][0] == {
        "code": "BR",
        "name": "Player BR",
        "nation": "Britain",
        "colour": "#d62828",
        "money": 5,
        "vp": 2,
        "territories": 1,
        "troops": 3,
    }
    assert view["you"]["territories"] == [
        {"code": "ENG", "name": "England", "troops": 3, "neighbours": ["HOL", "BEL", "PIC"]}
    ]
    assert (view["order_of_play"], view["turn_label"], view["outcome"]) == (["FR", "BR"], "Round 4 of 30", None)
    assert ruleset.view(state, "XX")["you"] is None


def test_the_order_form_of_a_round():
    state = new_game(5, ("BR", "FR"), "lowlands")
    state.update(phase="play", round=4)
    state["territories"]["ENG"].update(owner="BR", troops=3)
    state["seats"]["BR"]["money"] = 5
    form = ruleset.order_form(state, "BR")
    assert form[0] == "# Round 4 of 30: Britain has $5, 0 VP and 3 of 100 troops on the board."
    assert form[1:3] == [
        "# Your one action this round: PASS, RECRUIT <territory> <n>, REVOLT <territory>,",
        "#   or MOVE <from> <to> <n|ALL>.",
    ]
    assert "#   ENG 3: HOL(empty) BEL(empty) PIC(empty)" in form
    assert form[-1] == "PASS"
