"""Every report's standings table is titled by what its ruleset's scores count, never a bare
"Scores" over areas while the page speaks of VP (issue 15, "Honest tables")."""

from __future__ import annotations

import functools

import pytest

from gm.render.environment import make_environment, render_report_html
from gm.rulesets import installed, template_dirs
from tests import golden

from . import ruleset_report

# What each of gm's own rulesets counts (a plug-in installed beside gm has no row: its title is its own).
COUNTS = {
    "clash": ("Victory points", "VP"),
    "conqueror": ("Score from provinces (a treasury counts only at the end)", "Score"),  # gold is secret (D-ALL-5)
    "empires": ("Land areas held", "Areas"),  # VP are secret while the game runs (11.3)
    "imperials": ("Victory points shown", "VP shown"),  # points in hand are hidden
    "mcempires": ("Cities held", "Cities"),
}


@functools.cache
def _html(ruleset_name: str) -> str:
    env = make_environment(None, template_dirs(installed()[ruleset_name]))
    return render_report_html(env, ruleset_report.report_context(ruleset_name))


@pytest.mark.parametrize("ruleset_name", golden.OWN_RULESETS)
def test_the_table_is_titled_by_what_it_counts(ruleset_name):
    title, column = COUNTS[ruleset_name]
    table = _html(ruleset_name).split('<section class="scores">')[1].split("</section>")[0]
    assert f"<h2>{title}</h2>" in table and f'<th class="num">{column}</th>' in table
    assert "Scores" not in table


def test_empires_shows_the_leaders_and_the_seats_own_vp():
    context = ruleset_report.report_context("empires")
    html = _html("empires")
    # The roundup is one of the turn's pages (the same for every seat), so the seat's own VP
    # are on its own pages, in the summary of its country.
    roundup = html.split("<h2>The roundup</h2>")[1].split("</p>")[0]
    assert f"with <b>{context['view']['leader']['vp']} VP</b>" in roundup
    assert "<!--/gm:turn-->" in html.split("<h2>The roundup</h2>")[1]
    assert "You:" not in roundup
    country = html.split(": your country</h2>")[1].split("</table>")[0]
    assert f'<th scope="row">Victory points</th><td>{context["view"]["you"]["vp"]}</td>' in country


@pytest.mark.parametrize("ruleset_name", ["empires", "imperials"])
def test_at_the_end_the_table_counts_victory_points(ruleset_name):
    ruleset = installed()[ruleset_name]
    assert ruleset.score_label({"phase": "over"}) == ("Victory points", "VP")
