"""Conqueror! orders: the parser's and the checker's messages, word for word."""

from __future__ import annotations

import pytest
from gm_games.conqueror import ruleset

from gm.core.model import Order, Problem, SeatInfo
from gm.core.ruleset import TurnSeeds


def vale(*codes: str) -> dict:
    scenario = ruleset.load_scenario(ruleset.scenario_text("vale"), "vale")
    seats = codes or ("AR", "BE")
    return ruleset.new_game(scenario, [SeatInfo(c, f"Player {c}") for c in seats], TurnSeeds(1, 0))


def parse(*lines: str):
    return ruleset.parse_orders(list(enumerate(lines, 1)))


def messages(problems: list[Problem]) -> list[tuple[int, str]]:
    return [(p.line, p.message) for p in problems]


def check(state: dict, *lines: str, seat: str = "AR") -> list[tuple[int, str]]:
    orders, problems = parse(*lines)
    assert problems == []
    return messages(ruleset.check_orders(state, seat, orders))


def test_parse_reads_every_verb_in_any_case():
    orders, problems = parse(
        "move ard hol 3",
        "Attack ARD fen all",
        "produce ard soldier",
        "BUILD ard Diplomats mid",
        "buy ARD",
        "BUY ard 2",
        "produce hol levy",
    )
    assert problems == []
    assert [(o.verb, o.args, o.line) for o in orders] == [
        ("MOVE", ("ARD", "HOL", 3), 1),
        ("ATTACK", ("ARD", "FEN", "ALL"), 2),
        ("PRODUCE", ("ARD", "SOLDIERS"), 3),
        ("PRODUCE", ("ARD", "DIPLOMAT", "MID"), 4),
        ("BUY", ("ARD", 1), 5),
        ("BUY", ("ARD", 2), 6),
        ("PRODUCE", ("HOL", "TAXES"), 7),
    ]
    assert orders[3].text == "BUILD ard Diplomats mid"


@pytest.mark.parametrize(
    "line, message",
    [
        ("FLY ARD HOL 3", "FLY is not an order; the orders are MOVE, ATTACK, PRODUCE and BUY"),
        ("MOVE ARD HOL", "MOVE needs a province to leave, one to enter and a number or ALL: MOVE <from> <to> <n|ALL>"),
        ("ATTACK ARD 3 HOL", "3 is not a province code; codes are three letters, like WES"),
        ("MOVE ARD HOL three", "three is not a number; write a whole number such as 3"),
        ("MOVE ARD HOL 0", "the number must be at least 1"),
        ("MOVE ARD HOL 1234567", "1234567 is not a number; write a whole number such as 3"),
        ("PRODUCE ARD", "PRODUCE needs a province and what it makes: PRODUCE <province> <item> [<diplomat's target>]"),
        (
            "PRODUCE ARD GOLD",
            "GOLD is not something a province makes; choose TAXES, SOLDIERS, DIPLOMAT, FORT, "
            "KEEP, CASTLE, FARMS, DEVELOP or ADVANCE",
        ),
        ("PRODUCE ARD FORT MID", "only a DIPLOMAT takes a target province: PRODUCE ARD FORT"),
        ("BUY", "BUY needs a province and, if more than one, how many: BUY <province> [<n>]"),
        ("BUY ARD -2", "-2 is not a number; write a whole number such as 3"),
        ("MOVE ARDENNES HOL 1", "ARDENNES is not a province code; codes are three letters, like WES"),
    ],
)
def test_parse_problems(line, message):
    orders, problems = parse(line)
    assert (orders, messages(problems)) == ([], [(1, message)])


def test_a_valid_turn_passes_the_check():
    state = vale()
    assert check(state, "ATTACK ARD HOL 3", "ATTACK ARD FEN 5", "PRODUCE ARD DIPLOMAT", "BUY ARD 1") == []


def test_armies_leaving_a_province_are_counted_across_orders():
    state = vale()
    assert check(state, "ATTACK ARD HOL 5", "ATTACK ARD FEN 4") == [
        (2, "ARD has 3 armies free to move; you cannot move 4")
    ]
    assert check(state, "ATTACK ARD HOL ALL", "ATTACK ARD FEN 1") == [
        (2, "ARD has no armies left that can move this turn")
    ]


def test_only_five_move_or_attack_orders_but_any_number_of_production_orders():
    state = vale()
    state["provinces"]["HOL"].update(owner="AR")
    lines = ["MOVE ARD HOL 1"] * 7 + ["PRODUCE ARD FARMS", "PRODUCE HOL FARMS"]
    assert check(state, *lines) == [
        (6, "only 5 move or attack orders a turn: line 6 is one too many"),
        (7, "only 5 move or attack orders a turn: line 7 is one too many"),
    ]


def test_production_and_buying_problems():
    state = vale()
    state["seats"]["AR"]["gold"] = 8
    assert check(state, "PRODUCE ARD SOLDIERS", "PRODUCE ARD FARMS", "BUY ARD 2", "BUY ARD 1", "BUY MID 1") == [
        (2, "a second PRODUCE for ARD: a province makes one thing at a time"),
        (3, "you have 8 gold; buying 2 x SOLDIERS in ARD (developed culture) costs 15"),
        (5, "MID is not yours (it is held by the local leaders)"),
    ]
    assert check(state, "PRODUCE ARD TAXES", "BUY ARD") == [(2, "ARD levies taxes; taxes cannot be rush-bought")]
    assert check(state, "PRODUCE ARD DEVELOP") == [
        (1, "ARD cannot develop its culture: its culture is already developed")
    ]
    assert check(state, "PRODUCE ARD KEEP", "BUY ARD 2") == [(2, "ARD can build a keep only once; buy 1")]
    assert check(state, "PRODUCE ARD SOLDIERS", "BUY ARD 1", "BUY ARD 1") == [
        (3, "a second BUY for ARD: buy more units in one line, BUY ARD <n>")
    ]


def test_buys_share_one_treasury_in_the_check_as_in_the_turn():
    """Rush-buys are paid in the order written (D-CQ-4): the check counts the gold the first takes,
    so it refuses the second as the turn would fail it, never an acknowledged buy left unpaid."""
    state = vale()
    state["provinces"]["HOL"].update(owner="AR")
    state["seats"]["AR"]["gold"] = 20
    lines = ("PRODUCE ARD SOLDIERS", "BUY ARD 2", "PRODUCE HOL SOLDIERS", "BUY HOL 1")
    assert check(state, *lines) == [(4, "you have 5 gold; buying 1 x SOLDIERS in HOL (primitive culture) costs 10")]
    assert check(state, *lines[2:]) == []  # alone, the same buy is paid
    result = ruleset.resolve(state, {"AR": parse(*lines)[0], "BE": []}, TurnSeeds(1, 1))
    assert [e.data["order"] for e in result.events if e.kind == "order_failed"] == ["BUY HOL 1"]


def test_buying_continues_the_labour_so_far_only_for_the_same_item():
    state = vale()
    state["seats"]["AR"]["gold"] = 3
    state["provinces"]["ARD"].update(item="SOLDIERS", progress=3)
    assert check(state, "BUY ARD") == []  # 2 labour missing x 1.5 = 3 gold
    assert check(state, "PRODUCE ARD DIPLOMAT", "BUY ARD") == [
        (2, "you have 3 gold; buying 1 x DIPLOMAT in ARD (developed culture) costs 8")
    ]


def test_orders_from_nobody_and_after_the_end():
    state = vale()
    assert messages(ruleset.check_orders(state, "ZZ", [])) == [(0, "ZZ has no seat in this game")]
    state["phase"] = "over"
    orders, _ = parse("BUY ARD")
    assert messages(ruleset.check_orders(state, "AR", orders)) == [(1, "the game is over; no orders are needed")]
    state["phase"] = "play"
    state["seats"]["AR"]["alive"] = False
    assert messages(ruleset.check_orders(state, "AR", orders)) == [
        (1, "your nation has lost every province; it gives no more orders")
    ]


def test_resolve_reports_unreadable_orders_privately_and_goes_on():
    state = vale()
    junk = [Order("MOVE", ("ARD",), 1), "not an order", Order("PRODUCE", ("ARD", "FARMS"), 2)]
    result = ruleset.resolve(state, {"AR": junk, "BE": None}, TurnSeeds(1, 1))
    failed = [e for e in result.events if e.kind == "order_failed"]
    assert [e.data["reason"] for e in failed] == ["it could not be read"] * 2
    assert all(e.seats == ("AR",) for e in failed)
    assert result.state["provinces"]["ARD"]["item"] == "FARMS"
