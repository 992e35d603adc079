"""Imperials' conformance cases: each quotes its rule, the book's statements and the D-IM
decisions are all covered, and a broken case fails (tests/games/test_contract.py runs every case)."""

from __future__ import annotations

import re
from pathlib import Path

import gm_games.imperials
import pytest
from gm_games.imperials import ruleset

from gm.core.cases import load_case_text, run_case

CASES = sorted((Path(gm_games.imperials.__file__).parent / "cases").glob("*.toml"))
SECTIONS = (
    "Basic",
    "Trade",
    "Victory Conditions",
    "Robber",
    "Action Cards",
    "Extra Victory Points",
    "Wonders & Warriors",
    "D-IM-",
    "D-ALL-",
    "gm",
)


def read(path: Path) -> dict:
    return load_case_text(path.read_text(encoding="utf-8"), path.name)


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_case_names_its_section_and_quotes_the_rule(path):
    case = read(path)
    assert case["rule"].startswith(SECTIONS), case["rule"]
    assert len(case["quote"]) >= 10 and case["title"]


def test_every_decision_and_section_has_cases():
    rules = [read(p)["rule"] for p in CASES]
    decisions = ["D-ALL-5", *(f"D-IM-{n}" for n in range(1, 14))]
    for decision in decisions:
        assert any(re.search(rf"\b{decision}\b", r) for r in rules), decision
    for section in (
        "Basic: Tiles",
        "Basic: Production",
        "Basic: Set-up",
        "Basic: Roads",
        "Basic: Villages",
        "Basic: Towns",
        "Trade",
        "Trade: the market",
        "Victory Conditions",
        "Robber",
        "Action Cards",
        "Extra Victory Points",
        "Wonders & Warriors: Commodities & Improvements",
        "Wonders & Warriors: Strategic Improvements",
        "Wonders & Warriors: Wonders",
        "Wonders & Warriors: Warriors",
        "Wonders & Warriors: Dragons",
        "Wonders & Warriors: Town Fence",
        "Wonders & Warriors: Action Cards",
    ):
        assert section in rules, section
    quotes = " ".join(read(p)["quote"] for p in CASES)
    # Every cost and limit of the book is quoted by some case.
    for words in (
        "one wood and one brick",
        "wood, brick, wool and wheat",
        "two wheat and three ore",
        "wool, wheat and ore",
        "wool and ore",
        "one wheat",
        "15 roads",
        "5 villages",
        "4 towns",
        "Upto 3 fences",
        "more than 4 action cards",
        "the event dice rolls yellow and the red dice rolls 4",
    ):
        assert words in quotes, words


def test_a_broken_case_fails():
    case = read(next(p for p in CASES if p.stem == "ww-event-die-example"))
    case["dice"] = [1, 4, 4] + case["dice"][3:]  # black instead of yellow: no card at all
    failures = run_case(case, ruleset)
    assert failures[0].startswith("expect #1: expected some card event(s) with ")
    assert any("seats.BLUE.cards.0.card" in f for f in failures)
