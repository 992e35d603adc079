"""The report and standings templates: golden HTML, what a seat reads, and pages that render."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from gm.render.environment import base_url, make_environment, render_report_html, render_standings_html
from gm.render.pdf import html_to_pdf, shared_images
from gm.render.worker import Renderer, RenderJob
from gm.rulesets import installed, template_dirs
from gm.services.reports import ENDGAME_TEMPLATE
from tests import golden

from . import ruleset_report
from .sample_game import FINAL_OUTCOME, endgame_context, report_context, standings_context

GOLDEN = Path(__file__).parent / "golden"
GOLDEN_PAGES = Path(__file__).parent / "golden_pages"
# The map picture's bytes follow cairo's and Pillow's versions; its look is held by the golden
# pages below, so the golden HTML names it by its size only.
PICTURE = re.compile(r"data:image/png;base64,[A-Za-z0-9+/=]+")


def check_golden(name: str, text: str) -> None:
    """Compare with golden/<name>, the map picture named by its size."""
    text = PICTURE.sub(lambda m: f"data:image/png;base64,<{len(m[0])} characters>", text)
    golden.check_golden(GOLDEN / name, text)


CASES = {
    "report_BR_turn5.html": lambda env: render_report_html(env, report_context("BR", 5)),
    "report_RU_no_deadline.html": lambda env: render_report_html(env, report_context("RU", 8, deadline=None)),
    "report_DE_game_over.html": lambda env: render_report_html(
        env, report_context("DE", 60, deadline=None, outcome=FINAL_OUTCOME)
    ),
    "standings.html": lambda env: render_standings_html(env, standings_context()),
    "endgame_DE_won.html": lambda env: env.get_template(ENDGAME_TEMPLATE).render(endgame_context()),
    "endgame_RU_dropped.html": lambda env: env.get_template(ENDGAME_TEMPLATE).render(
        endgame_context("RU", status="dropped", awarded=0, now=0)
    ),
}


def ruleset_report_html(ruleset_name: str) -> str:
    """Turn 1 of a robot game of the ruleset (ruleset_report), rendered with its own templates."""
    env = make_environment(None, template_dirs(installed()[ruleset_name]))
    return render_report_html(env, ruleset_report.report_context(ruleset_name))


@pytest.mark.parametrize("ruleset_name", golden.OWN_RULESETS)
def test_golden_html_of_every_rulesets_report(ruleset_name):
    """What each ruleset's report says and how it is laid out, for a new engineer's review: a
    change to a ruleset's view, its report part or the shared template shows here."""
    check_golden(f"report_{ruleset_name}_turn1.html", ruleset_report_html(ruleset_name))


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_html(env, name):
    check_golden(name, CASES[name](env))


def test_the_report_shows_what_a_seat_needs(env):
    html = render_report_html(env, report_context("BR", 5))
    for text in [
        "Clash of Empires: Europe",
        "Round 3 of 30",
        "turn 5",
        "Alice",
        "2026-11-27 18:00 UTC",
        "What happened this turn",
        "Britain attacked Brest from London and took it.",
        "<b>6</b> against <b>3</b>",
        "BRE captured",
        "WAR held",
        '<span class="die" title="die">5</span>',
        "Your territories",
        "Edinburgh",
        "Order of play next round",
        "Your orders for turn 6",
        "PLAYER BR",
        "<svg",
        "counter(pages)",
    ]:
        assert text in html, text


def test_a_finished_game_shows_the_outcome_and_no_order_form(env):
    html = render_report_html(env, report_context("DE", 60, deadline=None, outcome=FINAL_OUTCOME))
    assert "The game is over" in html and "Shared win" in html and "How the game ended" in html
    # The reason is told once, in gm's outcome section; the ruleset's section does not repeat it.
    assert html.count(FINAL_OUTCOME["reason"]) == 1
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
    """Three A4 pages, the order form flowing on under the turn's tables; PNGs at 60 dpi land in
    $GM_REPORT_PNG_DIR (or tmp) to look at by eye."""
    pdf = html_to_pdf(
        render_report_html(env, report_context()),
        base_url=base_url(),
        created="2026-11-21T19:00:00Z",
        identifier="clash-1/5/BR",
        fetcher=strict_fetcher,
    )
    out = Path(os.environ.get("GM_REPORT_PNG_DIR", tmp_path))
    (out / "report.pdf").write_bytes(pdf)
    subprocess.run(["pdftoppm", "-png", "-r", "60", str(out / "report.pdf"), str(out / "report")], check=True)
    pages = sorted(out.glob("report-*.png"))
    assert len(pages) == 3
    assert all(page.stat().st_size > 5_000 for page in pages)  # not blank
    text = subprocess.run(
        ["pdftotext", "-layout", str(out / "report.pdf"), "-"], check=True, capture_output=True, text=True
    ).stdout
    assert "page 1 of 3" in text and "page 3 of 3" in text
    # The running header: the game's title, its name, the turn and the reader, in one line, on
    # every page but the first (the masthead says it there); the short form flows on below the
    # turn's tables (a long one starts a page of its own: test_form_pages.py).
    header = "Clash of Empires: Europe · clash-1 · turn 5 · BR"
    first, second, third = text.split("\f")[:3]
    assert header in second and header in third and header not in first
    assert third.index("Territories") < third.index("Your orders for turn 6")
    assert strict_fetcher.refused == []


def check_golden_page(name: str, png: Path) -> None:
    """Compare a page picture with golden_pages/<name>, allowing for anti-aliasing: the same
    size, and on average under 2 of 255 levels apart. GM_UPDATE_GOLDEN=1 rewrites it."""
    path = GOLDEN_PAGES / name
    if os.environ.get("GM_UPDATE_GOLDEN") == "1":
        path.write_bytes(png.read_bytes())
    if not path.exists():
        pytest.fail(f"golden page {path} is missing; run with GM_UPDATE_GOLDEN=1 to create it, then look at it")
    got, want = Image.open(png).convert("L"), Image.open(path).convert("L")
    assert got.size == want.size, f"{name}: page size {got.size}, golden {want.size}"
    histogram = ImageChops.difference(got, want).histogram()
    mean = sum(level * count for level, count in enumerate(histogram)) / (got.width * got.height)
    assert mean < 2.0, (
        f"{name} looks different from its golden page (mean difference {mean:.2f}; GM_UPDATE_GOLDEN=1 accepts)"
    )


# The pages of each report that show its maps (page 1 unless the ruleset puts them later;
# Minecraft EMPIRES: the world on page 1, the region on page 2):
# Empires' region on page 1 and its whole board on an A3 page of its own ("board": wherever
# that page falls, the only A3 page of the report, kept as empires_board.png).
MAP_PAGES = {"imperials": (2,), "mcempires": (1, 2), "empires": (1, "board")}
A3 = "841.89 x 1190.55"


@pytest.mark.parametrize("ruleset_name", golden.OWN_RULESETS)
def test_the_map_page_of_each_rulesets_report_looks_as_it_did(ruleset_name, tmp_path):
    """The pages with the maps, at 60 dpi: the map picture, the seat's outlines and arrows over
    it where the ruleset draws them, the headings around it."""
    context = ruleset_report.report_context(ruleset_name)
    env = make_environment(None, template_dirs(installed()[ruleset_name]))
    html = render_report_html(env, context)
    job = RenderJob(
        html, base_url(), context["created"], f"{ruleset_name}-1/1", tmp_path / "report.pdf", shared_images(html)
    )
    Renderer().write(job, tuple(str(d) for d in env.loader.searchpath))
    sizes = subprocess.run(
        ["pdfinfo", "-f", "1", "-l", "99", str(tmp_path / "report.pdf")], check=True, capture_output=True, text=True
    ).stdout
    a3 = re.findall(rf"(?m)^Page +(\d+) size: +{A3} pts \(A3\)$", sizes)
    if ruleset_name == "empires":  # the 215-area board on an A3 page, the rest A4
        assert len(a3) == 1 and sizes.count("(A3)") == 1, sizes
    for page in MAP_PAGES.get(ruleset_name, (1,)):
        number = a3[0] if page == "board" else str(page)
        subprocess.run(
            [
                "pdftoppm",
                "-png",
                "-r",
                "60",
                "-f",
                number,
                "-l",
                number,
                "-singlefile",
                str(tmp_path / "report.pdf"),
                str(tmp_path / f"page{page}"),
            ],
            check=True,
        )
        check_golden_page(
            f"{ruleset_name}_{'board' if page == 'board' else f'page{page}'}.png", tmp_path / f"page{page}.png"
        )


@pytest.mark.parametrize(
    "leader, holds, says",
    [
        ("FR", ["points"], ". Now France (FR) leads with 30 VP."),
        ("FR", [], ". Now France (FR) leads with 30 VP."),
        (None, ["runaway", "knockout"], ". Now no country leads alone."),
    ],
)
def test_the_empires_warning_says_who_leads_now_and_never_the_neutrals(leader, holds, says):
    """A warning stands from the turn it was given to the next census, while the lead may change
    hands or be shared: the report says who leads now (it once said 'the neutrals leads'), and
    never which conditions held (D-ALL-5: a runaway or a knockout tells the other countries'
    VP; 11.6 gives only that a possible win was achieved)."""
    from games.empires.view import _warning

    state = {
        "phase": "play",
        "vp": {"FR": 30, "EN": 30 if leader is None else 12},
        "countries": {"FR": {"nation": "France"}, "EN": {"nation": "England"}},
    }
    context = ruleset_report.report_context("empires")
    context["view"] = dict(context["view"], warning=_warning(state, {"warning": 4, "leader": leader, "holds": holds}))
    env = make_environment(None, template_dirs(installed()["empires"]))
    text = " ".join(re.sub(r"<[^>]+>", " ", render_report_html(env, context)).split())
    assert "Possible win. A win condition held at the end of turn 4" + says in text
    assert "neutrals leads" not in text and "no win condition holds" not in text
    assert not any(word in text for word in ("runaway", "knockout", "points win"))


def test_the_empires_books_show_nothing_spent_as_0_not_minus_0():
    """A country that spent nothing and pays no supply reads 0 in its books, never "−0"."""
    context = ruleset_report.report_context("empires")
    you = dict(context["view"]["you"])
    you["finances"] = dict(you["finances"], spent=0, supply=0)
    context["view"] = dict(context["view"], you=you)
    env = make_environment(None, template_dirs(installed()["empires"]))
    text = " ".join(re.sub(r"<[^>]+>", " ", render_report_html(env, context)).split())
    assert "(the automatic ARMY ALL included) 0 Left over" in text
    assert "Supply: armies above the population of their area 0 " in text
    assert "−0" not in text
