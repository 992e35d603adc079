"""Order lines to check checks with: a corpus of players' mistakes, and every order of a ruleset's
conformance cases (tests/web/test_kit_check.py, tests/games/test_order_grammar.py)."""

from __future__ import annotations

import tomllib

from gm.core.ruleset import Ruleset
from gm.rulesets import case_files

# Mistakes players make, each a line of orders (every ruleset gets them all: a word that is
# no order there is a finding too).
MISTAKES = [
    "FROB X",
    "CLAM ENG",
    "MOVE",
    "MOVE ENG",
    "MOVE ENG FRA ALL EXTRA WORDS",
    "MOVE EGN FRA 3",
    "MOVE ENG FRA three",
    "CLAIM ENG EGN XYZ",
    "PLACE BEL 0",
    "PLACE BEL -3",
    "place bel 3",
    "1 MOVE BAR BAL 3",
    "1. ATACK BAR BAL 3",
    "17 GROW BAR",
    "GROW BAR X",
    "FORTIFI BAR",
    "GIFT - ZZ 3",
    "GIFT - FR AB-2",
    "MOVE BAR - 3",
    "RAZE BAR - ALL",
    "LEVY BAR",
    "ARMY - - AB-x",
    "ROAD 5-9",
    "SETLE 5",
    "PLAY MONOPOLLY wool",
    "DEFEN G1 ALL",
    "ATTACK ABC DEF 2, 3",
    "X" * 60,
    "MOVE ENG FRA 9999999",
    "PASS",
    "PASS now",
    "REVOLT",
    "RECRUIT ENG 2",
    # Minecraft EMPIRES': blocks off the world, a pair missing a part, typos, brackets, spaces.
    "CITY 9999,9999",
    "MOVE G1 3 4000, 12",
    "CITY 12,",
    "LAND 12, 40 ,7",
    "CITY (12, 40)",
    "CAPITL 12,40",
    "MOVE G1 3 12 40",
    "MOVE G1 ALL RE2 , 5",
    "TRAIN G1 2 RE2 RE3",
    "ATTACK G1 G2 3",
    "DEFEND G1 2 RETREAT Q",
    "DEFEND ALL ALL RETREAT 12,40 N",
    "BORDERS RE NEVER",
    "ACCEPT WAR RE",
    "PAY RE 0",
    "PAY RE 1000000",
    "PEACE RE CEDE 12",
    "RAIL RE1 RE2 12,4 X",
    "DESTROY all",
    "LEAVE NOW",
]


def case_lines(ruleset: Ruleset) -> list[str]:
    """Every order line of the ruleset's conformance cases, every seat's."""
    lines = []
    for case in case_files(ruleset):
        orders = tomllib.loads(case.read_text(encoding="utf-8")).get("orders", {})
        lines += [str(line) for seat_lines in orders.values() for line in seat_lines]
    return lines
