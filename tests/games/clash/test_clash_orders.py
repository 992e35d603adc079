"""Clash orders: the parser's and the checker's messages, word for word."""

from __future__ import annotations

import pytest
from gm_games.clash import ruleset
from gm_games.clash.board import place_name, place_names, places

from gm.core.cases import ScriptedSeeds
from gm.core.model import Order, Problem, SeatInfo
from gm.core.ruleset import TurnSeeds


def lowlands(**territories) -> dict:
    """A lowlands game in round 3, Britain to start, with territories set as (owner, troops[, core])."""
    scenario = ruleset.load_scenario(ruleset.scenario_text("lowlands"), "lowlands")
    state = ruleset.new_game(scenario, [SeatInfo("BR", "Ann"), SeatInfo("FR", "Bob")], TurnSeeds(1, 0))
    state.update(phase="play", round=3, start="BR")
    for code, value in territories.items():
        owner, troops, *core = value
        state["territories"][code].update(owner=owner, troops=troops, core_of=(core or [None])[0])
    return state


def parse(*lines: str):
    return ruleset.parse_orders(list(enumerate(lines, 1)))


def messages(problems: list[Problem]) -> list[tuple[int, str]]:
    return [(p.line, p.message) for p in problems]


def test_parse_reads_every_verb_in_any_case():
    orders, problems = parse(
        "claim eng, hol", "Place ENG 4", "pass", "RECRUIT eng 2", "revolt Bel", "move ENG hol all", "MOVE ENG HOL 3"
    )
    assert problems == []
    assert [(o.verb, o.args, o.line) for o in orders] == [
        ("CLAIM", ("ENG", "HOL"), 1),
        ("PLACE", ("ENG", 4), 2),
        ("PASS", (), 3),
        ("RECRUIT", ("ENG", 2), 4),
        ("REVOLT", ("BEL",), 5),
        ("MOVE", ("ENG", "HOL", "ALL"), 6),
        ("MOVE", ("ENG", "HOL", 3), 7),
    ]
    assert orders[0].text == "claim eng, hol"


def test_parse_skips_blank_lines_and_keeps_line_numbers():
    orders, problems = ruleset.parse_orders([(4, "   "), (5, "PASS"), (9, "")])
    assert (orders[0].line, problems) == (5, [])


@pytest.mark.parametrize(
    "line, message",
    [
        ("ATTACK ENG HOL 3", "ATTACK is not an order; the orders are CLAIM, PLACE, PASS, RECRUIT, REVOLT and MOVE"),
        ("PASS now", "PASS needs nothing after it: PASS"),
        ("CLAIM", "CLAIM needs at least one territory: CLAIM <territory> <territory> ..."),
        ("RECRUIT ENG", "RECRUIT needs a territory and a number: RECRUIT <territory> <n>"),
        ("REVOLT", "REVOLT needs one territory: REVOLT <territory>"),
        (
            "MOVE ENG HOL",
            "MOVE needs a territory to move from, one to move to, and a number or ALL: MOVE <from> <to> <n|ALL>",
        ),
        ("PLACE ENG 1 2", "PLACE needs a territory and a number: PLACE <territory> <n>"),
        ("MOVE ENGLAND HOL 2", "ENGLAND is not a territory code; codes are three letters, like ENG"),
        ("RECRUIT ENG three", "three is not a number of troops; write a whole number such as 3"),
        ("RECRUIT ENG -2", "-2 is not a number of troops; write a whole number such as 3"),
        ("RECRUIT ENG 9999999", "9999999 is not a number of troops; write a whole number such as 3"),
        ("MOVE ENG HOL 0", "the number of troops must be at least 1"),
        ("RECRUIT ENG ALL", "ALL is not a number of troops; write a whole number such as 3"),
        (
            "X" * 30,
            "XXXXXXXXXXXXXXXXXXXX... is not an order; the orders are CLAIM, PLACE, PASS, RECRUIT, REVOLT and MOVE",
        ),
    ],
)
def test_parse_problems(line, message):
    orders, problems = parse("PASS", line)
    assert (len(orders), messages(problems)) == (1, [(2, message)])


def check(state, seat, *lines):
    orders, problems = parse(*lines)
    assert problems == []
    return messages(ruleset.check_orders(state, seat, orders))


def test_check_accepts_a_legal_action():
    state = lowlands(ENG=("BR", 4))
    assert check(state, "BR", "MOVE ENG HOL 3") == []
    assert check(state, "BR", "MOVE ENG HOL ALL") == []
    assert check(state, "BR") == []


@pytest.mark.parametrize(
    "line, message",
    [
        ("MOVE BEL ENG 1", "BEL is not yours (it is held by France (FR))"),
        ("MOVE HOL ENG 1", "HOL is not yours (nobody holds it)"),
        ("RECRUIT LUX 1", "LUX is not yours (it is held by neutral troops)"),
        ("MOVE ENG RHI 2", "ENG and RHI are not neighbours"),
        ("MOVE ENG ENG 2", "a move needs two different territories, not ENG twice"),
        ("MOVE ENG HOL 5", "ENG has 4 troops; you cannot move 5"),
        ("MOVE ENG XYZ 1", "XYZ is not a territory on this map"),
        ("RECRUIT ENG 3", "you have $3; 3 troops cost $6"),
        ("REVOLT BEL", "BEL is not one of your core territories"),
        ("CLAIM ENG", "CLAIM is a set-up order; in a round your one action is PASS, RECRUIT, REVOLT or MOVE"),
    ],
)
def test_check_problems_in_a_round(line, message):
    state = lowlands(ENG=("BR", 4, "BR"), BEL=("FR", 2), HOL=(None, 0, "BR"))
    state["seats"]["BR"]["money"] = 3
    assert check(state, "BR", line) == [(1, message)]


@pytest.mark.parametrize(
    "line, warning",
    [
        ("REVOLT HOL", "HOL is empty now: the revolt fails unless another player moves troops in before your action"),
        (
            "REVOLT ENG",
            "ENG holds only your own troops now: the revolt fails unless another player takes it before your action",
        ),
    ],
)
def test_a_revolt_with_no_enemy_troop_yet_is_warned_of_not_refused(line, warning):
    # D-ALL-4: a player before Britain in the round may move into its core territory, and the
    # revolt then has a troop to remove; D-ALL-3: only an action illegal when it runs fails.
    state = lowlands(ENG=("BR", 4, "BR"), BEL=("FR", 2), HOL=(None, 0, "BR"))
    state["start"] = "FR"
    assert check(state, "BR", line) == []
    orders, _ = parse(line)
    assert messages(ruleset.order_warnings(state, "BR", orders)) == [(1, warning)]
    assert messages(ruleset.order_warnings(state, "FR", parse("REVOLT BEL")[0])) == []


@pytest.mark.parametrize(
    "line, message",
    [
        ("REVOLT HOL", "HOL is empty; there is no troop to remove"),
        ("REVOLT ENG", "ENG holds only your own troops; there is no troop to remove"),
    ],
)
def test_a_revolt_with_no_enemy_troop_is_refused_when_the_seat_acts_first(line, message):
    # Nobody acts before Britain this round, so nobody can move a troop in before its revolt:
    # the order cannot come good (D-ALL-3), as a recruit past the unit limit cannot.
    state = lowlands(ENG=("BR", 4, "BR"), BEL=("FR", 2), HOL=(None, 0, "BR"))
    assert state["start"] == "BR"
    assert check(state, "BR", line) == [(1, message)]
    assert messages(ruleset.order_warnings(state, "BR", parse(line)[0])) == []


def test_a_revolt_runs_on_a_troop_an_earlier_seat_moved_in():
    state = lowlands(BEL=("FR", 3, "FR"), HOL=(None, 0, "BR"), ENG=("BR", 2, "BR"))
    state["start"] = "FR"
    orders = {"FR": parse("MOVE BEL HOL 2")[0], "BR": parse("REVOLT HOL")[0]}
    assert check(state, "BR", "REVOLT HOL") == []
    result = ruleset.resolve(state, orders, ScriptedSeeds(1, 3, [1], "roll"))
    assert [e.kind for e in result.events if e.kind in ("move", "revolt", "order_failed")] == ["move", "revolt"]
    assert result.state["territories"]["HOL"] | {"core_of": "BR"} == {"owner": "FR", "troops": 1, "core_of": "BR"}


def test_check_one_action_per_round():
    state = lowlands(ENG=("BR", 4))
    assert check(state, "BR", "PASS", "MOVE ENG HOL 1", "PASS") == [
        (2, "only one action per round: line 2 is a second one"),
        (3, "only one action per round: line 3 is a second one"),
    ]


def test_check_the_unit_limit():
    state = lowlands(ENG=("BR", 60), HOL=("BR", 39))
    state["seats"]["BR"]["money"] = 10
    assert check(state, "BR", "RECRUIT ENG 1") == []
    assert check(state, "BR", "RECRUIT ENG 2") == [
        (1, "you have 99 troops on the board; 2 more would pass the limit of 100")
    ]


def test_a_recruit_past_the_limit_is_warned_of_when_a_player_before_you_may_remove_troops():
    # D-ALL-4: France acts first and may remove British troops; D-ALL-3: the recruit fails only
    # if it still passes the limit when it runs. It never can when 100 alone pass it.
    state = lowlands(ENG=("BR", 60), HOL=("BR", 39))
    state["seats"]["BR"]["money"] = 300
    state["start"] = "FR"
    assert check(state, "BR", "RECRUIT ENG 3") == []
    orders, _ = parse("RECRUIT ENG 3")
    assert messages(ruleset.order_warnings(state, "BR", orders)) == [
        (
            1,
            "you have 99 troops on the board now; 3 more would pass the limit of 100: "
            "the recruit fails unless players before you remove at least 2 of them",
        )
    ]
    assert check(state, "BR", "RECRUIT ENG 100") == [
        (1, "you have 99 troops on the board; 100 more would pass the limit of 100")
    ]
    assert messages(ruleset.order_warnings(state, "BR", parse("RECRUIT ENG 1")[0])) == []


def test_check_in_the_claiming_turn():
    state = lowlands()
    state["phase"] = "claim"
    assert check(state, "FR", "CLAIM ENG HOL", "CLAIM PIC") == []
    # "until all territories are claimed": neutral Luxembourg too (rule D-CE-1).
    assert check(state, "FR", "CLAIM ENG LUX XYZ", "PASS") == [
        (1, "XYZ is not a territory on this map"),
        (2, "PASS is not an order for this turn: this turn is for claiming territories with CLAIM"),
    ]


def test_check_in_the_placing_turn():
    state = lowlands(ENG=(None, 0, "BR"), HOL=(None, 0, "BR"), BEL=(None, 0, "FR"))
    state["phase"] = "place"
    assert check(state, "BR", "PLACE ENG 10", "PLACE HOL 10") == []
    # "anywhere on the board": France's empty core BEL too, not where other troops stand (LUX)
    assert check(state, "BR", "PLACE ENG 15", "PLACE HOL 6", "PLACE BEL 1", "PLACE LUX 1", "PASS") == [
        (2, "only 5 of your 20 units are left to place; this order places 6"),
        (4, "LUX is not yours (it is held by neutral troops)"),
        (5, "PASS is not an order for this turn: this turn is for placing units with PLACE"),
    ]


def test_a_fallback_past_the_units_is_warned_of_when_a_seat_places_before():
    # Setting up the game, 2, placed seat after seat (D-ALL-4): France places first and may take
    # England, so Britain's second 20 may still run (D-ALL-3) and is a warning; 21 never can.
    state = lowlands(ENG=(None, 0, "BR"), HOL=(None, 0, "BR"), BEL=(None, 0, "FR"))
    state.update(phase="place", start="FR")
    lines = ("PLACE ENG 20", "PLACE HOL 20", "PLACE BEL 21")
    assert check(state, "BR", *lines) == [(3, "only 20 of your 20 units are left to place; this order places 21")]
    assert messages(ruleset.order_warnings(state, "BR", parse(*lines)[0])) == [
        (
            2,
            "only 0 of your 20 units are left after the orders above; this order places 20: it fails unless "
            "a player before you places first where an order above places",
        )
    ]
    # Britain placing first: nobody can take England before it, so the 20 past its units is refused.
    state["start"] = "BR"
    assert check(state, "BR", *lines[:2]) == [(2, "only 0 of your 20 units are left to place; this order places 20")]
    assert messages(ruleset.order_warnings(state, "BR", parse(*lines[:2])[0])) == []


def test_a_check_speaks_to_the_player_in_codes_without_naming_every_territory(monkeypatch):
    """A check speaks to the player who wrote the orders, in codes; it used to name every
    territory of the map for each turn file checked (about 40 µs on Europe) and read none of
    the names. A report's voice still names them."""
    from gm_games.clash import orders

    state = lowlands(ENG=("BR", 4, "BR"), BEL=("FR", 2), HOL=(None, 0, "BR"))
    lines = ("MOVE BEL ENG 1",), ("REVOLT BEL",), ("MOVE ENG RHI 2",), ("PASS", "MOVE ENG HOL 1")
    before = [check(state, "BR", *each) for each in lines]
    monkeypatch.setattr(orders, "place_names", lambda state: pytest.fail("a check named every territory"))
    assert [check(state, "BR", *each) for each in lines] == before
    assert before[0] == [(1, "BEL is not yours (it is held by France (FR))")]
    monkeypatch.undo()
    assert orders.voice(state, "BR", you=False).place("BEL") == "Belgium (BEL)"


def test_check_when_the_game_is_over_and_for_strangers():
    state = lowlands()
    state["phase"] = "over"
    assert check(state, "BR", "PASS") == [(1, "the game is over; no orders are needed")]
    assert check(state, "XX") == [(0, "XX has no seat in this game")]


def test_resolve_never_raises_on_orders_the_parser_cannot_make():
    state = lowlands(ENG=("BR", 4))
    junk = [
        Order("MOVE", ("ENG",)),
        Order("RECRUIT", ("ENG", True)),
        Order("FLY", ()),
        "PASS",
        Order("MOVE", ("ENG", "HOL", -3)),
    ]
    result = ruleset.resolve(state, {"BR": junk, "FR": None}, ScriptedSeeds(3, 1, [2]))
    failed = [e for e in result.events if e.kind == "order_failed"]
    assert len(failed) == 5
    assert result.state["territories"]["ENG"]["troops"] == 4


def test_all_in_a_territory_place_is_a_code_not_an_amount():
    state = lowlands(ENG=("BR", 4))
    assert check(state, "BR", "MOVE ALL ENG 1") == [(1, "ALL is not a territory on this map")]
    orders, _ = parse("MOVE ALL ENG 1")
    result = ruleset.resolve(state, {"BR": orders}, ScriptedSeeds(3, 1, [2]))
    assert [e.data["reason"] for e in result.events if e.kind == "order_failed"] == [
        "ALL is not a territory on this map"
    ]


def test_every_territory_is_named_at_once_as_one_by_one():
    state = lowlands()
    names = place_names(state)

    assert names == {code: place_name(state, code) for code in places(state)}
    assert names["ENG"] == "England (ENG)"


def test_units_left_unplaced_are_said_to_go_where_the_spreading_puts_them():
    # README, Placing: unplaced units go over one's own core territories; when others hold every
    # one of them (here neutral Luxembourg), over the territories where no troops stand.
    state = lowlands(LUX=("neutral", 2, "BR"), ENG=(None, 0, "FR"))
    state["phase"] = "place"
    orders, _ = parse("PLACE HOL 5")
    assert messages(ruleset.order_warnings(state, "BR", orders)) == [
        (
            0,
            "you place 5 of your 20 units; the other 15 are spread one at a time over the territories where "
            "no troops stand (others hold all your core territories), in code order",
        )
    ]
    assert messages(ruleset.order_warnings(state, "FR", [])) == [
        (
            0,
            "you place 0 of your 20 units; the other 20 are spread one at a time over your core territories, in code order",
        )
    ]
    form = ruleset.order_form(state, "BR")
    assert "#   (none you can place on: others hold them all, so units you do not place are" in form
    result = ruleset.resolve(state, {"BR": orders}, ScriptedSeeds(1, 1, [], "roll"))
    [spread] = [e.data for e in result.events if e.kind == "spread" and e.data["seat"] == "BR"]
    assert "LUX" not in spread["placed"] and spread["units"] == 15
