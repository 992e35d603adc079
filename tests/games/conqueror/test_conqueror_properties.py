"""Conqueror! properties (Hypothesis): the parser never raises, resolution is deterministic and
pure, it never raises on junk orders, and influence always sums to 100; gains counted together
(diplomats, cultural spread) are whole, never below 0, independent of who is counted first, and
a lone one is `gain`'s."""

from __future__ import annotations

import copy

from gm_games.conqueror import ruleset
from gm_games.conqueror.economy import gain, share_gains
from hypothesis import assume, given, settings, strategies as st

from gm.core.model import Order, SeatInfo
from gm.core.ruleset import ScenarioError, TurnSeeds
from gm.core.statehash import canonical_json, state_hash

CODES = ["ARD", "BER", "FEN", "MID", "HOL", "RIV", "MOO", "XYZ"]
VERBS = ["MOVE", "ATTACK", "PRODUCE", "BUILD", "BUY", "move", "FLY"]
ITEMS = ["TAXES", "SOLDIERS", "DIPLOMAT", "FORT", "KEEP", "CASTLE", "FARMS", "DEVELOP", "ADVANCE", "GOLD"]


def vale_game(seed: int, turns: int = 0) -> dict:
    """A 3-nation Vale game after `turns` turns of robot play."""
    scenario = ruleset.load_scenario(ruleset.scenario_text("vale"), "vale")
    state = ruleset.new_game(scenario, [SeatInfo(c, c) for c in ("AR", "BE", "CA")], TurnSeeds(seed, 0))
    for turn in range(1, turns + 1):
        robots = {s: ruleset.robot_orders(state, s, TurnSeeds(seed, turn).rng(s)) for s in state["seating"]}
        state = ruleset.resolve(state, robots, TurnSeeds(seed, turn)).state
    return state


order_line = st.one_of(
    st.text(),
    st.builds(
        lambda verb, args: " ".join([verb, *args]),
        st.sampled_from(VERBS),
        st.lists(
            st.one_of(
                st.sampled_from(CODES),
                st.sampled_from(ITEMS),
                st.sampled_from(["ALL", "0", "3", "60", "-1"]),
                st.integers(0, 200).map(str),
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
@given(st.integers(0, 2**32), st.integers(0, 4), st.lists(order_line, max_size=8), st.lists(order_line, max_size=8))
def test_resolve_is_deterministic_and_leaves_its_input_alone(seed, played, ar_lines, be_lines):
    state = vale_game(seed, played)
    orders = {
        "AR": ruleset.parse_orders(list(enumerate(ar_lines, 1)))[0],
        "BE": ruleset.parse_orders(list(enumerate(be_lines, 1)))[0],
        "CA": [],
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


junk_arg = st.one_of(
    st.sampled_from(CODES + ITEMS + ["ALL"]), st.integers(-5, 300), st.text(max_size=5), st.none(), st.booleans()
)
junk_order = st.builds(
    lambda verb, args, line: Order(verb, tuple(args), line),
    st.sampled_from(VERBS + ["PRODUCE", "BUY", "ATTACK"]),
    st.lists(junk_arg, max_size=4),
    st.integers(0, 9),
)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 2**32),
    st.integers(0, 3),
    st.lists(junk_order, max_size=8),
    st.one_of(st.lists(junk_order, max_size=4), st.none(), st.integers()),
)
def test_resolve_never_raises_on_any_order_objects(seed, played, ar_orders, be_orders):
    state = vale_game(seed, played)
    result = ruleset.resolve(state, {"AR": ar_orders, "BE": be_orders}, TurnSeeds(seed, 5))
    assert all(p["armies"] >= 0 for p in result.state["provinces"].values())
    assert all(s["gold"] >= 0 for s in result.state["seats"].values())


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.lists(st.lists(order_line, max_size=6), min_size=1, max_size=6))
def test_influence_always_sums_to_100(seed, turns):
    # Robots for BE and CA, anything at all for AR, for several turns.
    state = vale_game(seed, 0)
    for turn, lines in enumerate(turns, 1):
        orders = {s: ruleset.robot_orders(state, s, TurnSeeds(seed, turn).rng(s)) for s in ("BE", "CA")}
        orders["AR"] = ruleset.parse_orders(list(enumerate(lines, 1)))[0]
        state = ruleset.resolve(state, orders, TurnSeeds(seed, turn)).state
        for province in state["provinces"].values():
            assert sum(province["influence"].values()) == 100
            assert all(0 <= v <= 100 for v in province["influence"].values())


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32))
def test_robot_orders_always_pass_the_check(seed):
    state = vale_game(seed, 0)
    for turn in range(1, 13):
        orders = {}
        for seat in state["seating"]:
            orders[seat] = ruleset.robot_orders(state, seat, TurnSeeds(seed, turn).rng(seat))
            assert ruleset.check_orders(state, seat, orders[seat]) == []
        state = ruleset.resolve(state, orders, TurnSeeds(seed, turn)).state
    assert ruleset.is_over(state)


def own_lines(state: dict, seat: str) -> list[str]:
    """Orders a nation might write from its own provinces: moves and attacks of one, half, all
    and one too many of their armies to each neighbour, under either verb; every item made and
    bought, a unit or a few (these more often: a file with several buys is a rarer draw)."""
    board = state["scenario"]["provinces"]
    lines = []
    for place in (p for p in board if state["provinces"][p["code"]]["owner"] == seat):
        code, armies = place["code"], state["provinces"][place["code"]]["armies"]
        for near in place["neighbours"]:
            for verb in ("MOVE", "ATTACK"):
                lines += [f"{verb} {code} {near} {n}" for n in ("ALL", 1, max(armies // 2, 1), armies, armies + 1)]
        lines += [f"PRODUCE {code} {item}" for item in ITEMS[:-1] for _ in range(4)]
        lines += [f"BUY {code} {n}" for n in (1, 2, 5) for _ in range(12)]
    return lines


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 11), st.data())
def test_what_the_check_accepts_the_turn_carries_out(seed, played, data):
    """The acknowledgement is a promise (D-ALL-3): a file the check accepts, played with no other
    nation's orders (nothing but the dice can then come between), has no order that fails and
    none that sends fewer armies than it names. Its own earlier lines (armies already sent, gold
    already spent, soldiers rush-bought, a production changed) are the check's to count."""
    state = vale_game(seed, played)
    seat = data.draw(st.sampled_from([s for s in state["seating"] if state["seats"][s]["alive"]]))
    state["seats"][seat]["gold"] = data.draw(st.integers(0, 60))  # a treasury a few buys share
    drawn = data.draw(st.lists(st.sampled_from(own_lines(state, seat)), min_size=1, max_size=9))
    orders: list[Order] = []
    for line in drawn:  # the file grows by each line the check still accepts after the others
        parsed = ruleset.parse_orders([(len(orders) + 1, line)])[0]
        if not ruleset.check_orders(state, seat, orders + parsed):
            orders += parsed
    assume(orders)
    alone = {s: [] for s in state["seating"]}
    result = ruleset.resolve(state, {**alone, seat: orders}, TurnSeeds(seed, played + 1))
    broken = [e.data["text"] for e in result.events if e.kind in ("order_failed", "move_short", "attack_short")]
    assert broken == []


SCENARIO_LINES = ruleset.scenario_text("vale").splitlines()
toml_value = st.sampled_from(
    ['"ARD"', "0", "-3", "true", "[]", '["XYZ"]', "{}", '"#zzzzzz"', "1.5", "[1, 2]", "99999", '"MID"']
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
        assert scenario["provinces"] and scenario["seats"]
        state = ruleset.new_game(scenario, [SeatInfo(s["code"], "P") for s in scenario["seats"][:2]], TurnSeeds(1, 0))
        ruleset.resolve(state, {}, TurnSeeds(1, 1))


PARTIES = ["AR", "BE", "CA", "neutral"]


@st.composite
def influence_and_wants(draw: st.DrawFn) -> tuple[dict[str, int], dict[str, int]]:
    cuts = sorted(draw(st.lists(st.integers(0, 100), min_size=3, max_size=3)))
    shares = [b - a for a, b in zip([0, *cuts], [*cuts, 100])]
    senders = draw(st.lists(st.sampled_from(PARTIES[:3]), min_size=1, max_size=3, unique=True))
    wants = {seat: 10 * draw(st.integers(1, 8)) for seat in senders}
    return dict(zip(PARTIES, shares)), wants


@settings(max_examples=300, deadline=None)
@given(influence_and_wants())
def test_gains_counted_together_are_whole_fair_and_a_lone_one_is_gains(drawn):
    # README choice 6: (a) a lone sender as before, (b) equal wants from equal influence end
    # equal, whoever is counted first, (c) whole points summing to 100, (d) none below 0.
    influence, wants = drawn
    together = dict(influence)
    got = share_gains(together, wants, PARTIES)
    assert sum(together.values()) == 100 and all(v >= 0 for v in together.values())
    assert all(0 <= got.get(p, 0) <= n for p, n in wants.items())
    backwards = dict(influence)
    assert share_gains(backwards, dict(reversed(wants.items())), PARTIES) == got and backwards == together
    for p in wants:
        for q in wants:
            if wants[p] == wants[q] and influence[p] == influence[q]:
                assert together[p] == together[q]
    if len(wants) == 1:
        [(seat, want)] = wants.items()
        alone = dict(influence)
        assert got.get(seat, 0) == gain(alone, seat, want, PARTIES) and alone == together
