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
        ("MARKET 4 wood FOR 1 ore", ("MARKET", ("wood", "ore", 4))),
        ("market 2 Wool for Brick", ("MARKET", ("wool", "brick", 2))),
        ("MARKET four wood FOR one ore", ("MARKET", ("wood", "ore", 4))),
        ("OFFER ALL two wheat and three ore FOR one wool", ("OFFER", ("ALL", {"wheat": 2, "ore": 3}, {"wool": 1}))),
        ("DISCARD two ore and wool", ("DISCARD", ("ore", "ore", "wool"))),
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


def case_state(name: str, orders: list[str] | None = None):
    """The state a conformance case starts from, and Red's orders (the case's, or those given)."""
    from pathlib import Path

    from gm.core.cases import _start, load_case_text

    folder = Path(__file__).resolve().parents[3] / "games" / "imperials" / "cases"
    case = load_case_text((folder / f"{name}.toml").read_text(encoding="utf-8"), name)
    state, _ = _start(case, ruleset)
    parsed, problems = ruleset.parse_orders(list(enumerate(orders or case["orders"]["RED"], 1)))
    assert not problems
    return state, parsed


@pytest.mark.parametrize(
    "name, orders, warning",
    [
        (
            "ww-town-limit-dragon-may-burn",
            None,
            (
                2,
                "you have 4 towns on the board, the most a player may have: it fails unless the dragon "
                "burns one of your towns before your turn",
            ),
        ),
        (
            "ww-town-limit-dragon-may-burn",
            ["DEMOTE 1", "TOWN 1"],
            (2, "vertex 1 is a town already: it fails unless the dragon burns it before your turn"),
        ),
        (
            "ww-road-limit-diplomat-before",
            None,
            (
                1,
                "you have 15 roads on the board, the most a player may have: it fails unless a Diplomat "
                "removes one of your roads before your turn",
            ),
        ),
        (
            "ww-road-on-an-open-road-diplomat-before",
            None,
            (1, "edge 1-5 already has Blue's road: it fails unless a Diplomat removes the road on it before your turn"),
        ),
        (
            "robber-answer-fog-lifted-before",
            None,
            (
                1,
                "tile E is under fog; the robber cannot go there now: it counts only if a road built "
                "before your turn lifts the fog",
            ),
        ),
        (
            "ww-warrior-limit-deserter-before",
            None,
            (
                1,
                "you have 2 regular warriors on the board already: it fails unless a player before you "
                "takes or removes one of them before your turn",
            ),
        ),
    ],
)
def test_a_limit_a_player_before_may_free_is_a_warning(name, orders, warning):
    # Rule D-ALL-3: the order fails when it runs if the place is still taken; the check lets it
    # stand when the dragon or a card of a player before may free it, and warns.
    state, parsed = case_state(name, orders)
    assert ruleset.check_orders(state, "RED", parsed) == []
    found = [(p.line, p.message) for p in ruleset.order_warnings(state, "RED", parsed)]
    assert warning in found


def test_the_dragon_frees_one_place_for_a_town_not_two():
    state, parsed = case_state("ww-town-limit-dragon-may-burn", ["TOWN 53", "TOWN 1"])
    state["buildings"]["53"]["kind"] = "village"
    problems = [(p.line, p.message) for p in ruleset.check_orders(state, "RED", parsed)]
    assert problems == [(2, "vertex 1 is a town already")]


@pytest.mark.parametrize(
    "name", ["ww-town-limit-dragon-far", "ww-road-limit-first-player", "ww-warrior-limit-first-player"]
)
def test_a_limit_nobody_before_can_free_stays_a_problem_with_no_warning(name):
    state, parsed = case_state(name)
    assert len(ruleset.check_orders(state, "RED", parsed)) == 1
    assert not any("fails unless" in p.message for p in ruleset.order_warnings(state, "RED", parsed))


def test_the_form_offers_no_example_that_counts_on_another_player():
    state, _ = case_state("ww-town-limit-dragon-may-burn")
    for building in state["buildings"].values():
        building.setdefault("fence", False)
        building.setdefault("wonder", None)
    form = "\n".join(ruleset.order_form(state, "RED"))
    assert "TOWN (you have 4 towns on the board, the most a player may have)" in form


def test_a_tile_under_fog_is_a_problem_for_the_first_player_of_the_round():
    state, parsed = case_state("robber-answer-fog-lifted-before")
    state["first"] = "RED"
    assert [p.message for p in ruleset.check_orders(state, "RED", parsed)] == [
        "tile E is under fog; the robber cannot go there"
    ]


def test_a_market_number_below_the_rate_is_a_warning_not_a_problem():
    # Rule D-ALL-3: 'MARKET 2 wool FOR brick' fails when it runs if the rate is still 4; a village
    # at a port earlier in the turn may lower it, so the check lets it stand and warns.
    state, parsed = case_state(
        "market-numbers-as-the-book-writes-them", ["MARKET 2 wool FOR brick", "MARKET 4 wood FOR ore"]
    )
    assert ruleset.check_orders(state, "RED", parsed) == []
    found = [(p.line, p.message) for p in ruleset.order_warnings(state, "RED", parsed)]
    assert (
        1,
        "the market takes 4 wool for one card from you now, not 2: it fails unless a port or card before it lowers that",
    ) in found
    assert not any(line == 2 for line, _ in found)


def test_the_inventor_is_warned_of_a_number_no_inventor_moves_but_never_told_one_under_fog():
    # Wonders & Warriors (rule D-IM-10): the Inventor leaves no number, 2, 12, 6 and 8 where they
    # are, so no card before the seat's turn can move one: a warning when the file arrives (the
    # turn fails the order alone, D-ALL-3; the file stands). A tile under fog hides its number
    # from the seat (rule D-ALL-5): its 6 is left to the turn.
    state, parsed = case_state("ww-card-tile-under-fog", ["PLAY INVENTOR K B"])
    assert state["board"]["tiles"]["B"]["number"] == 12
    assert ruleset.check_orders(state, "RED", parsed) == []
    assert [p.message for p in ruleset.order_warnings(state, "RED", parsed)] == [
        "the number of tile B may not move (the Inventor leaves no number, 2, 12, 6 and 8): this order "
        "will fail when the turn runs"
    ]
    state["first"] = "BLUE"  # a road before Red's turn may lift the fog on E
    _, parsed = case_state("ww-card-tile-under-fog", ["PLAY INVENTOR E K"])
    assert state["board"]["tiles"]["E"] == {**state["board"]["tiles"]["E"], "number": 6, "fog": True}
    assert ruleset.check_orders(state, "RED", parsed) == []
    assert [p.message for p in ruleset.order_warnings(state, "RED", parsed)] == [
        "tile E is under fog; the Inventor cannot swap its number now: it counts only if a road built "
        "before your turn lifts the fog"
    ]


def test_a_smith_naming_one_warrior_twice_passes_with_a_warning():
    # The turn upgrades that warrior once and fails nothing (case ww-card-smith-same-warrior-twice),
    # so the check refuses nothing; the player reads that the second upgrade does not happen.
    state, parsed = case_state("ww-card-smith-same-warrior-twice")
    assert ruleset.check_orders(state, "RED", parsed) == []
    assert [(p.line, p.message) for p in ruleset.order_warnings(state, "RED", parsed)] == [
        (1, "the Smith upgrades two different warriors: the one at vertex 18 goes up one level, not two")
    ]


def test_activate_of_an_active_warrior_is_a_warning_when_the_dragon_may_come_first():
    # Dragons: "all warriors are deactivated after the war"; with the dragon one black roll from
    # the island and Blue rolling before Red, the warrior at 18 may be inactive by Red's turn.
    state, parsed = case_state("ww-warrior-activate-active", ["ACTIVATE 18"])
    state["dragon"] = 6
    assert ruleset.check_orders(state, "RED", parsed) == []
    assert [(p.line, p.message) for p in ruleset.order_warnings(state, "RED", parsed)] == [
        (
            1,
            "the warrior at vertex 18 is active already: it fails unless the dragon's war deactivates it before your turn",
        )
    ]


def test_activate_after_a_warlord_in_the_same_file_is_a_warning():
    # The Warlord activates every inactive warrior of the player; W&W cards are not checked as
    # held, so the check cannot know the card is played: the later ACTIVATE passes with a warning.
    state, parsed = case_state("ww-warrior-activate-active", ["PLAY WARLORD", "ACTIVATE 24", "MOVE 24 30"])
    assert ruleset.check_orders(state, "RED", parsed) == []
    assert [(p.line, p.message) for p in ruleset.order_warnings(state, "RED", parsed)] == [
        (2, "the PLAY WARLORD before it activates the warrior at vertex 24: ACTIVATE 24 fails if that card is played"),
        (
            3,
            "the warrior at vertex 24 was activated this turn; it may act next turn: this order will fail when "
            "the turn runs",
        ),
    ]


def test_what_the_turn_passes_over_to_gm_s_choice_is_a_warning_not_a_problem():
    # Robber: the victim is "one of these players", and the turn robs gm's choice when the answer
    # names the mover; IMPROVE puts a wonder on the lowest-numbered free town when the vertex it
    # names is not one. Neither order fails, so neither may cost the player the whole file.
    state, parsed = case_state("ww-improvement-needs-town", ["ROBBER D RED", "IMPROVE science 18"])
    state["buildings"]["13"] = {"owner": "RED", "kind": "town", "fence": False, "wonder": None}
    assert ruleset.check_orders(state, "RED", parsed) == []
    assert [(p.line, p.message) for p in ruleset.order_warnings(state, "RED", parsed)] == [
        (1, "you cannot name yourself: gm chooses the other player for the robber"),
        (
            2,
            "vertex 18 is not one of your towns: a wonder this improvement makes goes on your "
            "lowest-numbered town without one",
        ),
    ]


def test_an_upgrade_of_a_mighty_warrior_is_warned_of_and_the_file_stands():
    # Line 132: a mighty warrior cannot be upgraded. The turn fails the order alone (D-ALL-3), so
    # the check warns and refuses nothing: a case written from the book holds no problem for it.
    state, parsed = case_state("ww-warrior-mighty-not-upgraded")
    assert ruleset.check_orders(state, "RED", parsed) == []
    assert [p.message for p in ruleset.order_warnings(state, "RED", parsed)] == [
        "the warrior at vertex 24 is mighty; it cannot be upgraded further: this order will fail when the turn runs"
    ]
