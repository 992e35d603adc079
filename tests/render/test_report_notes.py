"""The shared top of every ruleset's report: what played a seat's turn when no orders came (an
NMR) and how many misses are left, rendered from report.html whatever the ruleset."""

from __future__ import annotations

import functools

import pytest

from gm.render.environment import make_environment, render_report_html
from gm.rulesets import installed, template_dirs

from . import ruleset_report

PLAYED = {
    "robot": "the robot played your turn.",
    "repeat": "your last orders were played again.",
    "hold": "your forces held, doing nothing.",
}


@functools.cache
def _context(ruleset_name: str) -> dict:
    return ruleset_report.report_context(ruleset_name)


def _render(ruleset_name: str, **extra) -> str:
    env = make_environment(None, template_dirs(installed()[ruleset_name]))
    html = render_report_html(env, dict(_context(ruleset_name), **extra))
    return html.split("</header>")[0]  # the masthead: the top of page 1


@pytest.mark.parametrize("ruleset_name", sorted(installed()))
@pytest.mark.parametrize("played_by", sorted(PLAYED))
def test_an_nmr_is_told_at_the_top_of_every_rulesets_report(ruleset_name, played_by):
    top = _render(ruleset_name, nmr={"missed": 2, "limit": 3, "left": 1, "played_by": played_by})
    assert "No orders from you reached turn 1:</b>" in top
    assert PLAYED[played_by] in top
    assert "Missed turns in a row: 2 of 3. You may miss 1 more before the seat is dropped." in top


def test_the_last_allowed_miss_and_a_game_without_a_limit_say_so():
    dropped = _render("clash", nmr={"missed": 3, "limit": 3, "left": 0, "played_by": "hold"})
    assert "Missed turns in a row: 3 of 3. The seat has been dropped." in dropped
    unlimited = _render("clash", nmr={"missed": 4, "limit": 0, "left": None, "played_by": "repeat"})
    assert "Missed turns in a row: 4. This game drops no seat for missed turns." in unlimited


def test_orders_of_ones_own_and_robot_seats_tell_of_no_nmr():
    assert "No orders from you" not in _render("clash", nmr={"missed": 0, "limit": 3, "left": 3, "played_by": None})
    assert "No orders from you" not in _render("clash", nmr=None)  # a robot seat (status 'robot')


def _books(balance: int, discount: int = 0, policy: str = "hold") -> dict:
    charged = policy != "free"
    return {
        "balance": balance,
        "discount": discount,
        "charged": True,
        "low": balance < 2 and charged,
        "next_unpaid": balance < 1 and charged,
        "unpaid": balance < 0 and charged,
        "policy": policy,
        "bonus_from": 10,
    }


@pytest.mark.parametrize("ruleset_name", sorted(installed()))
def test_every_rulesets_report_shows_the_books(ruleset_name):
    env = make_environment(None, template_dirs(installed()[ruleset_name]))
    html = render_report_html(env, dict(_context(ruleset_name), credits=_books(7, discount=3)))
    books = html.split('<section class="books">')[1].split("</section>")[0]
    assert '<th scope="row">Turn credits left</th><td>7</td>' in books and "<td>3 bonus turns</td>" in books
    assert "Buy 10 or more turn credits in one payment and you get 3 more free." in books
    assert html.count("Turn credits left") == 1  # the ruleset's own part does not repeat it
    assert "not paid for" not in html


@pytest.mark.parametrize("ruleset_name", sorted(installed()))
def test_an_unpaid_next_turn_is_warned_of_at_the_top(ruleset_name):
    top = _render(ruleset_name, credits=_books(0))
    assert "Your next turn is not paid for:</b> no turn credits are left." in top
    assert "The next report waits until you buy turn credits." in top
    # Told once: the books further on do not repeat it (issue 32: the same fact once, fewer boxes).
    env = make_environment(None, template_dirs(installed()[ruleset_name]))
    whole = render_report_html(env, dict(_context(ruleset_name), credits=_books(0)))
    assert whole.count("not paid for") == 1 and '<p class="warning">' not in whole.split('<section class="books">')[1]
    assert "Turn credits left" in whole.split('<section class="books">')[1]
    short = _render(ruleset_name, credits=_books(-2, policy="deliver"))
    assert "your account is 2 turn credits short. The next turn is charged on credit." in " ".join(short.split())


def test_no_books_on_a_robot_seats_report_nor_warnings_where_turns_are_free():
    env = make_environment(None, template_dirs(installed()["clash"]))
    assert 'class="books"' not in render_report_html(env, dict(_context("clash"), credits=None))
    assert "not paid for" not in render_report_html(env, dict(_context("clash"), credits=_books(0, policy="free")))
