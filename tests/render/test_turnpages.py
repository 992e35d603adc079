"""The turn's pages (gm.render.turnpages): what every seat of a turn reads alike is laid out once
and laid over blank pages of each seat's report, which keep its header and page numbers; the
reader's own rows are tinted; nothing of one seat's text reaches another's report."""

from __future__ import annotations

import io
import re
import subprocess
from collections import Counter

import pikepdf
import pypdfium2
import pytest
from markupsafe import escape

from gm.render import pdf as pdf_module, turnpages
from gm.render.environment import base_url, make_environment, render_report_html, shared_templates_dir
from gm.render.fetcher import AssetFetcher
from gm.render.pdf import html_to_pdf
from gm.rulesets import installed, template_dirs

from . import ruleset_report


@pytest.fixture(scope="module")
def clash_turn():
    """The four seats' report HTML of a robot Clash game's turn 3, and a fetcher for them."""
    env = make_environment(None, template_dirs(installed()["clash"]))
    contexts = ruleset_report.report_contexts("clash", turns=3)
    htmls = {c["seat"]: render_report_html(env, c) for c in contexts}
    return htmls, AssetFetcher([str(d) for d in env.loader.searchpath])


@pytest.fixture
def layouts(monkeypatch):
    """A fresh cache of turn pages, and a count of the turn documents laid out."""
    made = []
    lay_out = pdf_module._turn_document

    def counted(html, *args):
        made.append(html)
        return lay_out(html, *args)

    monkeypatch.setattr(pdf_module, "_turn_pages", turnpages.TurnPagesCache())
    monkeypatch.setattr(pdf_module, "_turn_document", counted)
    return made


def to_pdf(html, fetcher):
    return html_to_pdf(html, base_url=base_url(), created="2026-11-21T19:00:00Z", identifier="t", fetcher=fetcher)


def page_texts(pdf: bytes, tmp_path) -> list[str]:
    path = tmp_path / "r.pdf"
    path.write_bytes(pdf)
    text = subprocess.run(["pdftotext", "-layout", str(path), "-"], check=True, capture_output=True, text=True).stdout
    return text.split("\f")[:-1]


def words_of_turn(body: str, fetcher, tmp_path, pattern: str) -> list[tuple[int, tuple[str, ...]]]:
    """(page, match) of each word `pattern` matches (its first group the word's top, pdftotext
    -bbox) in the PDF of a report whose turn's text is `body`, under report.css."""
    css = (shared_templates_dir() / "report.css").read_text()
    html = (
        f'<html lang="en"><head><meta charset="utf-8"><style>{css}</style></head><body><h1>Report of BR</h1>'
        f'<!--gm:turn-->{body}<!--/gm:turn--><!--gm:turn-pages reader="BR"--><p>Orders</p></body></html>'
    )
    path = tmp_path / "r.pdf"
    path.write_bytes(to_pdf(html, fetcher))
    boxes = subprocess.run(["pdftotext", "-bbox", str(path), "-"], check=True, capture_output=True, text=True).stdout
    return [
        (page, found) for page, chunk in enumerate(boxes.split("<page ")[1:]) for found in re.findall(pattern, chunk)
    ]


def is_turn_page(text: str) -> bool:
    """The page with the scores and the table of empires: every seat's player is named on it."""
    return all(f"Player {code}" in text for code in ("BR", "FR", "GE", "RU")) and "Territories" in text


def test_a_report_without_marks_is_one_document():
    assert turnpages.split("<html><body><p>Hello</p></body></html>") is None
    # Marks without a place for the pages (a GM's template that kept only part): one document too.
    assert turnpages.split("<html><body><!--gm:turn--><p>x</p><!--/gm:turn--></body></html>") is None


def test_the_pools_key_is_the_key_of_the_split_report(tmp_path):
    """key_of (what the render pool asks of every job) names the same turn pages as the worker's
    split, and none where the report marks none."""
    html = (
        "<html><head><style>p { color: red }</style></head><body><p>mine</p>"
        '<!--gm:turn--><h2>Scores</h2><!--/gm:turn--><!--gm:turn-pages reader="BR"--></body></html>'
    )
    link = tmp_path / "link"
    link.symlink_to(tmp_path)
    parts = turnpages.split(html)
    assert parts is not None
    for dirs in ((str(tmp_path),), (str(link),)):  # a folder by a link is the folder itself
        assert turnpages.key_of(html, "file:///x/", dirs) == parts.key("file:///x/", (str(tmp_path),))
    assert turnpages.key_of(html, "file:///y/", (str(tmp_path),)) != parts.key("file:///x/", (str(tmp_path),))
    assert turnpages.key_of(html.replace("Scores", "Score"), "file:///x/", (str(tmp_path),)) != parts.key(
        "file:///x/", (str(tmp_path),)
    )
    assert turnpages.key_of("<html><body><p>Hello</p></body></html>", "file:///x/", ()) is None
    assert turnpages.key_of(html.replace("<!--gm:turn-pages", "<!--gm:other"), "file:///x/", ()) is None


def test_the_turn_sections_leave_the_seats_html_with_every_style():
    html = (
        "<html><head><title>BR</title><style>p { color: red }</style></head><body><p>mine</p>"
        "<!--gm:turn--><h2>Scores</h2><!--/gm:turn--><style>.x { margin: 0 }</style>"
        '<!--gm:turn--><table><tr data-reader="BR FR"><td>1</td></tr></table><!--/gm:turn-->'
        '<!--gm:turn-pages reader="BR"--></body></html>'
    )
    parts = turnpages.split(html)
    assert parts is not None and parts.readers == {"BR"}
    assert "Scores" not in parts.seat_html and "<p>mine</p>" in parts.seat_html
    assert "<h2>Scores</h2>" in parts.turn_html and 'data-reader="BR FR"' in parts.turn_html
    # Both sheets, wherever they stood; not the seat's title or anything else of its own.
    assert "p { color: red }" in parts.turn_html and ".x { margin: 0 }" in parts.turn_html
    assert "<title>" not in parts.turn_html and "mine" not in parts.turn_html
    two = turnpages.TurnPages("key", b"", 2, {})
    assert turnpages.place_blank_pages(parts.seat_html, two).count('class="turn-page"') == 2


def test_a_turns_seats_share_one_layout_of_the_turns_pages(clash_turn, layouts, tmp_path):
    htmls, fetcher = clash_turn
    pdfs = {seat: to_pdf(html, fetcher) for seat, html in htmls.items()}
    assert len(layouts) == 1  # four seats, one layout of the scores and the table of empires
    for seat, pdf in pdfs.items():
        pages = page_texts(pdf, tmp_path)
        turn_page = next(i for i, text in enumerate(pages) if is_turn_page(text))
        text = pages[turn_page]
        # The shared page, every seat's row, over the seat's own blank page: its running header
        # and its page number.
        assert f"turn 3 · {seat} Player {seat}" in text
        assert f"page {turn_page + 1} of {len(pages)}" in text
        # The turn's text comes after the seat's own, and its order form flows on after it.
        form_page = next(i for i, text in enumerate(pages) if "Your orders for turn 4" in text)
        assert turn_page < form_page or text.index("Territories") < text.index("Your orders for turn 4")


def test_the_same_report_gives_the_same_bytes_laid_out_anew_or_not(clash_turn, layouts):
    htmls, fetcher = clash_turn
    first = to_pdf(htmls["FR"], fetcher)
    again = to_pdf(htmls["FR"], fetcher)  # the turn's pages from the cache
    pdf_module._turn_pages = turnpages.TurnPagesCache()
    anew = to_pdf(htmls["FR"], fetcher)
    assert len(layouts) == 2 and first == again == anew


def test_the_readers_rows_are_tinted_and_no_one_elses(clash_turn, layouts):
    htmls, fetcher = clash_turn
    pdf = to_pdf(htmls["FR"], fetcher)
    (turn,) = pdf_module._turn_pages._kept.values()
    # Every row that names its readers is found: each seat's in both tables, and each public
    # battle's under its two sides (a side may be the neutrals, whose rows no report tints).
    named = Counter(name for names in re.findall(r'data-reader="([^"]*)"', htmls["FR"]) for name in names.split())
    assert set(htmls) <= set(named) and all(named[seat] >= 2 for seat in htmls)
    assert {reader: len(rects) for reader, rects in turn.rows.items()} == dict(named)
    document = pypdfium2.PdfDocument(pdf)
    # Where the seat's layout put the turn's strips: each drawn where its block stands.
    seat_html = turnpages.place_blank_pages(turnpages.split(htmls["FR"]).seat_html, turn)
    layout = pdf_module._layout(seat_html, base_url(), fetcher, None)
    places = turnpages.blank_places(layout, turn.pages)
    scale = 2
    images = {n: document[n].render(scale=scale).to_pil().convert("RGB") for n in {p for p, _, _ in places}}

    def colour(rect):
        index, x, y, width, row_height = rect
        page, left, top = places[index]
        right, up = (left - turn.left) * 0.75, (turn.top - top) * 0.75
        # A point in the row's left padding, clear of its text and rules.
        point = (int((x + right + 1.5) * scale), int((document[page].get_height() - y - up - row_height / 2) * scale))
        return images[page].getpixel(point)

    tint = tuple(round(c * 255) for c in turnpages.TINT_RGB)
    mine = {tuple(rect) for rect in turn.rows["FR"]}  # a battle's row is FR's too where FR fought
    for seat, rects in turn.rows.items():
        for rect in rects:
            got = colour(rect)
            if tuple(rect) in mine:
                assert all(abs(a - b) <= 3 for a, b in zip(got, tint)), (seat, got)
            else:
                assert got == (255, 255, 255), (seat, got)


def test_text_that_differs_per_seat_is_laid_out_for_that_seat_only(layouts, clash_turn, tmp_path):
    _, fetcher = clash_turn

    def report(seat, secret):
        return (
            '<html><head><meta charset="utf-8"></head><body><h1>Report of ' + seat + "</h1>"
            f"<!--gm:turn--><p>{secret}</p><!--/gm:turn-->"
            f'<!--gm:turn-pages reader="{seat}"--><p>Orders</p></body></html>'
        )

    br = page_texts(to_pdf(report("BR", "Only BR may read this"), fetcher), tmp_path)
    fr = page_texts(to_pdf(report("FR", "Only FR may read this"), fetcher), tmp_path)
    assert len(layouts) == 2
    assert "Only BR" in "".join(br) and "Only FR" not in "".join(br)
    assert "Only FR" in "".join(fr) and "Only BR" not in "".join(fr)
    # The seat's text, the turn's under it, then the rest, flowing on one page.
    text = "".join(br)
    assert text.index("Report of BR") < text.index("Only BR") < text.index("Orders") and len(br) == 1


def test_a_turn_of_many_pages_lays_each_over_its_own_blank_page(layouts, clash_turn, tmp_path):
    _, fetcher = clash_turn
    lines = "".join(f"<p>Line {n} of the turn</p>" for n in range(1, 181))
    html = (
        '<html><head><meta charset="utf-8"></head><body><h1>Report of BR</h1>'
        f'<!--gm:turn-->{lines}<!--/gm:turn--><!--gm:turn-pages reader="BR"--><p>Orders</p></body></html>'
    )
    pages = page_texts(to_pdf(html, fetcher), tmp_path)
    assert len(pages) >= 4, "the sample turn should fill several pages"
    # The turn's first lines under the seat's heading, its last above the seat's text that follows.
    assert pages[0].index("Report of BR") < pages[0].index("Line 1 of the turn")
    assert pages[-1].index("Line 180 of the turn") < pages[-1].index("Orders")
    seen = [int(n) for page in pages for n in re.findall(r"Line (\d+) of the turn", page)]
    assert seen == list(range(1, 181))  # every line once, in order: page n over blank page n


def test_a_players_text_cannot_open_or_close_the_turns_sections():
    """Marks in what a player wrote (a name, an order) reach the HTML escaped: they neither move
    that seat's text into every seat's pages nor cut the turn's sections short."""
    env = make_environment(None, template_dirs(installed()["clash"]))
    context = ruleset_report.report_contexts("clash", turns=1)[0]
    plain = turnpages.split(render_report_html(env, context))
    forged = dict(context, player='<!--/gm:turn--><!--gm:turn-pages reader="FR"--><!--gm:turn-->Mallory')
    parts = turnpages.split(render_report_html(env, forged))
    assert parts is not None and plain is not None
    assert parts.turn_html == plain.turn_html and parts.readers == {context["seat"]}
    assert "&lt;!--gm:turn--&gt;Mallory" in parts.seat_html


def test_conquerors_battles_are_one_of_the_turns_pages_shared_by_every_seat():
    """Battles are public in Conqueror!: every seat of a turn reads the same table, laid out once,
    each row naming its two sides, so that it is tinted in their reports."""
    env = make_environment(None, template_dirs(installed()["conqueror"]))
    contexts = ruleset_report.report_contexts("conqueror", turns=3)
    parts = [turnpages.split(render_report_html(env, c)) for c in contexts]
    assert len({p.turn_html for p in parts}) == 1
    turn_html = parts[0].turn_html
    assert "Battles this turn" in turn_html and all("Battles this turn" not in p.seat_html for p in parts)
    battles = [e["data"] for e in contexts[0]["events"] if e["kind"] == "battle"]
    assert battles, "the robots fought no battle by turn 3"
    for b in battles:
        assert f'data-reader="{b["attacker"]} {b["defender"]}"' in turn_html


@pytest.mark.parametrize("ruleset_name", ["conqueror", "clash", "empires"])
def test_the_events_every_seat_sees_are_one_of_the_turns_pages(ruleset_name):
    """An event every seat sees (Event.seats None) is laid out once a turn with the turn's pages;
    one only some seats see stays in the seat's own pages, under "What happened to you"."""
    env = make_environment(None, template_dirs(installed()[ruleset_name]))
    contexts = ruleset_report.report_contexts(ruleset_name, turns=3)
    parts = [turnpages.split(render_report_html(env, c)) for c in contexts]
    assert len({p.turn_html for p in parts}) == 1
    turn_html = parts[0].turn_html
    public = {e["data"]["text"] for e in contexts[0]["events"] if e["public"]}
    assert public, f"no event of {ruleset_name}'s turn 3 is public"
    assert "What happened this turn" in turn_html
    for context, part in zip(contexts, parts):
        own = [e["data"]["text"] for e in context["events"] if not e["public"]]
        assert all(str(escape(text)) in turn_html and str(escape(text)) not in part.seat_html for text in public)
        assert all(str(escape(text)) in part.seat_html and str(escape(text)) not in turn_html for text in own)
        assert ("What happened to you" in part.seat_html) == bool(own)
    # A public battle's row names its two sides, to be tinted in their reports.
    for b in (e["data"] for e in contexts[0]["events"] if e["public"] and e["kind"] == "battle"):
        assert f'<tr class="event-battle" data-reader="{b["attacker"]} {b["defender"]}">' in turn_html


def test_an_empty_article_of_the_seats_own_is_not_taken_for_a_turn_page(layouts, clash_turn):
    """The turn's tags go where its pages stand (gm.render.structure), even beside an empty
    <article> of a GM's own template: that one keeps its place and the turn's heading is read."""
    _, fetcher = clash_turn
    html = (
        '<html lang="en"><head><meta charset="utf-8"><title>BR</title></head><body><h1>Report of BR</h1>'
        "<article></article><!--gm:turn--><h2>The turn</h2><p>Shared</p><!--/gm:turn-->"
        '<!--gm:turn-pages reader="BR"--><p>Orders</p></body></html>'
    )
    with pikepdf.open(io.BytesIO(to_pdf(html, fetcher))) as pdf:
        tags = [str(kid.S) for kid in pdf.Root.StructTreeRoot.K[0].K]
    assert tags.count("/Art") == 1 and tags.index("/Art") < tags.index("/H2") < tags.index("/P", tags.index("/H2") + 1)


@pytest.mark.parametrize("filler_mm", [40, 100, 160, 220])
def test_the_turns_text_fills_the_page_under_the_seats_wherever_that_ends(layouts, clash_turn, filler_mm):
    """The turn's text was laid out as whole pages a third short on the first: under a seat's text
    that ended below a page's top third it began on the next page, which it left a third empty
    (looks9, looks10). In strips, it starts under the seat's text on the same page wherever that
    ends (a strip's height under it: on the next page only when that ends lower), and no page it
    crosses is left emptier at its foot than a strip's height."""
    from . import report_pages

    _, fetcher = clash_turn
    lines = "".join(f"<p>Line {n} of the turn</p>" for n in range(1, 121))
    html = (
        '<html lang="en"><head><meta charset="utf-8"><style>@page { size: A4; margin: 17mm 16mm 18mm }</style>'
        f"</head><body><h1>Report of BR</h1><div style='height: {filler_mm}mm'></div><p>The seat's last line</p>"
        f'<!--gm:turn-->{lines}<!--/gm:turn--><!--gm:turn-pages reader="BR"--><p>Orders</p></body></html>'
    )
    pdf = to_pdf(html, fetcher)
    text = subprocess.run(["pdftotext", "-layout", "-", "-"], input=pdf, check=True, capture_output=True).stdout
    pages = text.decode().split("\f")[:-1]
    first = next(n for n, page in enumerate(pages) if "The seat's last line" in page)
    assert "Line 1 of the turn" in pages[first] + pages[first + 1]  # the next page only where no strip fits
    assert "Line 1 of the turn" in pages[first] or filler_mm > 150
    fills = report_pages.fills(pdf)
    full = 1 - (turnpages.STRIP_MM + 5) / 262  # a strip, and the margin under the text above it
    assert all(fill >= full for fill in fills[:-1]), fills


def test_a_table_goes_on_from_strip_to_strip_with_no_gap_between_its_rows(layouts, clash_turn, tmp_path):
    """A table's row group cut at a strip's foot where a row's break rule (report.css: a table's
    last two rows together) moved the cut up a row was laid out as tall as before: laid over the
    seat's page, a row's height of empty table stood where the strips met (looks10, Conqueror's
    scores). Rows of a table follow each other at one pitch on every page."""
    _, fetcher = clash_turn
    tables = "".join(
        "<p>A line before the table.</p>" * k
        + "<table class=data><thead><tr><th>Seat</th><th class=num>VP</th></tr></thead><tbody>"
        + "".join(f"<tr><td>T{k}R{n}</td><td class=num>{n}</td></tr>" for n in range(1, 9))
        + "</tbody></table>"
        for k in range(12)
    )
    found = words_of_turn(tables, fetcher, tmp_path, r'yMin="([\d.]+)"[^>]*>T(\d+)R\d<')
    rows = [(page, int(table), float(y)) for page, (y, table) in found]
    assert len(rows) == 12 * 8
    pitches = [round(b[2] - a[2], 1) for a, b in zip(rows, rows[1:], strict=False) if a[:2] == b[:2]]
    assert max(pitches) - min(pitches) < 1, Counter(pitches)


def test_text_keeps_its_spacing_where_two_strips_meet(layouts, clash_turn, tmp_path):
    """A strip's head loses its first box's top margin (a page's head takes it) and its height
    leaves out its last box's bottom margin: laid over the seat's page, a heading that began a
    strip stood against the text above it (looks10: Minecraft EMPIRES' "What happened this turn"
    under its table of cities). The seat's blocks carry both margins, so the texts are spaced
    where the strips meet as anywhere else: each line at one pitch from the line above it."""
    _, fetcher = clash_turn
    body = "".join(f"<h2>Head{n:03d}</h2>" if n % 7 == 0 else f"<p>Line{n:03d}</p>" for n in range(1, 151))
    found = words_of_turn(body, fetcher, tmp_path, r'yMin="([\d.]+)"[^>]*>(Head|Line)(\d{3})<')
    pitches: dict[tuple[str, str], set[float]] = {}
    for (page0, (y0, above, n0)), (page1, (y1, kind, n1)) in zip(found, found[1:], strict=False):
        if page0 == page1 and int(n1) == int(n0) + 1:
            pitches.setdefault((above, kind), set()).add(round(float(y1) - float(y0)))
    assert set(pitches) == {("Line", "Line"), ("Line", "Head"), ("Head", "Line")}
    assert all(len(found) == 1 for found in pitches.values()), pitches
