"""Where a report's pages break, with report.css: a heading and the hint under it never stand alone
at the foot of a page (looks6 saw "Every piece of the others you see" and its hint end page 2 of
an Imperials report, the pieces on page 3)."""

from __future__ import annotations

from weasyprint import HTML

from gm.render.environment import shared_templates_dir


def _pages_of(html: str) -> dict[str, set[int]]:
    """Element id -> the pages (from 0) its boxes lie on."""
    found: dict[str, set[int]] = {}
    for number, page in enumerate(HTML(string=html).render().pages):
        for box in page._page_box.descendants():
            element = getattr(box, "element", None)
            if element is not None and element.get("id"):
                found.setdefault(element.get("id"), set()).add(number)
    return found


def test_a_heading_and_its_hint_go_to_the_next_page_with_what_they_introduce():
    css = (shared_templates_dir() / "report.css").read_text()
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
