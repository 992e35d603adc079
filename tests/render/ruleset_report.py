"""A report context for any installed ruleset by name: gm.testing.reports (which a plug-in's tests
use too), with the seats gm's own golden reports were made with."""

from __future__ import annotations

from gm.rulesets import get_ruleset
from gm.testing.reports import context_of, report_contexts as contexts

SEATS = {"empires": 16, "conqueror": 8, "clash": 4}  # gm's goldens; any other ruleset: its demo_seats

__all__ = ["context_of", "report_context", "report_contexts"]


def report_context(ruleset_name: str, seed: int = 3) -> dict:
    """Turn 1 played by robots; the context report.html reads, for the first seat."""
    return report_contexts(ruleset_name, seed)[0]


def report_contexts(ruleset_name: str, seed: int = 3, turns: int = 1) -> list[dict]:
    """`turns` turns played by robots; the context report.html reads of the last, for every seat."""
    return contexts(get_ruleset(ruleset_name), seed, turns, SEATS.get(ruleset_name))
