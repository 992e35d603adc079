"""Imperials properties (Hypothesis and whole robot games): the parser never raises, resolve is
deterministic, pure and never raises, the bank and the hands always hold the same cards, no hand
goes negative, the same seed gives the same game, dealt boards are fair, and no view holds what
only another seat may know."""

from __future__ import annotations

import copy
from random import Random

import pytest
from gm_games.imperials import ruleset
from gm_games.imperials.board import geometry
from gm_games.imperials.deal import red_neighbours
from gm_games.imperials.goods import BANK, GOODS
from hypothesis import given, settings, strategies as st

from gm.core.model import Order, SeatInfo
from gm.core.ruleset import TurnSeeds
from gm.core.statehash import canonical_json, state_hash

VERBS = [
    "SETTLE",
    "ROAD",
    "VILLAGE",
    "TOWN",
    "BUY",
    "PLAY",
    "MARKET",
    "OFFER",
    "WITHDRAW",
    "IMPROVE",
    "FENCE",
    "WARRIOR",
    "ACTIVATE",
    "UPGRADE",
    "MOVE",
    "CHASE",
    "ACCEPT",
    "DISCARD",
    "ROBBER",
    "GOLD",
    "DEMOTE",
    "DRAGON",
    "DROP",
    "FLY",
]
WORDS = [
    "12",
    "13-18",
    "18-24",
    "E",
    "BLUE",
    "ALL",
    "wood",
    "ore",
    "FOR",
    "2",
    "warrior",
    "roads",
    "plenty",
    "science",
    "#1",
    "0",
    "99999",
    "-3",
    "7-7",
]


def new_state(seed: int, mode: str = "basic", scenario: str = "island", seats: int = 4) -> dict:
    loaded = ruleset.load_scenario(ruleset.scenario_text(scenario), scenario)
    loaded = {**loaded, "options": {**loaded.get("options", {}), "mode": mode}}
    codes = ruleset.seat_codes(loaded)[:seats]
    return ruleset.new_game(loaded, [SeatInfo(c, f"Player {c}") for c in codes], TurnSeeds(seed, 0))


def robot_turn(state: dict, seed: int, turn: int) -> dict:
    seeds = TurnSeeds(seed, turn)
    return {s: ruleset.robot_orders(state, s, seeds.rng(f"robot:{s}")) for s in state["seating"]}


def play(state: dict, seed: int, turns: int):
    """Yield each state of a robot game, the first one included."""
    yield state
    for turn in range(1, turns + 1):
        state = ruleset.resolve(state, robot_turn(state, seed, turn), TurnSeeds(seed, turn)).state
        yield state
        if ruleset.is_over(state):
            return


def cards_in_play(state: dict) -> dict:
    return {g: state["bank"][g] + sum(s["hand"][g] for s in state["seats"].values()) for g in GOODS}


order_line = st.one_of(
    st.text(max_size=40),
    st.builds(
        lambda verb, args: " ".join([verb, *args]), st.sampled_from(VERBS), st.lists(st.sampled_from(WORDS), max_size=5)
    ),
)


@settings(deadline=None)  # no timing in a test: on a busy machine an example may take long
@given(st.lists(st.tuples(st.integers(0, 10_000), st.text())))
def test_the_parser_never_raises_on_any_text(lines):
    orders, problems = ruleset.parse_orders(lines)
    assert len(orders) + len(problems) <= len(lines)


@settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 2**32),
    st.sampled_from(["basic", "wonders"]),
    st.integers(0, 4),
    st.lists(order_line, max_size=6),
    st.lists(order_line, max_size=6),
)
def test_resolve_is_deterministic_and_leaves_its_input_alone(seed, mode, turns, red, blue):
    state = list(play(new_state(seed, mode), seed, turns))[-1]
    orders = {
        "RED": ruleset.parse_orders(list(enumerate(red, 1)))[0],
        "BLUE": ruleset.parse_orders(list(enumerate(blue, 1)))[0],
    }
    for seat, listed in orders.items():
        ruleset.check_orders(state, seat, listed)
    before, kept = canonical_json(state), copy.deepcopy(state)
    first = ruleset.resolve(state, orders, TurnSeeds(seed, 9))
    assert canonical_json(state) == before and state == kept
    second = ruleset.resolve(copy.deepcopy(state), orders, TurnSeeds(seed, 9))
    assert state_hash(first.state) == state_hash(second.state)
    assert [e.to_json() for e in first.events] == [e.to_json() for e in second.events]
    assert all(isinstance(e.data.get("text"), str) and e.data["text"] for e in first.events)
    assert cards_in_play(first.state) == cards_in_play(state)


junk_arg = st.one_of(
    st.sampled_from(WORDS),
    st.integers(-5, 300),
    st.text(max_size=5),
    st.none(),
    st.booleans(),
    st.dictionaries(st.sampled_from(["wood", "ore", "x", 3]), st.integers(-2, 3)),
)
junk_order = st.builds(
    lambda verb, args, line: Order(verb, tuple(args), line),
    st.sampled_from(VERBS),
    st.lists(junk_arg, max_size=4),
    st.integers(0, 9),
)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 2**32),
    st.sampled_from(["basic", "wonders"]),
    st.integers(0, 3),
    st.lists(junk_order, max_size=5),
    st.one_of(st.lists(junk_order, max_size=3), st.none(), st.integers()),
)
def test_resolve_and_check_never_raise_on_any_order_objects(seed, mode, turns, red, blue):
    state = list(play(new_state(seed, mode), seed, turns))[-1]
    ruleset.check_orders(state, "RED", red)
    result = ruleset.resolve(state, {"RED": red, "BLUE": blue}, TurnSeeds(seed, 7))
    assert cards_in_play(result.state) == cards_in_play(state)
    assert all(n >= 0 for s in result.state["seats"].values() for n in s["hand"].values())


@pytest.mark.parametrize("mode", ["basic", "wonders"])
def test_whole_games_keep_every_card_and_no_hand_goes_negative(mode):
    for seed in range(3):
        for state in play(new_state(seed, mode), seed, 200):
            assert cards_in_play(state) == BANK
            assert all(n >= 0 for s in state["seats"].values() for n in s["hand"].values())
            assert all(n >= 0 for n in state["bank"].values())
        assert ruleset.is_over(state) is not None


@pytest.mark.parametrize("mode", ["basic", "wonders"])
def test_the_same_seed_gives_the_same_game(mode):
    first = [state_hash(s) for s in play(new_state(11, mode), 11, 200)]
    second = [state_hash(s) for s in play(new_state(11, mode), 11, 200)]
    assert first == second and len(first) > 10
    other = [state_hash(s) for s in play(new_state(12, mode), 12, 200)]
    assert other != first


@pytest.mark.parametrize("scenario", ["island", "greater-island", "frontier"])
def test_dealt_boards_are_fair_and_differ_by_seed(scenario):
    boards = set()
    for seed in range(40):
        state = new_state(
            seed,
            scenario=scenario,
            seats=ruleset.seat_limits(ruleset.load_scenario(ruleset.scenario_text(scenario), scenario))[0],
        )
        geo = geometry(tuple(tuple(s) for s in state["board"]["slots"]))
        tiles = state["board"]["tiles"]
        kinds = [tiles[c]["kind"] for c in geo.tiles]
        numbers = [tiles[c]["number"] for c in geo.tiles if tiles[c]["kind"] != "desert"]
        assert red_neighbours(geo, kinds, numbers) == []
        boards.add(canonical_json(state["board"]))
    assert len(boards) == 40


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(["basic", "wonders"]), st.integers(0, 12))
def test_no_view_holds_what_only_another_seat_knows(seed, mode, turns):
    state = list(play(new_state(seed, mode), seed, turns))[-1]
    for secret in state["seating"]:
        variant = ruleset.hidden_variant(state, secret, Random(seed))
        for seat in state["seating"]:
            if seat != secret:
                assert ruleset.view(variant, seat) == ruleset.view(state, seat)
                assert ruleset.order_form(variant, seat) == ruleset.order_form(state, seat)
        assert ruleset.scores(variant) == ruleset.scores(state)


def test_the_hidden_variant_changes_the_secrets():
    # The property above means something only if a variant really differs where it matters.
    state = new_state(5)
    state["seats"]["RED"]["hand"].update(wood=3, ore=2)
    state["seats"]["RED"]["cards"] = [{"card": "warrior", "round": 1, "bought": True}] * 3
    variants = [ruleset.hidden_variant(state, "RED", Random(n)) for n in range(5)]
    assert any(v["seats"]["RED"]["hand"] != state["seats"]["RED"]["hand"] for v in variants)
    assert any(v["seats"]["RED"]["cards"] != state["seats"]["RED"]["cards"] for v in variants)
    assert all(sum(v["seats"]["RED"]["hand"].values()) == 5 for v in variants)
    assert ruleset.view(variants[0], "RED") != ruleset.view(state, "RED") or ruleset.view(
        variants[1], "RED"
    ) != ruleset.view(state, "RED")
