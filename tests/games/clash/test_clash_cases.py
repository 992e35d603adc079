"""Clash's conformance cases: each names its rule-book section, the book is covered, and a broken
case fails (tests/games/test_contract.py runs every case)."""

from __future__ import annotations

import re
from pathlib import Path

import gm_games.clash
import pytest
from gm_games.clash import ruleset

from gm.core.cases import load_case_text, run_case

CASES = sorted((Path(gm_games.clash.__file__).parent / "cases").glob("*.toml"))
RULES = Path(__file__).parents[3] / "docs" / "rules"
SECTIONS = ("List of Components", "Setting up the game", "Game Summary", "Combat Rules", "End of the game", "FAQ")


def read(path: Path) -> dict:
    return load_case_text(path.read_text(encoding="utf-8"), path.name)


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_case_names_its_section_and_quotes_the_rule(path):
    case = read(path)
    assert case["rule"].startswith(SECTIONS)
    assert len(case["quote"]) >= 10 and case["title"]


def letters(text: str) -> str:
    """Only letters and digits, lower case: a quote keeps the book's words, not its markdown
    (the escaped "\\$1", the "$(4-1=3)$" of combat example 2, bullets and line breaks)."""
    return re.sub(r"[^a-z0-9]", "", text.lower())


def test_each_quote_is_words_of_the_rule_book_or_the_decisions():
    """Every part of a quote (parts are joined by "...") is the rule book's own words, or
    DECISIONS.md's where a case works out a decision: a conformance case quotes, it does not
    paraphrase."""
    texts = [(RULES / name).read_text(encoding="utf-8") for name in ("clash-of-empires.txt", "DECISIONS.md")]
    book = " ".join(letters(text) for text in texts)
    missing = [(p.stem, part) for p in CASES for part in read(p)["quote"].split("...") if letters(part) not in book]
    assert missing == []


def test_the_rule_book_is_covered():
    names = {p.stem for p in CASES}
    assert {
        "combat-example-1",
        "combat-example-2",
        "roll-six",
        "action-pass",
        "action-recruit",
        "unit-limit",
        "action-revolt",
        "move-into-empty",
        "control-no-units",
        "combat-neutral-defends",
        "failed-order-source-lost",
        "end-winner",
        "end-tie",
        "setup-claiming-draft",
        "setup-placing",
    } <= names


def test_a_broken_case_fails():
    case = read(next(p for p in CASES if p.stem == "combat-example-2"))
    case["dice"] = [6]  # a 6 means no action phase, so the attack never happens
    failures = run_case(case, ruleset)
    assert failures[0].startswith("expect #1: expected some battle event(s) with ")
    assert failures[1:] == [
        "expect #2: territories.BEL.owner: expected 'BR', got 'FR'",
        "expect #3: territories.BEL.troops: expected 3, got 1",
        "expect #4: territories.ENG.troops: expected 1, got 5",
    ]
