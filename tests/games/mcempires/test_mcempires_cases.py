"""Minecraft EMPIRES' conformance cases: each quotes the rule book, every D-MC decision has a
worked case, the sections with numbers in them are covered, and a broken case fails
(tests/games/test_contract.py runs every case)."""

from __future__ import annotations

import re
from pathlib import Path

import gm_games.mcempires
import pytest
from gm_games.mcempires import ruleset

from gm.core.cases import load_case_text, run_case

CASES = sorted((Path(gm_games.mcempires.__file__).parent / "cases").glob("*.toml"))
RULES = Path(__file__).resolve().parents[3] / "docs" / "rules"


def read(path: Path) -> dict:
    return load_case_text(path.read_text(encoding="utf-8"), path.name)


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_case_names_its_section_and_quotes_the_rule(path):
    case = read(path)
    assert case["ruleset"] == "mcempires" and case["title"] and case["rule"]
    assert len(case["quote"]) >= 20


def test_every_decision_has_a_worked_case():
    rules = " ".join(read(p)["rule"] + " " + p.read_text(encoding="utf-8") for p in CASES)
    cited = {int(n) for n in re.findall(r"D-MC-(\d+)", rules)}
    assert cited == set(range(1, 16))


def test_the_sections_with_numbers_in_them_are_covered():
    names = {p.stem for p in CASES}
    assert {
        "start-capital-and-10-es",
        "start-capital-territory",  # 10 E$, the 3x3 square
        "city-price-10n-plus-10",
        "treasury-5n-plus-20",
        "base-20-then-25",  # the prices
        "transport-40-once",
        "naval-50-once",
        "rail-multiples-of-5",
        "land-two-blocks-1-es",
        "maintenance-every-2-cities",
        "income-treasuries-squared",
        "income-land-from-round-11",
        "income-land-not-before-round-11",
        "move-grass-10",
        "move-rock-8",
        "move-sand-8",
        "move-snow-6",
        "move-own-territory-12",
        "move-transport-12",
        "naval-sails-12",
        "group-at-most-6",
        "spawn-halted-at-6",
        "city-spacing-5-refused",
        "city-spacing-6-allowed",
        "city-one-per-round",
        "combat-tie-loses-half",
        "combat-tie-one-against-one",
        "combat-amphibious",
        "capture-after-two-rounds",
        "destroy-infrastructure-standing",
        "capitulation-capital-and-4",
        "capitulation-all-cities-when-fewer-than-5",
        "rail-not-before-round-31",
        "rail-four-lines-a-city",
        "borders-last-10-rounds",
        "alliance-leave-penalty",
        "alliance-at-most-3",
        "alliance-ends-after-10-rounds",
        "war-bounty-start",
        "war-bounty-troop-bounty",
        "war-bounty-all-troops",
        "war-bounty-city",
        "war-bounty-empire",
        "land-game-start",
        "round-limit-most-cities",
        # issue 27's decisions, D-MC-11 to D-MC-15
        "capitulation-city-got-back-by-peace",
        "capitulation-city-got-back-when-its-holder-falls",
        "out-with-no-city-at-the-end-of-a-round",
        "occupation-ends-when-the-occupier-falls",
        "occupation-over-the-city-is-its-owners-again",
        "land-own-landmass-needs-no-naval",
        "land-another-landmass-needs-naval",
        "alliance-at-war-with-a-member-cannot-join",
        "alliance-attack-leaves-it",
        "pay-es-to-another-empire",
        "peace-ends-occupation-spawning",
        "treasury-price-counts-those-standing",
        "land-each-order-rounded-up",
        "land-game-land-income-from-round-2",
        "war-bounty-all-troops-once",
        "war-bounty-occupation-pays-nothing",
    } <= names


def letters(text: str) -> str:
    """Only letters and digits, lower case: quotes keep the words, not the guide's bullets,
    tabs and curly apostrophes."""
    return re.sub(r"[^a-z0-9]", "", text.lower())


def test_each_quote_is_words_of_the_rule_book():
    """Every part of a quote (parts are joined by "...") opens with the guide's own words, or
    with DECISIONS.md's where a case works out a decision."""
    texts = [(RULES / name).read_text(encoding="utf-8") for name in ("minecraft-empires.txt", "DECISIONS.md")]
    book = " ".join(letters(text) for text in texts)
    missing = [p.stem for p in CASES for part in read(p)["quote"].split("...") if letters(part)[:50] not in book]
    assert missing == []


def test_a_broken_case_fails():
    case = read(next(p for p in CASES if p.stem == "combat-tie-loses-half"))
    case["dice"] = [6, 2, 1, 1, 2, 2, 2]  # Red's sum is 10 now: it wins outright
    failures = run_case(case, ruleset)
    assert failures[0].startswith("expect #1: expected some combat event(s) with ")
    assert failures[1:] == [
        "expect #2: groups.G1.troops: expected 2, got 4",
        "expect #3: groups.G2.troops: no such path in the resulting state",
    ]
