"""The summary at the top of a Clash seat's report: money as the book writes it ("$1") and the
next turn in words, not the phase's code name nor "Round 0 of 30" during set-up."""

from __future__ import annotations

import re

from gm.render.environment import make_environment, render_report_html
from gm.rulesets import installed, template_dirs

from . import ruleset_report


def _summary(turns: int) -> str:
    context = ruleset_report.report_contexts("clash", turns=turns)[0]
    html = render_report_html(make_environment(None, template_dirs(installed()["clash"])), context)
    table = html.split('<table class="summary">', 1)[1].split("</table>", 1)[0]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", table)).strip()


def test_after_the_claiming_turn_the_summary_names_the_placing_turn_and_money_in_dollars():
    summary = _summary(turns=1)
    assert "Next turn Set-up: placing 20 units" in summary
    assert "Money $0 " in summary
    assert "0 of 30" not in summary and "place" not in summary.replace("placing", "")


def test_in_the_rounds_the_summary_names_the_next_round():
    summary = _summary(turns=3)  # claiming, placing, round 1
    assert "Next turn Round 2 of 30" in summary
    assert re.search(r"Money \$\d+ ", summary)
