"""Empires properties (Hypothesis): the parser never raises, resolve is pure and deterministic
and never raises on any parsed orders, robot orders always pass the check, and a view never
holds the census schedule or another country's VP."""

from __future__ import annotations

import json
from random import Random

from gm_games.empires import orders as empires_orders, ruleset
from hypothesis import given, settings, strategies as st

from gm.core.model import Order, SeatInfo
from gm.core.ruleset import TurnSeeds
from gm.core.statehash import canonical_json, state_hash

CODES = ["ALB", "HIL", "FEN", "MTN", "BRG", "PLN", "MID", "WST", "WOD", "CRN", "LOW", "ISL", "SEA", "XYZ"]
VERBS = [
    "LEVY",
    "ARMY",
    "RESERVE",
    "GROW",
    "FORTIFY",
    "RAZE",
    "MOVE",
    "ATTACK",
    "DEFEND",
    "ENTRENCH",
    "AMBUSH",
    "RETREAT",
    "GIFT",
    "attack",
    "FLY",
]


def duchies(seed: int, codes=("AL", "BR", "CA")) -> dict:
    scenario = ruleset.load_scenario(ruleset.scenario_text("duchies"), "duchies")
    return ruleset.new_game(scenario, [SeatInfo(c, f"Player {c}") for c in codes], TurnSeeds(seed, 0))


def robot_turns(state: dict, seed: int, turns: int) -> dict:
    for turn in range(1, turns + 1):
        seeds = TurnSeeds(seed, turn)
        orders = {s: ruleset.robot_orders(state, s, seeds.rng(f"robot:{s}")) for s in state["seating"]}
        state = ruleset.resolve(state, orders, seeds).state
    return state


field = st.one_of(
    st.sampled_from(CODES),
    st.sampled_from(["-", "ALL", "AB-1", "AB-0", "0", "3", "99", "AL", "BR", "ZZ"]),
    st.integers(0, 200).map(str),
)
order_line = st.one_of(
    st.text(max_size=40),
    st.builds(
        lambda n, verb, args: " ".join([n, verb, *args]),
        st.sampled_from(["", "1", "2.", "16", "17", "0"]),
        st.sampled_from(VERBS),
        st.lists(field, max_size=4),
    ),
)


@given(st.lists(st.tuples(st.integers(0, 10_000), st.text())))
def test_the_parser_never_raises_on_any_text(lines):
    orders, problems = ruleset.parse_orders(lines)
    assert len(orders) + len(problems) <= len(lines)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**31 - 1),
    turns=st.integers(0, 6),
    lines=st.dictionaries(st.sampled_from(["AL", "BR", "CA"]), st.lists(order_line, max_size=18)),
)
def test_resolve_is_pure_deterministic_and_never_raises(seed, turns, lines):
    state = robot_turns(duchies(seed), seed, turns)
    orders = {}
    for seat, text in lines.items():
        parsed, _ = ruleset.parse_orders(list(enumerate(text, 1)))
        ruleset.check_orders(state, seat, parsed)  # never raises either
        orders[seat] = parsed
    before = canonical_json(state)
    seeds = TurnSeeds(seed, turns + 1)
    first = ruleset.resolve(state, orders, seeds)
    assert canonical_json(state) == before
    again = ruleset.resolve(json.loads(before), orders, seeds)
    assert state_hash(first.state) == state_hash(again.state)
    assert [e.to_json() for e in first.events] == [e.to_json() for e in again.events]
    json.dumps(first.state)
    for area in first.state["areas"].values():
        assert area["armies"] >= 0 and area["population"] >= 0 and 0 <= area["fort"] <= 3
    assert all(c["bps"] >= 0 and c["reserve"] >= 0 for c in first.state["countries"].values())


def test_resolve_survives_orders_that_did_not_come_from_the_parser():
    state = duchies(1)
    odd = [
        Order("ATTACK", ("x",)),
        Order("ATTACK", (1, "ALB", "HIL", -3)),
        "not an order",
        Order("MOVE", (2, "ALB", "NOPE", 1)),
        Order("GIFT", (3, None, "XX", 5)),
    ]
    result = ruleset.resolve(state, {"AL": odd}, TurnSeeds(1, 1))
    reasons = [e.data["reason"] for e in result.events if e.kind == "order_failed"]
    assert reasons[:3] == ["it is not an action resolve can read"] * 3
    assert len(reasons) == 5


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_robot_orders_always_pass_the_check(seed):
    state = duchies(seed)
    for turn in range(1, 9):
        seeds = TurnSeeds(seed, turn)
        orders = {s: ruleset.robot_orders(state, s, seeds.rng(f"robot:{s}")) for s in state["seating"]}
        for seat, mine in orders.items():
            assert ruleset.check_orders(state, seat, mine) == [], (turn, seat, mine)
            text = [o.text for o in mine]
            assert ruleset.parse_orders(list(enumerate(text, 1)))[0] == [
                Order(o.verb, o.args, i, o.text) for i, o in enumerate(mine, 1)
            ]
        state = ruleset.resolve(state, orders, seeds).state


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), turns=st.integers(1, 10))
def test_a_view_holds_no_census_schedule_and_no_other_vp(seed, turns):
    state = robot_turns(duchies(seed), seed, turns)
    for seat in state["seating"]:
        view = ruleset.view(state, seat)
        text = json.dumps(view)
        assert "census_turns" not in text and '"turns"' not in text
        assert view["you"]["vp"] == state["vp"][seat]
        assert all(
            set(line) == {"code", "nation", "name", "colour", "areas", "armies", "reserve", "capital", "eliminated"}
            for line in view["seats"]
        )
        assert all(c["seat"] == seat for c in view["you"]["vp_changes"])
        leaders = view["leader"]["codes"]
        assert view["leader"]["vp"] == max(state["vp"][s] for s in leaders) if leaders else True


def test_the_robot_gives_every_order_of_the_book():
    """Over four 12-country robot games on the europe map the robot uses all 13 actions (each
    checked), so robot games and the invariant battery reach every rule; bench/README.md
    counts them over a thousand games."""
    scenario = ruleset.load_scenario(ruleset.scenario_text("europe"), "europe")
    codes = ruleset.seat_codes(scenario)[:12]
    given = set()
    for seed in range(1, 5):
        state = ruleset.new_game(scenario, [SeatInfo(c, c) for c in codes], TurnSeeds(seed, 0))
        turn = 0
        while not ruleset.is_over(state):
            turn += 1
            orders = {c: ruleset.robot_orders(state, c, TurnSeeds(seed, turn).rng(f"robot:{c}")) for c in codes}
            assert all(ruleset.check_orders(state, c, listed) == [] for c, listed in orders.items())
            given |= {order.verb for listed in orders.values() for order in listed}
            state = ruleset.resolve(state, orders, TurnSeeds(seed, turn)).state
    assert given == set(empires_orders.VERBS)


def test_a_countrys_bps_and_vp_are_its_own_secret():
    """D-ALL-5 and 11.3: another country's BPs, reserve and VP (unless it leads) change no other seat's
    view; its own view shows them. The contract test and the battery look with this variant."""
    state = robot_turns(duchies(5), 5, 4)
    leader = max(state["seating"], key=lambda s: state["vp"][s])
    for seat in state["seating"]:
        other = ruleset.hidden_variant(state, seat, Random(1))
        assert other["countries"][seat]["bps"] > state["countries"][seat]["bps"]
        assert other["countries"][seat]["reserve"] > state["countries"][seat]["reserve"]
        assert (other["vp"][seat] < state["vp"][seat]) == (seat != leader)
        assert ruleset.view(other, seat) != ruleset.view(state, seat)
        assert all(ruleset.view(other, s) == ruleset.view(state, s) for s in state["seating"] if s != seat)


def test_a_gift_between_two_countries_is_not_seen_by_a_third():
    """D-ALL-5: a GIFT is seen by its two countries alone; nor may the others work it out. Each
    country's leftover BPs become reserve armies (ARMY ALL), so a roundup giving every country's
    reserve told a third country that Alba's had grown by 2 armies less and Brega's by 2 more."""
    state = duchies(5)
    gift, problems = ruleset.parse_orders([(1, "1 GIFT - BR 6")])
    assert not problems and state["countries"]["AL"]["bps"] >= 6
    given = ruleset.resolve(state, {"AL": gift}, TurnSeeds(5, 1))
    kept = ruleset.resolve(state, {}, TurnSeeds(5, 1))
    assert [e.seats for e in given.events if e.kind == "gift"] == [("AL", "BR")]
    assert given.state["countries"]["BR"]["reserve"] == kept.state["countries"]["BR"]["reserve"] + 2
    assert ruleset.view(given.state, "CA") == ruleset.view(kept.state, "CA")
    assert ruleset.view(given.state, "BR") != ruleset.view(kept.state, "BR")


def test_a_standing_warning_tells_nothing_of_the_other_countries_vp():
    """D-ALL-5 and 11.3: while the possible-win warning stands, a seat's view after a turn that is
    no census must not depend on the VP of a country that does not lead: which win conditions
    hold now (runaway: the next is at most half the leader) would tell it, turn by turn."""

    def carn_sees(brega: int) -> dict:
        state = duchies(3)
        state.update(turn=3, order_of_play=["AL", "BR", "CA"], vp={"AL": 10, "BR": brega, "CA": 9})
        state["census"] = {**state["census"], "turns": [4, 9]}
        state["victory"] = {**state["victory"], "warning": 2}
        after = ruleset.resolve(state, {}, TurnSeeds(3, 3)).state
        assert after["vp"]["BR"] == brega and after["victory"]["warning"] == 2  # no census, no VP change
        return ruleset.view(after, "CA")

    seen = carn_sees(9)
    assert seen["warning"] is not None and seen["warning"]["leader"] == "AL"
    assert carn_sees(4) == seen, "Carn's view tells whether Brega has half Alba's VP or less"


def test_army_all_as_decisions_names_it_is_read_by_the_parser_and_the_grammar_alike():
    """DECISIONS.md names the 17th action "ARMY ALL": written so, it is ARMY - - ALL for the GM's
    parser and for the report's grammar (the turn kit); another short form stays refused by both."""
    from gm.core.order_grammar import check_lines, from_json

    state = duchies(1)
    grammar = from_json(ruleset.order_grammar(ruleset.view(state, "AL"), "AL").to_json())
    lines = [(1, "1 ARMY ALL"), (2, "army all"), (3, "ARMY 5")]
    orders, problems = ruleset.parse_orders(lines)
    assert [o.args for o in orders] == [(1, None, None, "ALL"), (2, None, None, "ALL")]
    assert [p.line for p in problems] == [3]
    assert check_lines(grammar, lines) == problems
