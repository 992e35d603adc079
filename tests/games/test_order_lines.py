"""Orders written back in the player's words (issue 30): every ruleset's order_line gives the line
a player could send again, so an acknowledgement's "as the game understood them" is that line.
The contract suite holds the round trip over every robot and case order (tests/games/
test_contract.py); here every order word of every ruleset is met, and the issue's examples."""

from __future__ import annotations

import pytest
from gm_games.clash import orders as clash
from gm_games.conqueror import orders as conqueror
from gm_games.empires import orders as empires
from gm_games.imperials import grammar as imperials
from gm_games.mcempires import grammar as mcempires

from gm.rulesets import installed
from gm.testing import round_trip
from gm.testing.suite import order_lines

# Order words no robot game or case of the ruleset writes, as a player would write them.
MORE = {
    "conqueror": ["BUILD SOLDIERS 2"],
    "mcempires": ["BORDERS RU MINE", "PEACE RU CEDE 4,5", "DEFEND ALL ALL RETREAT N", "LEAVE"],
    "imperials": ["ROBBER A BLUE", "CHASE 24 D", "IMPROVE science 12", "PLAY WARRIOR H BLUE"],
}
# Every order word each ruleset reads (its parser's own list), to be met by the round trip.
WORDS = {
    "clash": clash.VERBS,
    "conqueror": conqueror.VERBS,
    "empires": empires.VERBS,
    "imperials": imperials.VERBS,
    "mcempires": mcempires.VERBS,
}


@pytest.mark.parametrize("name", sorted(installed()))
def test_every_order_word_is_written_back_as_itself(name):
    ruleset = installed()[name]
    lines = order_lines(ruleset) + MORE.get(name, [])
    assert round_trip.failures(ruleset, lines) == []
    met = {order.verb for order in (round_trip.read_back(ruleset, line)[0] for line in lines) if order is not None}
    assert met >= set(WORDS.get(name, ()))


@pytest.mark.parametrize(
    ("name", "sent", "echoed"),
    [
        ("imperials", "SETTLE 36", "SETTLE 36"),
        ("imperials", "settle 19 24-19", "SETTLE 19 19-24"),
        ("imperials", "OFFER ALL 1 wool FOR 1 brick", "OFFER ALL 1 wool FOR 1 brick"),
        ("imperials", "MARKET wool FOR brick", "MARKET wool FOR brick"),
        ("imperials", "ROBBER A", "ROBBER A"),
        ("empires", "DEFEND TRN", "1 DEFEND TRN - -"),
        ("empires", "2 LEVY FEN", "2 LEVY FEN - ALL"),
        ("mcempires", "MOVE G4 12,40", "MOVE G4 12,40"),
        ("clash", "move eng sco all", "MOVE ENG SCO ALL"),
    ],
)
def test_the_issues_orders_are_echoed_as_a_player_writes_them(name, sent, echoed):
    ruleset = installed()[name]
    [order], problems = ruleset.parse_orders([(1, sent)])
    assert problems == [] and ruleset.order_line(order) == echoed
