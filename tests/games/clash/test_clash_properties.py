"""Clash properties (Hypothesis): the parser never raises, resolution is deterministic and pure,
and no seat ever has more than 100 troops on the board."""

from __future__ import annotations

import copy

from gm_games.clash import ruleset
from gm_games.clash.board import troops_of
from hypothesis import given, settings, strategies as st

from gm.core.model import Order, SeatInfo
from gm.core.ruleset import ScenarioError, TurnSeeds
from gm.core.statehash import canonical_json, state_hash

CODES = ["ENG", "HOL", "BEL", "PIC", "RHI", "LUX", "XYZ"]
VERBS = ["CLAIM", "PLACE", "PASS", "RECRUIT", "REVOLT", "MOVE", "move", "FLY"]


def lowlands_game(seed: int) -> dict:
    scenario = ruleset.load_scenario(ruleset.scenario_text("lowlands"), "lowlands")
    return ruleset.new_game(scenario, [SeatInfo("BR", "Ann"), SeatInfo("FR", "Bob")], TurnSeeds(seed, 0))


def in_round(seed: int, money: int = 0) -> dict:
    """A lowlands game after a robot claiming and placing turn, in round 1."""
    state = lowlands_game(seed)
    for turn in (1, 2):
        orders = {s: ruleset.robot_orders(state, s, TurnSeeds(seed, turn).rng(s)) for s in state["seating"]}
        state = ruleset.resolve(state, orders, TurnSeeds(seed, turn)).state
    for seat in state["seating"]:
        state["seats"][seat]["money"] = money
    return state


# Order lines close enough to the grammar to reach the checks, and plain noise as well.
order_line = st.one_of(
    st.text(),
    st.builds(
        lambda verb, args: " ".join([verb, *args]),
        st.sampled_from(VERBS),
        st.lists(
            st.one_of(
                st.sampled_from(CODES), st.sampled_from(["ALL", "0", "3", "60", "-1"]), st.integers(0, 200).map(str)
            ),
            max_size=4,
        ),
    ),
)


@given(st.lists(st.tuples(st.integers(0, 10_000), st.text())))
def test_the_parser_never_raises_on_any_text(lines):
    orders, problems = ruleset.parse_orders(lines)
    assert len(orders) + len(problems) <= len(lines)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.lists(order_line, max_size=4), st.lists(order_line, max_size=4), st.integers(0, 3))
def test_resolve_is_deterministic_and_leaves_its_input_alone(seed, br_lines, fr_lines, setup_turns):
    state = lowlands_game(seed)
    for turn in range(1, setup_turns + 1):
        robots = {s: ruleset.robot_orders(state, s, TurnSeeds(seed, turn).rng(s)) for s in state["seating"]}
        state = ruleset.resolve(state, robots, TurnSeeds(seed, turn)).state
    orders = {
        "BR": ruleset.parse_orders(list(enumerate(br_lines, 1)))[0],
        "FR": ruleset.parse_orders(list(enumerate(fr_lines, 1)))[0],
    }
    before, kept = canonical_json(state), copy.deepcopy(state)
    first = ruleset.resolve(state, orders, TurnSeeds(seed, 9))
    assert canonical_json(state) == before and state == kept
    second = ruleset.resolve(copy.deepcopy(state), orders, TurnSeeds(seed, 9))
    assert state_hash(first.state) == state_hash(second.state)
    assert [e.to_json() for e in first.events] == [e.to_json() for e in second.events]
    assert all(isinstance(e.data.get("text"), str) and e.data["text"] for e in first.events)


@settings(max_examples=30, deadline=None)
@given(
    st.integers(0, 2**32), st.lists(st.tuples(st.sampled_from(CODES[:5]), st.integers(1, 120)), min_size=1, max_size=12)
)
def test_the_unit_limit_is_never_passed(seed, recruits):
    # Rich seats recruit any amount, checked or not; resolve must still keep each under 100.
    state = in_round(seed, money=1000)
    for turn, (code, count) in enumerate(recruits, 3):
        orders = {}
        for seat in state["seating"]:
            orders[seat] = ruleset.parse_orders([(1, f"RECRUIT {code} {count}")])[0]
        state = ruleset.resolve(state, orders, TurnSeeds(seed, turn)).state
        assert all(troops_of(state, s) <= 100 for s in state["seating"])
        if state["phase"] == "over":
            break


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32))
def test_robot_orders_always_pass_the_check_even_when_rich(seed):
    state = in_round(seed, money=500)
    for turn in range(3, 15):
        orders = {}
        for seat in state["seating"]:
            orders[seat] = ruleset.robot_orders(state, seat, TurnSeeds(seed, turn).rng(seat))
            assert ruleset.check_orders(state, seat, orders[seat]) == []
        state = ruleset.resolve(state, orders, TurnSeeds(seed, turn)).state
        assert all(troops_of(state, s) <= 100 for s in state["seating"])


junk_arg = st.one_of(
    st.sampled_from(CODES + ["ALL"]), st.integers(-5, 300), st.text(max_size=5), st.none(), st.booleans()
)
junk_order = st.builds(
    lambda verb, args, line: Order(verb, tuple(args), line),
    st.sampled_from(VERBS + ["PASS", "MOVE"]),
    st.lists(junk_arg, max_size=4),
    st.integers(0, 9),
)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 2**32),
    st.integers(0, 3),
    st.lists(junk_order, max_size=4),
    st.one_of(st.lists(junk_order, max_size=3), st.none(), st.integers()),
)
def test_resolve_never_raises_on_any_order_objects(seed, setup_turns, br_orders, fr_orders):
    state = lowlands_game(seed)
    for turn in range(1, setup_turns + 1):
        robots = {s: ruleset.robot_orders(state, s, TurnSeeds(seed, turn).rng(s)) for s in state["seating"]}
        state = ruleset.resolve(state, robots, TurnSeeds(seed, turn)).state
    ruleset.check_orders(state, "BR", br_orders)
    result = ruleset.resolve(state, {"BR": br_orders, "FR": fr_orders}, TurnSeeds(seed, 5))
    assert all(t["troops"] >= 0 for t in result.state["territories"].values())
    assert all(s["money"] >= 0 for s in result.state["seats"].values())


SCENARIO_LINES = ruleset.scenario_text("lowlands").splitlines()
toml_value = st.sampled_from(
    ['"ENG"', "0", "-3", "true", "[]", '["XYZ"]', "{}", '"#zzzzzz"', "1.5", '"fixed"', "[1, 2]", "{ ENG = 1 }"]
)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, len(SCENARIO_LINES) - 1), st.one_of(st.none(), toml_value)), max_size=4))
def test_a_damaged_scenario_gives_a_scenario_error_or_a_scenario(damage):
    lines = list(SCENARIO_LINES)
    for index, value in damage:
        key = lines[index].split("=")[0].strip()
        lines[index] = "" if value is None or "=" not in lines[index] else f"{key} = {value}"
    try:
        scenario = ruleset.load_scenario("\n".join(lines), "damaged.toml")
    except ScenarioError as err:
        assert str(err).startswith("damaged.toml: ")
    else:
        assert scenario["territories"] and scenario["seats"]
