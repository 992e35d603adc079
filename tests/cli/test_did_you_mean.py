"""'Did you mean' for order words, cards and resources, not only seats: every ruleset's parser
says it, so the GM's check, the acknowledgement, the portal and the player's own check do."""

from __future__ import annotations

import pytest

from gm.core.warnings import close_to, did_you_mean, meant_name
from gm.rulesets import get_ruleset
from gm.services import offline
from tests.render.ruleset_report import report_context


@pytest.mark.parametrize(
    ("ruleset", "line", "said"),
    [
        ("imperials", "SETLE 5 5-6", "SETLE is not an order (did you mean SETTLE?); orders are SETTLE, ROAD"),
        ("imperials", "MARKET brik FOR wool", "brik is not a card here (did you mean brick?); write one of wood"),
        ("imperials", "MARKET wool FOR wod", "wod is not a card here (did you mean wood?); write one of wood"),
        ("imperials", "PLAY MONOPOLLY wool", "MONOPOLLY is not an action card (did you mean MONOPOLY?)"),
        ("mcempires", "DEFEN G1 ALL", "DEFEN is not an order (did you mean DEFEND?); the orders are CAPITAL"),
        ("clash", "CLAM ENG", "CLAM is not an order (did you mean CLAIM?); the orders are CLAIM"),
        ("conqueror", "ATACK X Y", "ATACK is not an order (did you mean ATTACK?); the orders are MOVE"),
        ("empires", "FORTIFI 3", "FORTIFI is not an action (did you mean FORTIFY?); the actions are LEVY"),
    ],
)
def test_a_slip_gets_the_word_it_missed(ruleset, line, said):
    _, problems = get_ruleset(ruleset).parse_orders([(7, line)])
    assert [p.line for p in problems] == [7]
    assert problems[0].message.startswith(said)


def test_a_word_far_from_any_gets_no_guess():
    _, problems = get_ruleset("imperials").parse_orders([(1, "FLY 3"), (2, "PLAY joker")])
    assert [p.message for p in problems][1] == "joker is not an action card"
    assert "did you mean" not in problems[0].message
    assert did_you_mean("wood", ["wood", "brick"]) == "" and close_to("X", ["XY"]) == []


def test_the_players_own_check_says_it_too():
    context = report_context("mcempires")
    report = offline.Report(context["game"]["name"], "mcempires", context["seat"], 1, context["view"])
    text = f"GAME {report.game}\nPLAYER {report.seat}\nPASSWORD x\nDEFEN ALL ALL\nEND\n"
    checked = offline.check_offline(report, text.encode())
    assert [(p.line, p.message.split(";")[0]) for p in checked.problems] == [
        (4, "DEFEN is not an order (did you mean DEFEND?)")
    ]


def test_a_game_name_one_slip_away_is_offered():
    assert meant_name("G-1", ["g1", "g2", "harvest"]) == "did you mean 'g1'?"
    assert meant_name("harvset", ["g1", "harvest"]) == "did you mean 'harvest'?"
    assert meant_name("g1", ["g1"]) == "" and meant_name("zz", ["g1", "harvest"]) == ""


def test_the_gm_is_offered_the_game_a_command_missed(home, gm, game):
    assert gm("game", "new", "harvest", "--ruleset", "clash", home=home).code == 0
    ran = gm("game", "show", "harvset", home=home)
    assert (ran.code, ran.err) == (
        1,
        "Error: unknown game 'harvset'. Did you mean 'harvest'? ('gm game list' lists every game.)\n",
    )
    assert gm("game", "show", "zz", home=home).err == "Error: unknown game 'zz'. Games here: g1, harvest.\n"


def test_the_gms_own_check_and_submit_offer_any_game(home, gm, game, tmp_path):
    orders = tmp_path / "br.txt"
    orders.write_text(f"GAME G-1\nPLAYER BR\nPASSWORD {game['BR']}\nCLAIM ENG\nEND\n")
    said = "refused: unknown game 'G-1' (check the GAME line; did you mean 'g1'?)"
    for command in (("orders", "check"), ("submit",)):
        ran = gm(*command, orders, home=home)
        assert ran.code == 1 and said in ran.out + ran.err, (command, ran)
