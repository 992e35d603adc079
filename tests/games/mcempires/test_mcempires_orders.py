"""Minecraft EMPIRES turn files: every order of the grammar parses, bad lines and impossible
orders get one line-numbered sentence each, and checking changes nothing."""

from __future__ import annotations

import copy

import pytest
from gm_games.mcempires import ruleset
from gm_games.mcempires.grammar import make_order, well_formed
from gm_games.mcempires.rules import order_of_play

from gm.core.model import Order, SeatInfo
from gm.core.ruleset import TurnSeeds

GRAMMAR = {
    "CAPITAL 5,6": ("CAPITAL", ("5,6",)),
    "city 9, 7": ("CITY", ("9,7",)),
    "LAND 5,1 (9,3)": ("LAND", ("5,1", "9,3")),
    "BASE re1": ("BASE", ("RE1",)),
    "TREASURY 3,2": ("TREASURY", ("3,2",)),
    "RAIL RE1 RE2 6,4 7,5": ("RAIL", ("RE1", "RE2", "6,4", "7,5")),
    "MOVE G1 12,6": ("MOVE", ("G1", "ALL", "12,6")),
    "MOVE G12 3 5,5 BL1": ("MOVE", ("G12", 3, "5,5", "BL1")),
    "TRAIN G4 2 RE3": ("TRAIN", ("G4", 2, "RE3")),
    "ATTACK G1 G9": ("ATTACK", ("G1", "ALL", "G9")),
    "ATTACK G1 4 10,6": ("ATTACK", ("G1", 4, "10,6")),
    "DEFEND ALL ALL": ("DEFEND", ("ALL", "ALL", "")),
    "DEFEND G3 2 RETREAT n": ("DEFEND", ("G3", 2, "N")),
    "DEFEND G3 0 9,5": ("DEFEND", ("G3", 0, "9,5")),
    "DEFEND G3 2": ("DEFEND", ("G3", 2, "")),
    "DESTROY ALL": ("DESTROY", ("ALL",)),
    "DECLARE bl": ("DECLARE", ("BL",)),
    "PEACE BL CEDE BL2 RE4": ("PEACE", ("BL", "BL2", "RE4")),
    "BORDERS YE both": ("BORDERS", ("YE", "BOTH")),
    "ALLY YE": ("ALLY", ("YE",)),
    "LEAVE": ("LEAVE", ()),
    "ACCEPT peace RE": ("ACCEPT", ("PEACE", "RE")),
    "PAY bl 25": ("PAY", ("BL", 25)),
    "PAY YE 999999": ("PAY", ("YE", 999999)),
}


@pytest.mark.parametrize("line", GRAMMAR)
def test_every_order_parses_and_rebuilds(line):
    orders, problems = ruleset.parse_orders([(4, line)])
    assert problems == []
    [order] = orders
    assert (order.verb, order.args, order.line) == (*GRAMMAR[line], 4)
    assert well_formed(order) and well_formed(make_order(order.verb, *order.args))


@pytest.mark.parametrize(
    "line, message",
    [
        (
            "BUILD CITY 3,4",
            "BUILD is not an order; the orders are CAPITAL, CITY, LAND, BASE, "
            "TRANSPORT, NAVAL, TREASURY, RAIL, MOVE, TRAIN, ATTACK, DEFEND, DESTROY, "
            "DECLARE, PEACE, BORDERS, ALLY, LEAVE, ACCEPT and PAY",
        ),
        ("PAY BL 0", "0 is not an amount of E$ (1 to 999999): write PAY <empire> <E$>"),
        ("PAY BL 1000000", "1000000 is not an amount of E$ (1 to 999999): write PAY <empire> <E$>"),
        ("PAY 20 BL", "20 is not an empire's code (like RE): write PAY <empire> <E$>"),
        ("PAY BL", "name the empire and the E$ to pay it: write PAY <empire> <E$>"),
        ("CITY 3", "3 is not a block x,y: write CITY x,y"),
        ("MOVE 5 3,4", "5 is not a group (like G12): write MOVE <group> [n] <x,y or city> [x,y ...]"),
        ("MOVE G1 7 3,4", "7 troops: a group has 1 to 6: write MOVE <group> [n] <x,y or city> [x,y ...]"),
        ("MOVE G1 3", "say where to: write MOVE <group> [n] <x,y or city> [x,y ...]"),
        (
            "DEFEND G1 0",
            "with no troop fighting all retreat: give 1 to 6 or ALL, or add RETREAT and N, E, S, W or a "
            "block: write DEFEND <group or ALL> <n or ALL> [RETREAT <N, E, S, W or x,y>]",
        ),
        (
            "BORDERS BL OPEN",
            "name the empire and MINE (it may cross yours), THEIRS (you may cross its) "
            "or BOTH: write BORDERS <empire> MINE|THEIRS|BOTH",
        ),
        (
            "ACCEPT WAR BL",
            "say what you accept (PEACE, BORDERS or ALLY) and from whom: write ACCEPT PEACE|BORDERS|ALLY <empire>",
        ),
    ],
)
def test_a_bad_line_says_what_to_write(line, message):
    orders, problems = ruleset.parse_orders([(7, line)])
    assert orders == [] and [(p.line, p.message) for p in problems] == [(7, message)]


def test_the_well_formed_guard_refuses_junk():
    assert not well_formed(Order("MOVE", ("G1", 9, "3,4")))
    assert not well_formed(Order("CITY", (True,)))
    assert not well_formed(Order("FLY", ()))
    assert not well_formed("MOVE G1 3,4")


def played_state(first: str = "RE") -> dict:
    """The test bed in round 31: Red's capital RE1 at 3,2 with G1 (6 troops) and 20 E$, Blue's
    capital BL1 at 16,9 with G2 (2 troops) and 11 E$; `first` plays first in the round (Red: no
    empire before it may give it E$)."""
    loaded = ruleset.load_scenario(ruleset.scenario_text("testbed"), "testbed")
    state = ruleset.new_game(loaded, [SeatInfo("RE", "Ann"), SeatInfo("BL", "Bob")], TurnSeeds(1, 0))
    state = ruleset.resolve(state, {}, TurnSeeds(1, 1)).state  # both capitals founded on their sites
    state["round"] = 31
    state["seats"]["RE"]["money"] = 19  # 20 once the treasury pays at the start of the turn
    state["groups"] = {
        "G1": {"owner": "RE", "x": 3, "y": 2, "troops": 6},
        "G2": {"owner": "BL", "x": 16, "y": 9, "troops": 2},
    }
    state["first"] = next(n for n in range(2) if order_of_play({**state, "first": n})[0] == first)
    return state


@pytest.mark.parametrize(
    "line, message",
    [
        ("MOVE G1 30,3", "30,3 is off the map (x runs 0 to 19, y 0 to 13)"),
        ("CITY 6,4", "6,4 is lake: cities cannot be founded on water"),
        ("LAND 10,12", "10,12 is ocean: bodies of water cannot be purchased"),
        ("LAND 16,8", "16,8 is claimed by Blue (BL)"),
        ("CITY 16,12", "16,12 is nobody's territory: a city can only be founded in your own territory"),
        ("MOVE G2 3,3", "G2 is not one of your groups"),
        ("TRANSPORT RE1", "transport infrastructure costs 40 E$ and you have 20 E$"),
        ("MOVE G1 4,2", "4,2 holds G3 with 1 troops; 6 more would make a group of more than 6"),
        ("RAIL RE1 RE3", "there is no city RE3 (did you mean RE1?)"),
        ("BASE RE11", "there is no city RE11 (did you mean RE1?)"),
        ("MOVE G1 BL11", "there is no city BL11 (did you mean BL1?)"),
        ("DESTROY RE11", "RE11 is not one of your cities (did you mean RE1?)"),
        ("DESTROY BL1", "BL1 is not one of your cities"),
        ("RAIL RE1 XY9", "there is no city XY9"),
        ("ATTACK G1 G2", "G1 at 3,2 is not beside G2 at 16,9; groups must be side by side to fight"),
        ("PAY BL 500", "you have 20 E$, not the 500 E$ to pay"),
        ("PAY RE 5", "RE is not another empire of this game"),
        ("PAY YE 5", "YE is not another empire of this game"),
    ],
)
def test_check_orders_finds_what_cannot_be_done(line, message):
    state = played_state()
    state["groups"]["G3"] = {"owner": "RE", "x": 4, "y": 2, "troops": 1}
    before = copy.deepcopy(state)
    orders, problems = ruleset.parse_orders([(3, "DEFEND ALL ALL"), (5, line)])
    assert problems == []
    assert [(p.line, p.message) for p in ruleset.check_orders(state, "RE", orders)] == [(5, message)]
    assert state == before


def test_a_railroad_before_round_31_is_refused():
    state = played_state()
    state["round"] = 30
    state["cities"]["RE2"] = {"owner": "RE", "x": 9, "y": 7}
    orders, _ = ruleset.parse_orders([(2, "RAIL RE1 RE2")])
    assert [(p.line, p.message) for p in ruleset.check_orders(state, "RE", orders)] == [
        (2, 'railroads can be bought from round 31 on ("After 30 rounds of the game"); this is round 30')
    ]


def test_orders_are_checked_in_the_order_written():
    """What an earlier line buys counts for a later one: the city's base, the E$ that are left
    (49, and 2 at the start of the turn: 1 from the treasury, 1 from 17 blocks of land)."""
    state = played_state()
    state["seats"]["RE"]["money"] = 49
    state["territory"][6] = "..RRRRRRRR.........."
    lines = [(1, "CITY 9,6"), (2, "BASE RE2"), (3, "BASE RE2")]
    orders, _ = ruleset.parse_orders(lines)
    assert [(p.line, p.message) for p in ruleset.check_orders(state, "RE", orders)] == [
        (3, "a second military base costs 25 E$ and you have 21 E$")
    ]


def test_e_dollars_an_earlier_empire_may_give_make_a_warning_not_a_problem():
    """Blue plays before Red this round and may PAY it (rule D-MC-14): an order short of what
    Blue holds and earns could still be carried out, so it is a warning; one short of more than
    that is still a problem (only what no empire before you can change is refused)."""
    state = played_state(first="BL")
    state["seats"]["RE"]["money"] = 49
    state["territory"][6] = "..RRRRRRRR.........."
    orders, _ = ruleset.parse_orders([(1, "CITY 9,6"), (2, "BASE RE2"), (3, "BASE RE2"), (4, "PAY BL 500")])
    assert [(p.line, p.message) for p in ruleset.check_orders(state, "RE", orders)] == [
        (4, "you have 21 E$, not the 500 E$ to pay")
    ]
    warned = [(p.line, p.message) for p in ruleset.order_warnings(state, "RE", orders)]
    assert (
        3,
        "a second military base costs 25 E$ and you have 21 E$: it fails unless an empire playing "
        "before you this round gives you the E$",
    ) in warned
    assert 4 not in [line for line, _ in warned]
    alone = played_state(first="RE")
    alone["seats"]["RE"]["money"] = 49
    alone["territory"][6] = "..RRRRRRRR.........."
    assert [p.line for p in ruleset.check_orders(alone, "RE", orders)] == [3, 4]
    assert [p.line for p in ruleset.order_warnings(alone, "RE", orders) if "empire playing before" in p.message] == []


def test_in_war_bounty_a_shortfall_after_an_earlier_empire_is_a_warning():
    """War Bounty earns E$ only in battle, some of it in others' turns (a defence's bounty, an
    ally's shared one): no sum bounds it, so any shortfall after an earlier empire is a warning."""
    state = played_state(first="BL")
    state["options"] = {**state["options"], "mode": "war-bounty"}
    orders, _ = ruleset.parse_orders([(1, "PAY BL 500")])
    assert ruleset.check_orders(state, "RE", orders) == []
    assert [p.line for p in ruleset.order_warnings(state, "RE", orders)] == [1]


def test_an_empire_out_of_the_game_gives_no_orders():
    state = played_state()
    state["seats"]["RE"]["alive"] = False
    orders, _ = ruleset.parse_orders([(2, "MOVE G1 4,2")])
    assert [(p.line, p.message) for p in ruleset.check_orders(state, "RE", orders)] == [
        (2, "your empire is out of the game and gives no more orders")
    ]


def test_the_prefilled_form_parses_and_passes_the_check():
    state = played_state()
    state["options"] = {**state["options"], "retreat": True}
    state["standing"] = {"RE": ["DEFEND G1 2 RETREAT S", "DEFEND G99 ALL", "DESTROY RE1"]}
    form = ruleset.order_form(state, "RE")
    assert all(len(line) <= 84 for line in form)
    assert "DEFEND G1 2 RETREAT S" in form and "DESTROY RE1" in form
    assert "DEFEND G99 ALL" not in form  # a group that is gone is not kept
    orders, problems = ruleset.parse_orders([(n, line) for n, line in enumerate(form, 1) if not line.startswith("#")])
    assert problems == [] and ruleset.check_orders(state, "RE", orders) == []


def test_the_form_shows_retreat_only_with_its_option():
    """RETREAT is an optional rule (rule D-MC-7): without the option the form's hint leaves it
    out and a standing order with a retreat, which the check refuses, is not kept."""
    state = played_state()
    assert state["options"]["retreat"] is False
    state["standing"] = {"RE": ["DEFEND G1 2 RETREAT S", "DEFEND G1 1"]}
    form = ruleset.order_form(state, "RE")
    assert not any("RETREAT" in line for line in form)
    assert "#   DEFEND <group or ALL> <n or ALL> (the others stand aside)" in form and "DEFEND G1 1" in form
    state["options"] = {**state["options"], "retreat": True}
    form = ruleset.order_form(state, "RE")
    assert "#   DEFEND <group or ALL> <n or ALL> [RETREAT <N, E, S, W or x,y>]" in form
    assert "DEFEND G1 2 RETREAT S" in form


def test_the_form_of_round_1_founds_the_capital_on_the_suggested_site():
    loaded = ruleset.load_scenario(ruleset.scenario_text("testbed"), "testbed")
    state = ruleset.new_game(loaded, [SeatInfo("RE", "Ann"), SeatInfo("BL", "Bob")], TurnSeeds(1, 0))
    assert ruleset.order_form(state, "RE")[-1] == "CAPITAL 3,2"


def test_a_turn_has_at_most_200_orders_and_a_move_20_waypoints():
    state = played_state()
    lines = [(n, "LAND 5,1") for n in range(1, 203)]
    orders, _ = ruleset.parse_orders(lines)
    problems = ruleset.check_orders(state, "RE", orders)
    assert [(p.line, p.message) for p in problems if p.line > 200] == [
        (n, "an empire gives at most 200 orders a round; this one is past that") for n in (201, 202)
    ]
    events = ruleset.resolve(state, {"RE": orders}, TurnSeeds(1, 31)).events
    assert [
        e.data["line"]
        for e in events
        if e.kind == "order_failed" and e.data["reason"] == "an empire gives at most 200 orders a round"
    ] == [201, 202]
    far = " ".join(["5,6"] * 22)
    _, problems = ruleset.parse_orders([(1, f"MOVE G1 {far}")])
    assert problems[0].message.startswith("at most 20 waypoints before the destination")


@pytest.mark.parametrize("until, warned", [(31, True), (32, False)])
def test_a_march_into_territory_whose_open_borders_end_this_round_is_warned(until, warned):
    """gm's choice (README, "Open borders that end"): troops left in another empire's territory
    when the agreement that let them in runs out are moved out at the end of the round, so the
    order is carried out but the march ends there; the check says so (and not when it lasts)."""
    state = played_state()
    state["options"] = {**state["options"], "borders": True}
    state["borders"] = [{"host": "BL", "guest": "RE", "until": until}]
    state["groups"]["G3"] = {"owner": "RE", "x": 14, "y": 9, "troops": 2}
    orders, _ = ruleset.parse_orders([(1, "MOVE G3 15,9")])
    assert ruleset.check_orders(state, "RE", orders) == []
    expected = (
        "G3 stands in Blue (BL)'s territory at 15,9 after your orders, and your open borders with it end "
        "with round 31: at the end of the round the group is moved out to the nearest neutral or own land"
    )
    assert [p.message for p in ruleset.order_warnings(state, "RE", orders)] == ([expected] if warned else [])


def occupied_capital(first: str) -> tuple[dict, list[Order]]:
    """Red's G1 (6 troops) holds Blue's capital BL1 (its military base ready, no garrison left)
    for a round, beside Blue's G2; Red's orders: ATTACK G1 G2."""
    state = played_state(first=first)
    state["cities"]["BL1"] = {**state["cities"]["BL1"], "occupier": "RE", "held": 1, "bases": [1]}
    state["groups"]["G1"] = {"owner": "RE", "x": 16, "y": 9, "troops": 6}
    state["groups"]["G2"] = {"owner": "BL", "x": 16, "y": 10, "troops": 2}
    state["wars"] = [{"sides": ["BL", "RE"], "since": 2, "taken": {}}]
    orders, _ = ruleset.parse_orders([(1, "ATTACK G1 G2")])
    return state, orders


def test_an_attack_by_a_group_that_must_storm_a_garrison_first_is_warned():
    """Blue plays first: BL1's base spawns a garrison beside Red's G1 in Blue's turn, G1 storms it
    as Red's turn starts (it must be beaten for the occupation to count), and Red's ATTACK fails.
    The check passes it (the dry run plays Red's turn alone) but warns; with Red first, no garrison
    comes before Red's turn and no warning is given."""
    state, orders = occupied_capital(first="BL")
    assert ruleset.check_orders(state, "RE", orders) == []
    warned = [(p.line, p.message) for p in ruleset.order_warnings(state, "RE", orders)]
    assert warned == [
        (
            1,
            "BL1's military base spawns a garrison beside G1 in Blue (BL)'s turn, before yours: G1 storms it "
            "as your turn starts and cannot attack again this round",
        )
    ]
    events = ruleset.resolve(state, {"RE": orders}, TurnSeeds(1, 31)).events
    assert [e.data["reason"] for e in events if e.kind == "order_failed"] == ["G1 has attacked already this round"]
    alone, orders = occupied_capital(first="RE")
    assert ruleset.order_warnings(alone, "RE", orders) == []
    assert [
        e for e in ruleset.resolve(alone, {"RE": orders}, TurnSeeds(1, 31)).events if e.kind == "order_failed"
    ] == []
