"""The report and standings templates: golden HTML, what a seat reads, and pages that render."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from gm.render.environment import base_url, make_environment, render_report_html, render_standings_html
from gm.render.pdf import html_to_pdf

from .sample_game import FINAL_OUTCOME, report_context, standings_context

GOLDEN = Path(__file__).parent / "golden"


def check_golden(name: str, text: str) -> None:
    """Compare with golden/<name>; GM_UPDATE_GOLDEN=1 rewrites it. A missing golden fails."""
    path = GOLDEN / name
    if os.environ.get("GM_UPDATE_GOLDEN") == "1":
        path.write_text(text, encoding="utf-8")
    if not path.exists():
        pytest.fail(f"golden file {path} is missing; run with GM_UPDATE_GOLDEN=1 to create it, then review it")
    assert text == path.read_text(encoding="utf-8"), f"{name} differs from its golden (GM_UPDATE_GOLDEN=1 accepts)"


CASES = {
    "report_BR_turn5.html": lambda env: render_report_html(env, report_context("BR", 5)),
    "report_RU_no_deadline.html": lambda env: render_report_html(env, report_context("RU", 8, deadline=None)),
    "report_DE_game_over.html": lambda env: render_report_html(
        env, report_context("DE", 60, deadline=None, outcome=FINAL_OUTCOME)),
    "standings.html": lambda env: render_standings_html(env, standings_context()),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_html(env, name):
    check_golden(name, CASES[name](env))


def test_the_report_shows_what_a_seat_needs(env):
    html = render_report_html(env, report_context("BR", 5))
    for text in ["Clash of Empires: Europe", "Round 3 of 30", "turn 5", "Alice", "2026-11-27 18:00 UTC",
                 "What happened this turn", "Britain attacked Brest from London and took it.",
                 "<b>6</b> against <b>3</b>", "BRE captured", "WAR held", '<span class="die" title="die">5</span>',
                 "Your territories", "Edinburgh", "Order of play next round", "Your orders for turn 6",
                 "PLAYER BR", "<svg", "counter(pages)"]:
        assert text in html, text


def test_a_finished_game_shows_the_outcome_and_no_order_form(env):
    html = render_report_html(env, report_context("DE", 60, deadline=None, outcome=FINAL_OUTCOME))
    assert "The game is over" in html and "Shared win" in html and "How the game ended" in html
    assert "order-form" not in html.split("<body>")[1]
    assert "Order of play next round" not in html


def test_tied_scores_share_a_place(env):
    html = render_standings_html(env, standings_context())
    rows = html.split("<tbody>")[1]
    assert rows.count('<td class="num">1</td>') == 2 and '<td class="num">3</td>' in rows


def test_a_view_without_a_map_renders_without_one(tmp_path, clash_dir):
    (tmp_path / "bare_report.html").write_text("<p>bare part</p>")
    context = report_context()
    context["view"] = {"ruleset": "bare"}
    html = render_report_html(make_environment(None, [tmp_path]), context)
    assert "<svg" not in html and "<p>bare part</p>" in html


def test_the_sample_report_renders_to_readable_pages(env, strict_fetcher, tmp_path):
    """Three A4 pages; PNGs at 60 dpi land in $GM_REPORT_PNG_DIR (or tmp) to look at by eye."""
    pdf = html_to_pdf(render_report_html(env, report_context()), base_url=base_url(),
                      created="2026-11-21T19:00:00Z", identifier="clash-1/5/BR", fetcher=strict_fetcher)
    out = Path(os.environ.get("GM_REPORT_PNG_DIR", tmp_path))
    (out / "report.pdf").write_bytes(pdf)
    subprocess.run(["pdftoppm", "-png", "-r", "60", str(out / "report.pdf"), str(out / "report")], check=True)
    pages = sorted(out.glob("report-*.png"))
    assert len(pages) == 3
    assert all(page.stat().st_size > 5_000 for page in pages)  # not blank
    text = subprocess.run(["pdftotext", "-layout", str(out / "report.pdf"), "-"], check=True, capture_output=True,
                          text=True).stdout
    assert "page 1 of 3" in text and "page 3 of 3" in text
    assert strict_fetcher.refused == []
