"""Empires' conformance cases cover chapter 11 and every D-EMP decision, and a broken one fails
(tests/games/test_contract.py runs every case)."""

from __future__ import annotations

import re
from pathlib import Path

import gm_games.empires
import pytest
from gm_games.empires import ruleset

from gm.core.cases import load_case_text, run_case

CASES = sorted((Path(gm_games.empires.__file__).parent / "cases").glob("*.toml"))
SECTIONS = ("11.", "D-EMP-", "Rulebook")


def read(path: Path) -> dict:
    return load_case_text(path.read_text(encoding="utf-8"), path.name)


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_case_names_its_section_and_quotes_the_rule(path):
    case = read(path)
    assert case["rule"].startswith(SECTIONS)
    assert len(case["quote"]) >= 10 and case["title"]


BOOKS = Path(__file__).parents[3] / "docs" / "rules"


def _plain(text: str) -> str:
    """Text as it reads: Markdown's ** and ` off, every run of white space one space."""
    return " ".join(text.replace("**", "").replace("`", "").split())


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_the_quote_is_the_book_or_the_decisions_word_for_word(path):
    """Each part of a case's quote (parts joined by "...") is in chapter 11 or DECISIONS.md."""
    books = _plain(
        " ".join(
            (BOOKS / name).read_text(encoding="utf-8")
            for name in ("empires-pbm-winning-and-losing.txt", "DECISIONS.md")
        )
    )
    for part in re.split(r"\s*\.\.\.\s*", read(path)["quote"]):
        assert _plain(part) in books, part


def test_chapter_11_and_every_decision_are_covered():
    rules = " ".join(read(p)["rule"] for p in CASES)
    for section in ("11.1", "11.2", "11.3", "11.4", "11.5", "11.6", "11.7"):
        assert section in rules, section
    cited = {int(n) for n in re.findall(r"D-EMP-(\d+)", rules)}
    assert cited == set(range(1, 16))  # D-EMP-15 here is what a result earns; the books: tests/ledger


def test_a_broken_case_fails():
    case = read(next(p for p in CASES if p.stem == "end-at-the-next-census"))
    case["prestate"]["census"]["turns"] = [5, 8]  # turn 4 is no census now: the game goes on
    failures = run_case(case, ruleset)
    assert failures[0].startswith("expect #1: expected some game_over event(s) with ")
    assert failures[1:] == [
        "expect #2: winners: expected ['AL'], got None",
        "expect #3: victory.discounts: expected {'AL': 3, 'BR': 1, 'CA': 1}, got {}",
        "expect #4: phase: expected 'over', got 'play'",
        "expect #5: victory.ended: expected 4, got None",
    ]
