"""Conqueror!'s conformance cases: each names its section, every worked figure has one, and a
broken case fails (tests/games/test_contract.py runs every case)."""

from __future__ import annotations

from pathlib import Path

import gm_games.conqueror
import pytest
from gm_games.conqueror import ruleset

from gm.core.cases import load_case_text, run_case

CASES = sorted((Path(gm_games.conqueror.__file__).parent / "cases").glob("*.toml"))
SECTIONS = (
    "Orders",
    "Battles",
    "Fortifications",
    "Productivity",
    "Production costs",
    "Culture",
    "Gold",
    "Influence",
    "Score",
    "Game options",
)


def read(path: Path) -> dict:
    return load_case_text(path.read_text(encoding="utf-8"), path.name)


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_case_names_its_section_and_quotes_the_rule(path):
    case = read(path)
    assert case["rule"].startswith(SECTIONS) and case["ruleset"] == "conqueror"
    assert len(case["quote"]) >= 10 and case["title"]


def test_every_worked_figure_of_the_rule_text_has_a_case():
    names = {p.stem for p in CASES}
    assert {
        "productivity-3x2",  # 3 x 2 = 6
        "productivity-resource-bonus",  # resource bonus: 10
        "battle-duel-defender",
        "battle-duel-attacker",  # 11 times in 21
        "battle-castle-eight-defenders",  # 8 defenders and a castle
        "support-cost-six",  # support cost 6
        "diplomat-five-players",  # a diplomat in a 5-player game
        "cultural-power-200-and-40",  # cultural power 200 and 40
        "influence-4-points",
        "influence-2-points",  # influence 4 and 2
        "score-table",  # the score table
        "orders-five-at-most",
        "orders-stacks-drawn",
        "move-fails-source-attacked",
        "move-fails-target-lost",
        "conquest-control",
        "rebellion",
        "control-bands",
        "winter-desertion",
        "rush-buy-surcharge",
        "farms-cost",
        "end-game-limit",
    } <= names


def test_a_broken_case_fails():
    case = read(next(p for p in CASES if p.stem == "battle-duel-defender"))
    case["dice"] = [9]  # the attacker's roll: the duel, and the province, go the other way
    failures = run_case(case, ruleset)
    assert failures[0].startswith("expect #1: expected some battle event(s) with ")
    assert failures[1:] == ["expect #2: provinces.FEN.owner: expected 'neutral', got 'AR'"]


def test_a_die_outside_the_duel_odds_is_refused():
    # A castle's siege duel rolls 0-39 (weights 10:30); a die of 40 cannot come up.
    case = read(next(p for p in CASES if p.stem == "battle-castle-eight-defenders"))
    case["dice"] = [0, 0, 0, 0, 0, 40]
    assert run_case(case, ruleset) == ["resolve raised CaseError: forced die 40 is outside the roll's range 0 to 39"]
