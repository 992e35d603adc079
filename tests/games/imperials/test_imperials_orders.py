"""Imperials orders: what the parser makes of each kind of line, the problems a player reads, and
the prefilled order form (short lines that parse and pass the check as they stand)."""

from __future__ import annotations

import pytest
from gm_games.imperials import ruleset

from gm.core.model import SeatInfo
from gm.core.ruleset import TurnSeeds


def parse(line: str):
    orders, problems = ruleset.parse_orders([(3, line)])
    return (orders[0].verb, orders[0].args) if orders else problems[0].message


@pytest.mark.parametrize(
    "line, parsed",
    [
        ("settle 19 24-19", ("SETTLE", (19, "19-24"))),
        ("SETTLE 19", ("SETTLE", (19, None))),
        ("road 13-18", ("ROAD", ("13-18",))),
        ("VILLAGE #24", ("VILLAGE", (24,))),
        ("buy", ("BUY", ())),
        ("PLAY knight h blue", ("PLAY", ("warrior", "H", "BLUE"))),
        ("PLAY road-building 1-4 4-8", ("PLAY", ("roads", "1-4", "4-8"))),
        ("PLAY YearOfPlenty grain Stone", ("PLAY", ("plenty", "wheat", "ore"))),
        ("MARKET lumber for clay", ("MARKET", ("wood", "brick"))),
        ("OFFER all 2 wood, 1 brick FOR ore", ("OFFER", ("ALL", {"wood": 2, "brick": 1}, {"ore": 1}))),
        ("OFFER Blue wool wool FOR 1 wheat", ("OFFER", ("BLUE", {"wool": 2}, {"wheat": 1}))),
        ("IMPROVE yellow 13", ("IMPROVE", ("trade", 13))),
        ("CHASE 24", ("CHASE", (24, None, None))),
        ("MOVE 18 30", ("MOVE", (18, 30))),
        ("ACCEPT #3 4", ("ACCEPT", (3, 4))),
        ("DISCARD 2 wool ore", ("DISCARD", ("wool", "wool", "ore"))),
        ("ROBBER e", ("ROBBER", ("E", None))),
        ("GOLD ore wheat", ("GOLD", ("ore", "wheat"))),
        ("DRAGON green", ("DRAGON", ("science",))),
        ("DROP bishop smith", ("DROP", ("bishop", "smith"))),
    ],
)
def test_lines_become_orders(line, parsed):
    assert parse(line) == parsed


@pytest.mark.parametrize(
    "line, message",
    [
        (
            "FLY 12",
            "FLY is not an order; orders are SETTLE, ROAD, VILLAGE, TOWN, BUY, PLAY, MARKET, OFFER, "
            "IMPROVE, FENCE, WARRIOR, ACTIVATE, UPGRADE, MOVE, CHASE, and the answers read before or "
            "outside your turn ACCEPT, WITHDRAW, CHOOSE, DISCARD, ROBBER, GOLD, DEMOTE, DRAGON, DROP",
        ),
        ("ROAD 13", "13 is not an edge: name it by the vertices at its ends, like 12-13"),
        ("ROAD 13-13", "13-13 is not an edge: name it by the vertices at its ends, like 12-13"),
        ("VILLAGE twelve", "twelve is not a vertex: vertices are the numbers on the map, like 12"),
        ("VILLAGE", "VILLAGE is written VILLAGE <vertex>"),
        ("BUY 2", "BUY takes nothing after it"),
        ("PLAY", "PLAY needs a card: PLAY <card> ..."),
        ("PLAY joker", "joker is not an action card"),
        ("PLAY PLENTY wood", "PLAY PLENTY is written PLAY PLENTY <resource> <resource>"),
        ("PLAY MONOPOLY paper", "paper is not a card here; write one of wood, brick, wool, wheat, ore"),
        (
            "MARKET wood",
            "MARKET needs the card you give and the card you get: MARKET <card you give> FOR <card you get>",
        ),
        (
            "MARKET gold FOR ore",
            "gold is not a card here; write one of wood, brick, wool, wheat, ore, paper, cloth, coin",
        ),
        (
            "OFFER ALL 1 wood",
            "OFFER needs who, what you give and what you want: OFFER <seat|ALL> <n> <card> ... FOR <n> <card> ...",
        ),
        ("OFFER ALL 0 wood FOR ore", "the number of cards must be at least 1 in what you give"),
        ("IMPROVE art", "art is not an improvement; write science, trade or military"),
        ("ROBBER 12", "12 is not a tile: tiles are the letters on the map, like H"),
        ("ACCEPT three", "three is not an offer: offers are numbered in the report, like #3"),
        ("CHOOSE 3", "CHOOSE names your offer and whom you trade with, first choice first: CHOOSE <offer> <seat> ..."),
        ("CHOOSE 3 B!UE", "B!UE is not a seat: seats are colour codes, like BLUE"),
    ],
)
def test_bad_lines_say_what_is_wrong(line, message):
    assert parse(line) == message


def game(mode: str, seed: int = 3) -> dict:
    scenario = ruleset.load_scenario(ruleset.scenario_text("island"), "island")
    scenario = {**scenario, "options": {**scenario["options"], "mode": mode}}
    codes = ruleset.seat_codes(scenario)
    return ruleset.new_game(scenario, [SeatInfo(c, c) for c in codes], TurnSeeds(seed, 0))


@pytest.mark.parametrize("mode", ["basic", "wonders"])
def test_the_order_form_is_short_parses_and_passes_the_check(mode):
    state = game(mode)
    for turn in range(1, 8):
        for seat in state["seating"]:
            lines = ruleset.order_form(state, seat)
            assert lines and all(len(line) <= 84 for line in lines)
            body = [(n, line) for n, line in enumerate(lines, 1) if not line.startswith("#")]
            orders, problems = ruleset.parse_orders(body)
            assert problems == [] and ruleset.check_orders(state, seat, orders) == []
        seeds = TurnSeeds(3, turn)
        robots = {s: ruleset.robot_orders(state, s, seeds.rng(s)) for s in state["seating"]}
        state = ruleset.resolve(state, robots, seeds).state
    # The robots' standing answers come back prefilled in the form.
    form = ruleset.order_form(state, "RED")
    assert any(line.startswith("DISCARD ") for line in form) and any(line.startswith("GOLD ") for line in form)


def test_basic_games_refuse_the_orders_of_wonders_and_warriors():
    state = game("basic")
    orders, _ = ruleset.parse_orders([(1, "WARRIOR 12"), (2, "IMPROVE science")])
    assert [p.message for p in ruleset.check_orders(state, "RED", orders)] == [
        "WARRIOR is an order of Wonders & Warriors; this game plays the Basic rules",
        "IMPROVE is an order of Wonders & Warriors; this game plays the Basic rules",
    ]
