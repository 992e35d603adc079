"""How report.css lays out a report's pages: a heading and the hint under it never stand alone at the
foot of a page (looks6 saw "Every piece of the others you see" and its hint end page 2 of an
Imperials report, the pieces on page 3), and a long name without spaces stays in its table cell
(a player named with 60 letters and no space ran over the VP and money columns of every table),
and Empires' roundup line stays with its table; a Conqueror run of duels stays on one line."""

from __future__ import annotations

from weasyprint import HTML

from gm.render import turnpages
from gm.render.environment import make_environment, render_report_html, shared_templates_dir
from gm.rulesets import installed, template_dirs

from . import ruleset_report


def _boxes(html: str):
    """(page number from 0, element id, box) for every box of an element with an id."""
    for number, page in enumerate(HTML(string=html).render().pages):
        for box in page._page_box.descendants():
            element = getattr(box, "element", None)
            if element is not None and element.get("id"):
                yield number, element.get("id"), box


def _pages_of(html: str) -> dict[str, set[int]]:
    """Element id -> the pages (from 0) its boxes lie on."""
    found: dict[str, set[int]] = {}
    for number, name, _ in _boxes(html):
        found.setdefault(name, set()).add(number)
    return found


def _css() -> str:
    return (shared_templates_dir() / "report.css").read_text()


def test_a_heading_and_its_hint_go_to_the_next_page_with_what_they_introduce():
    css = _css()
    # Filler of every height that puts the heading and its hint near the foot of the first page.
    for filler_mm in range(215, 250, 5):
        html = (
            f"<html><head><style>{css}</style></head><body><div style='height: {filler_mm}mm'></div>"
            "<h2 id=title>Every piece of the others you see</h2>"
            "<p class=hint id=hint>Each tile is written as its letter, what it yields and its number.</p>"
            "<h3 id=holder>Red · 2 pieces</h3><pre class=known id=places>1\n2\n3\n4\n5</pre></body></html>"
        )
        pages = _pages_of(html)
        assert pages["title"] == pages["hint"] == {min(pages["holder"])}, filler_mm


def _laid_out(body: str) -> dict[str, dict[str, list]]:
    """Element id -> its boxes by kind (TableCellBox, LineBox, ...), for a page of `body` with report.css."""
    found: dict[str, dict[str, list]] = {}
    for _, name, box in _boxes(f"<html><head><style>{_css()}</style></head><body>{body}</body></html>"):
        found.setdefault(name, {}).setdefault(type(box).__name__, []).append(box)
    return found


def test_a_long_name_without_spaces_stays_in_its_cell_and_on_the_page():
    """In a table of the report (the Victory points table) and in the masthead's facts."""
    boxes = _laid_out(
        "<table class=facts><tr><th>Seat</th><th>Player</th><th>Resolved</th><th>Next orders due</th></tr>"
        f"<tr><td id=seat>BR</td><td class=player>{'W' * 60}</td><td>2026-11-29 13:05 UTC</td>"
        "<td id=due>Fri 2026-12-04 18:00 UTC</td></tr></table><p id=text>x</p><table class=data>"
        "<thead><tr><th>#</th><th>Seat</th><th>Nation</th><th>Player</th><th class=num>VP</th></tr></thead>"
        f"<tbody><tr><td>1</td><td>BR</td><td>Britain</td><td id=name>{'W' * 60}</td><td class=num id=vp>12</td></tr>"
        "</tbody></table>"
    )
    cell, vp = boxes["name"]["TableCellBox"][0], boxes["vp"]["TableCellBox"][0]
    lines = boxes["name"]["LineBox"]
    assert len(lines) > 1  # the name wraps
    assert all(line.position_x + line.width <= cell.position_x + cell.border_width() for line in lines)
    assert cell.position_x + cell.border_width() <= vp.position_x
    text, due = boxes["text"]["BlockBox"][0], boxes["due"]["TableCellBox"][0]
    assert due.position_x + due.border_width() <= text.position_x + text.width + 0.01  # pt, for rounding
    # Only the name breaks: the seat code stays on one line.
    assert len(boxes["seat"]["LineBox"]) == 1


def _table_under(filler_mm: int, rows: str) -> str:
    """A page of report.css with a table of `rows` under its heading, `filler_mm` down the page."""
    return (
        f"<html><head><style>{_css()}</style></head><body><div style='height: {filler_mm}mm'></div>"
        f"<h3 id=title>Nations</h3><table class=data><thead><tr><th id=head>Nation</th><th class=num>Score</th></tr>"
        f"</thead><tbody>{rows}</tbody></table></body></html>"
    )


def test_a_table_never_leaves_its_first_or_last_row_alone_on_a_page():
    """Conqueror!'s Nations table of 16 rows began with one row at the foot of page 7 of a 16-seat
    report, its heading and header row above it, and the other 15 on page 8. Both ends of a table
    keep at least two rows together wherever the page break falls."""
    rows = "".join(f"<tr id=row{n}><td>Nation {n}</td><td class=num>{n}</td></tr>" for n in range(16))
    for filler_mm in range(150, 262, 3):
        pages = _pages_of(_table_under(filler_mm, rows))
        on = [min(pages[f"row{n}"]) for n in range(16)]
        assert on[0] == on[1] == min(pages["title"]), filler_mm
        assert on[14] == on[15], filler_mm


def test_a_table_breaks_after_any_row_but_its_first_and_before_any_but_its_last():
    """looks11 saw Conqueror!'s provinces table (six rows of two lines) go whole to page 3 and
    leave a quarter of page 2 empty: the keep rule held its first three rows together, not two.
    Wherever the page foot falls, the table breaks after its second row or any later one but the
    second to last, its header row repeated on the next page."""
    rows = "".join(f"<tr id=row{n}><td>Nation {n}<br>its line</td><td class=num>{n}</td></tr>" for n in range(8))
    starts = set()
    for filler_mm in range(140, 262, 2):
        pages = _pages_of(_table_under(filler_mm, rows))
        on = [min(pages[f"row{n}"]) for n in range(8)]
        if on[0] != on[-1]:
            first = on.index(on[-1])
            starts.add(first)
            assert pages["head"] == {on[0], on[-1]}, filler_mm  # the header row again over the rest
    assert starts == {2, 3, 4, 5, 6}, starts


def _first_pages_by_class(html: str) -> dict[str, int]:
    """Class name -> the first page (from 0) a box of an element with that class lies on."""
    found: dict[str, int] = {}
    for number, page in enumerate(HTML(string=html).render().pages):
        for box in page._page_box.descendants():
            element = getattr(box, "element", None)
            for name in (element.get("class") or "").split() if element is not None else ():
                found.setdefault(name, number)
    return found


def test_the_empires_roundup_line_goes_to_the_next_page_with_its_table():
    # looks7 saw "The roundup" and its line (leader, points target, census) end page 3 of an
    # Empires report, with more than a third of the page empty under them, and the table of
    # countries alone at the top of page 4.
    context = ruleset_report.report_context("empires")
    env = make_environment(None, template_dirs(installed()["empires"]))
    turn_html = turnpages.split(render_report_html(env, context)).turn_html
    head, roundup = turn_html.split("<h2>The roundup</h2>")
    body = head.split('<body class="turn-pages">')[0] + "<body>"
    for filler_mm in range(200, 250, 4):
        html = f"{body}<div style='height: {filler_mm}mm'></div><h2>The roundup</h2>{roundup}"
        pages = _first_pages_by_class(html)
        assert pages["roundup-head"] == pages["roundup"], filler_mm


def test_a_conqueror_run_of_duels_stays_on_one_line_in_its_column():
    """looks10 saw "3–7 DDADADDDAD" break as "DDADADDD / AD" in the battles table's Field duels
    column (20 mm): the letters could break anywhere (break-all). A run of ten duels now moves
    whole to the line under its tally; only a run wider than the column breaks."""
    context = ruleset_report.report_context("conqueror")
    battle = {
        "attacker": context["seat"],
        "attacker_losses": 7,
        "attacking": 7,
        "captured": False,
        "defender": "neutral",
        "defender_losses": 3,
        "defending": 4,
        "field": 4,
        "fort": 0,
        "from": "BUR",
        "garrison": 0,
        "to": "AQU",
        "text": "A battle.",
    }
    runs = {"DDADADDDAD": "", "ADADDADDAA": "DADA", "AD" * 20: ""}
    context["events"] = [
        {"kind": "battle", "public": True, "data": dict(battle, field_duels=field, siege_duels=siege)}
        for field, siege in runs.items()
    ]
    env = make_environment(None, template_dirs(installed()["conqueror"]))
    html = turnpages.split(render_report_html(env, context)).turn_html
    texts = [
        box.text
        for page in HTML(string=html).render().pages
        for box in page._page_box.descendants()
        if type(box).__name__ == "TextBox" and set(box.text.strip()) <= {"A", "D"} and box.text.strip()
    ]
    assert "DDADADDDAD" in texts and "ADADDADDAA" in texts and "DADA" in texts, texts
    assert "".join(t for t in texts if t not in ("DDADADDDAD", "ADADDADDAA", "DADA")) == "AD" * 20  # broken, whole


def _pages_by_class(html: str, name: str) -> set[int]:
    """The pages (from 0) the boxes of elements with class `name` lie on."""
    return {
        number
        for number, page in enumerate(HTML(string=html).render().pages)
        for box in page._page_box.descendants()
        if getattr(box, "element", None) is not None and name in (box.element.get("class") or "").split()
    }


def test_the_minecraft_world_maps_key_in_words_is_never_cut_across_a_page():
    """looks10 saw the world map's hint ("Blocks are written x,y ...") begin at the foot of page 1
    and end at the head of page 2. Whatever stands above the map, it is whole on one page."""
    context = ruleset_report.report_context("mcempires")
    env = make_environment(None, template_dirs(installed()["mcempires"]))
    seat_html = turnpages.split(render_report_html(env, context)).seat_html
    head, world = seat_html.split('<section class="mc-world">')
    world = world.replace('<p class="hint">', '<p class="hint world-hint">', 1)
    for filler_mm in range(0, 36, 3):
        html = f"{head}<div style='height: {filler_mm}mm'></div><section class=\"mc-world\">{world}"
        assert len(_pages_by_class(html, "world-hint")) == 1, filler_mm
