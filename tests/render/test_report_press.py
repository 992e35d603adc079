"""Press and the GM's announcements in the shared report: every ruleset's report shows them, as
its seat may read them, escaped, readable in the PDF; a report without press is as it was."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from gm.render.environment import base_url, make_environment, render_report_html
from gm.render.pdf import html_to_pdf
from gm.rulesets import installed, template_dirs

from . import ruleset_report
from .sample_game import report_context
from .test_report import check_golden

LONG_WORD = "https://example.org/" + "x" * 140
PRESS = [
    {
        "kind": "announcement",
        "from": "the GM",
        "mine": False,
        "to": "everyone",
        "sent": "2026-11-20T09:00:00Z",
        "text": "The deadline moves to Saturday 18:00 UTC this week.\nGood luck!",
    },
    {
        "kind": "press",
        "from": "FR",
        "mine": False,
        "to": "you, DE",
        "sent": "2026-11-20T10:15:00Z",
        "text": "Shall we share Burgundy?\n\nI hold BUR and will not move # promise.\n-- Bruno",
    },
    {
        "kind": "press",
        "from": "anonymous",
        "mine": False,
        "to": "you and 2 other seats",
        "sent": "2026-11-21T08:00:00Z",
        "text": f"<script>alert(1)</script> Watch the Channel: {LONG_WORD}",
    },
    {"kind": "press", "from": "you", "mine": True, "to": "FR", "sent": "2026-11-21T09:30:00Z", "text": "Agreed."},
]
HOW = "PRESS TO FR,DE (or PRESS TO ALL), the message on the lines below, then ENDPRESS (signed with your seat)."


def press_context() -> dict:
    return dict(report_context("BR", 5), press=PRESS, press_how=HOW)


def test_golden_html_of_a_report_with_press(env):
    check_golden("report_BR_press.html", render_report_html(env, press_context()))


def test_each_message_shows_its_sender_as_the_seat_may_read_it_escaped(env):
    html = render_report_html(env, press_context())
    top, rest = html.split("</header>")
    assert "<b>From the GM</b> to every seat · 2026-11-20 09:00 UTC" in top
    assert "The deadline moves to Saturday 18:00 UTC this week.\nGood luck!" in top
    section = rest.split('<section class="press">')[1].split("</section>")[0]
    assert section.count('class="message') == 3 and "From the GM" not in section
    assert "<b>From FR</b> to you, DE" in section and "<b>Anonymous</b>, to you and 2 other seats" in section
    assert "<b>You</b> wrote to FR" in section
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in section and "<script>" not in html
    assert f"Press to other players goes before END: {HOW}" in rest


@pytest.mark.parametrize("ruleset_name", sorted(installed()))
def test_every_rulesets_report_shows_press(ruleset_name):
    env = make_environment(None, template_dirs(installed()[ruleset_name]))
    html = render_report_html(env, dict(ruleset_report.report_context(ruleset_name), press=PRESS, press_how=HOW))
    assert "Press this turn" in html and "Shall we share Burgundy?" in html and "From the GM" in html


def test_without_press_the_report_has_no_press_section(env):
    html = render_report_html(env, dict(report_context("BR", 5), press=[], press_how=None))
    assert html == render_report_html(env, report_context("BR", 5))
    assert "Press this turn" not in html


def test_the_press_reads_in_the_pdf_with_long_words_broken(env, strict_fetcher, tmp_path):
    """The PDF's text holds every message whole; pages as PNGs at 60 and 150 dpi land in
    $GM_REPORT_PNG_DIR (or tmp) to look at by eye."""
    pdf = html_to_pdf(
        render_report_html(env, press_context()),
        base_url=base_url(),
        created="2026-11-21T19:00:00Z",
        identifier="clash-1/5/BR",
        fetcher=strict_fetcher,
    )
    out = Path(os.environ.get("GM_REPORT_PNG_DIR", tmp_path))
    (out / "press.pdf").write_bytes(pdf)
    for dpi in ("60", "150"):
        subprocess.run(["pdftoppm", "-png", "-r", dpi, str(out / "press.pdf"), str(out / f"press-{dpi}")], check=True)
    text = subprocess.run(["pdftotext", str(out / "press.pdf"), "-"], check=True, capture_output=True, text=True).stdout
    assert "Press this turn" in text and "Shall we share Burgundy?" in text
    assert "I hold BUR and will not move # promise." in text
    # The long address is broken over lines inside the column, never cut off at the page's edge.
    assert "".join(line.strip() for line in text.split("Watch the Channel: ")[1].splitlines()[:3]).startswith(LONG_WORD)
    assert strict_fetcher.refused == []


def cut_context(mailed: bool) -> dict:
    """A report whose press the budget cut: one message printed in part, 45 left out."""
    cut = dict(PRESS[1], text="x\nx", cut={"lines": 2_402, "characters": 2_402})
    left = {"messages": 45, "cut": 1, "from": {"FR": 44, "anonymous": 1}, "mailed": mailed, "portal": PORTAL}
    return dict(report_context("BR", 5), press=[PRESS[0], cut], press_how=HOW, press_left=left)


PORTAL = "https://pbm.example.org/press/5"


def test_a_report_says_what_its_press_budget_left_out_and_where_to_read_it(env):
    section = render_report_html(env, cut_context(True)).split('<section class="press">')[1].split("</section>")[0]
    assert "… the rest of this message (2,402 more lines) is not printed here." in section
    text = " ".join(section.split('class="press-rest">')[1].split())
    assert text == (
        "<b>Not printed here, to keep this report short:</b> 45 more messages (44 from FR, 1 sent anonymously), "
        "and the rest of the message cut short above. Each came to you by mail when it was sent, and the portal "
        f'shows this turn’s press in full: <span class="address">{PORTAL}</span></p>'
    )
    unmailed = render_report_html(env, cut_context(False)).split('class="press-rest">')[1].split("</p>")[0]
    assert "The portal shows this turn’s press in full:" in unmailed and "by mail" not in unmailed


def test_a_withheld_message_shows_its_sender_only_that_it_was_withheld(env):
    withheld = dict(PRESS[3], text="", withheld=True)
    html = render_report_html(env, dict(report_context("BR", 5), press=[withheld], press_how=HOW))
    assert "Withheld by the GM: the other players do not read it, in their reports or on the portal." in html


def test_a_long_word_may_break_after_every_forty_letters_and_stays_escaped(env):
    word = "<" + "w" * 99
    html = render_report_html(env, dict(report_context("BR", 5), press=[dict(PRESS[1], text=f"a {word} b")]))
    assert f"a &lt;{'w' * 39}<wbr>{'w' * 40}<wbr>{'w' * 20} b" in html
