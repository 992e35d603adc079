"""The turn's pages: sections every seat of a turn reads alike, laid out once and laid over each seat's PDF.

A report template marks such sections (the scores, a ruleset's table of every seat) with
TURN_START ... TURN_END, and says where their pages go with a `<!--gm:turn-pages reader="BR"-->`
comment that names the reader. The render worker takes the marked sections out of the seat's HTML
into a document of their own, the turn's pages, laid out once for every seat whose marked text
is the same (once per run: the render pool hands them from the worker that made them to the
others) (the key is the text itself, so nothing of one seat can reach another: a section
that differs per seat just makes a document per seat). The seat's own document gets as many
blank pages where that comment stood; they carry its running header and page numbers, and the
turn's pages are laid over them in the PDF (pikepdf). A row that names seats (data-reader="BR
FR") is tinted on the page of each seat it names, drawn over the shared page with a multiply
blend, so the reader finds their own row as in the seat's own tables (tinted; the bold those
have cannot be laid over).

A WeasyPrint layout costs about 1.5 ms of CPU per box of text (bench/README.md), so an Empires
turn of 16 seats pays for its table of every country once per worker instead of 16 times.

pikepdf (about 0.1 s to import) is imported inside the functions that lay the pages over: the
process that hands jobs to the render pool imports this module for the pages' keys.
"""

from __future__ import annotations

import functools
import hashlib
import io
import os
import re
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pikepdf
    from weasyprint import Document  # type: ignore[import-untyped]  # WeasyPrint has no types

TURN_START = "<!--gm:turn-->"
TURN_END = "<!--/gm:turn-->"
# <!--gm:turn-pages reader="BR"-->: where the turn's pages go in the seat's report, and whose it is.
_PLACE = re.compile(r'<!--gm:turn-pages reader="([^"<>]*)"-->')
_SECTION = re.compile(re.escape(TURN_START) + r"(.*?)" + re.escape(TURN_END), re.S)
_STYLE = re.compile(r"<style(?:\s[^>]*)?>.*?</style>", re.S | re.I)
BLANK_ID = "gm-turn-page-"
# The turn's pages carry no running header or page number: the seat's blank pages under them do.
_NO_MARGIN_BOXES = (
    "<style>@page { @top-left { content: none; } @top-right { content: none; } "
    "@bottom-left { content: none; } @bottom-right { content: none; } }</style>"
)
# The turn's text starts a third of the way down its first page (90 mm of an A4 page's 262),
# below this empty block, so that it fits under a seat's own text that ends in the page's top
# third (first_shift moves it up there); a seat whose text ends lower starts it on a page of its
# own, which leaves at most that third of the page empty.
LEAD_ID = "gm-turn-lead"
_LEAD = f'<div id="{LEAD_ID}" style="display: block; height: 90mm; margin: 0; padding: 0; border: 0"></div>'
# The reader's rows: the tint of a seat's own row in report.css (tr.you), multiplied over the
# page so the text on it stays as dark as it was.
TINT_RGB = (0xF1 / 255, 0xED / 255, 0xE3 / 255)
_PX_PT = 0.75  # WeasyPrint lays out in CSS pixels, 96 a inch; PDF points are 72

# Where a row fell: (page index, x, y, width, height) in PDF points from the page's lower left corner.
Rect = tuple[int, float, float, float, float]


@dataclass(frozen=True)
class Split:
    """A seat's report HTML taken apart: its own document (the turn-pages comment still in it), the turn's
    document, and the seat codes whose rows are the reader's."""

    seat_html: str
    turn_html: str
    readers: frozenset[str]

    def key(self, base_url: str, asset_dirs: tuple[str, ...]) -> str:
        """What names the turn's pages in every process: their HTML and what it is read with."""
        return _key(self.turn_html, base_url, asset_dirs)


def key_of(html: str, base_url: str, asset_dirs: tuple[str, ...]) -> str | None:
    """The key of a report's turn pages (Split.key), None if it has none: what the render pool
    asks of every job it is given, so the seat's own document is not made here."""
    if _PLACE.search(html) is None:
        return None
    sections = _SECTION.findall(html)
    return _key(_turn_html(html, sections), base_url, asset_dirs) if sections else None


def split(html: str) -> Split | None:
    """The report's turn sections taken out, or None when it marks none (a GM's own template)."""
    place = _PLACE.search(html)
    sections = _SECTION.findall(html)
    if place is None or not sections:
        return None
    return Split(_SECTION.sub("", html), _turn_html(html, sections), frozenset(place.group(1).split()))


def _turn_html(html: str, sections: list[str]) -> str:
    styles = "\n".join(_STYLE.findall(html))
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'{styles}\n{_NO_MARGIN_BOXES}\n</head>\n<body class="turn-pages">\n{_LEAD}\n'
        + "\n".join(sections)
        + "\n</body>\n</html>\n"
    )


def _key(turn_html: str, base_url: str, asset_dirs: tuple[str, ...]) -> str:
    return hashlib.sha256("\0".join((turn_html, base_url, *_real(tuple(asset_dirs)))).encode()).hexdigest()


@functools.lru_cache(maxsize=16)
def _real(asset_dirs: tuple[str, ...]) -> tuple[str, ...]:
    """The folders as the worker's AssetFetcher has them (their real paths), looked up once a
    process: a few system calls a folder, for every job of a run-due."""
    return tuple(os.path.realpath(d) for d in asset_dirs)


def blank_pages(count: int, first_height: float = 1.0, last_height: float = 1.0) -> str:
    """The HTML of `count` empty blocks, for where the turn-pages comment stood, one for each of
    the turn's pages; each carries an id so the page it lands on can be found in the laid-out
    document (Page.anchors). The turn's pages flow with the seat's text: the first block is as
    tall as the turn's text on its first page (first_height, CSS px) and stands where the seat's
    text ends, on the same page when it fits there; each other starts a page; the last is as tall
    as the turn's text on its last page (last_height), and the seat's text flows on below it.
    Each is an <article>: in a tagged PDF its empty Art tag marks where the turn's tags go
    (gm.render.structure)."""
    # Styled in place, so that a GM's own sheet cannot fold them into one page or split one.
    style = "display: block; margin: 0; padding: 0; border: 0; break-inside: avoid"
    blocks = []
    for n in range(1, count + 1):
        height = first_height if n == 1 else last_height if n == count else 1.0
        breaks = ("" if n == 1 else "; break-before: page") + ("; break-after: page" if n < count else "")
        blocks.append(f'<article class="turn-page" id="{BLANK_ID}{n}" style="{style}{breaks}; height: {height:.2f}px">')
        blocks.append("</article>")
    return "".join(blocks)


def place_blank_pages(seat_html: str, turn: TurnPages) -> str:
    """The seat's HTML with the blocks its turn pages go over (blank_pages) where they belong."""
    return _PLACE.sub(lambda _: blank_pages(turn.pages, turn.first_height, turn.last_height), seat_html, count=1)


def heights(document: Document) -> tuple[float, float, float]:
    """(first_top, first_height, last_height) of the turn's laid-out pages, in CSS px: where
    its text starts on the first page (below the lead) from the page's top edge, how tall it is
    there, and how far it reaches on the last page from the top of the page's content box."""
    first = document.pages[0]._page_box
    lead = next((box for box in first.descendants() if _id(box) == LEAD_ID), None)
    top = first.content_box_y() if lead is None else lead.position_y + lead.margin_height()
    first_height = _bottom(first) - top
    if len(document.pages) == 1:
        return top, first_height, first_height
    last = document.pages[-1]._page_box
    return top, first_height, _bottom(last) - last.content_box_y()


def _id(box: Any) -> str | None:
    element = getattr(box, "element", None)
    return None if element is None or getattr(box, "element_tag", None) != "div" else element.get("id")


def _bottom(page_box: Any) -> float:
    """How far down the page its text reaches (CSS px from the top edge)."""
    root = page_box.children[0] if page_box.children else None
    bottom: float = page_box.content_box_y() if root is None else root.position_y + root.margin_height()
    return bottom


def first_shift(document: Document, turn: TurnPages) -> float:
    """How far up (PDF points) the turn's first page is drawn, so that its text starts where the
    seat's first blank block stands (blank_pages) rather than half-way down the page."""
    name = f"{BLANK_ID}1"
    for page in document.pages:
        if name in page.anchors:
            shift: float = (turn.first_top - page.anchors[name][1]) * _PX_PT
            return shift
    return 0.0


def blank_page_numbers(document: Document) -> list[int]:
    """The indices of the pages of a laid-out seat document that hold a blank turn page."""
    return [i for i, page in enumerate(document.pages) if any(a.startswith(BLANK_ID) for a in page.anchors)]


@dataclass(frozen=True)
class TurnPages:
    """The turn's pages laid out and written: their key (Split.key), the PDF, how many pages, and per seat code the
    rectangles of the rows that name it, as (page index, x, y, width, height) in PDF points
    from the page's lower left corner; first_top, first_height and last_height as heights() gives them."""

    key: str
    pdf: bytes
    pages: int
    rows: dict[str, tuple[Rect, ...]]
    first_top: float = 0.0
    first_height: float = 1.0
    last_height: float = 1.0


def reader_rows(document: Document) -> dict[str, tuple[Rect, ...]]:
    """Where each seat's rows (data-reader) fell in a laid-out document, in PDF points."""
    found: dict[str, list[Rect]] = {}
    for number, page in enumerate(document.pages):
        page_height = page.height
        for box in page._page_box.descendants():
            element = getattr(box, "element", None)
            if element is None or getattr(box, "element_tag", None) != "tr" or not element.get("data-reader"):
                continue
            x, y = box.border_box_x(), box.border_box_y()
            width, height = box.border_width(), box.border_height()
            rect = (number, x * _PX_PT, (page_height - y - height) * _PX_PT, width * _PX_PT, height * _PX_PT)
            for code in element.get("data-reader").split():
                found.setdefault(code, []).append(rect)
    return {code: tuple(rects) for code, rects in found.items()}


class TurnPagesCache:
    """Turn pages by key (Split.key): those a worker laid out or was given with a job, or those
    a pool was given back; the last few are kept (a run-due renders at most two games at a time)."""

    KEEP = 8

    def __init__(self) -> None:
        self._kept: OrderedDict[str, TurnPages] = OrderedDict()

    def __contains__(self, key: str) -> bool:
        return key in self._kept

    def put(self, key: str, turn: TurnPages) -> None:
        self._kept[key] = turn
        self._kept.move_to_end(key)
        while len(self._kept) > self.KEEP:
            self._kept.popitem(last=False)

    def get(self, key: str) -> TurnPages | None:
        """The kept pages of `key`, None if there are none."""
        if key not in self._kept:
            return None
        self._kept.move_to_end(key)
        return self._kept[key]


def lay_over(seat_pdf: bytes, turn: TurnPages, blanks: list[int], readers: frozenset[str], shift: float = 0.0) -> bytes:
    """The seat's PDF with the turn's pages laid over its blank ones, the first moved up by
    `shift` points (first_shift), and its rows tinted; a tagged report gets the turn's tags too
    (gm.render.structure)."""
    import pikepdf

    from gm.render import structure

    if len(blanks) != turn.pages:
        raise RuntimeError(
            f"the report's turn pages did not fit: {turn.pages} page(s) to lay over {len(blanks)} blank one(s)"
        )
    with pikepdf.open(io.BytesIO(seat_pdf)) as seat, pikepdf.open(io.BytesIO(turn.pdf)) as shared:
        for index, number in enumerate(blanks):
            if seat.pages[number].mediabox != shared.pages[index].mediabox:
                raise RuntimeError(f"page {number + 1} of the report is not the size of the turn page it carries")
        if structure.is_tagged(seat) and structure.turn_forms(shared) is not None:
            forms = structure.graft(seat, shared, blanks)
        else:
            forms = [seat.copy_foreign(shared.pages[index].as_form_xobject()) for index in range(len(blanks))]
        for index, (number, form) in enumerate(zip(blanks, forms, strict=True)):
            page = seat.pages[number]
            # Named, not pikepdf's add_overlay: its resource names are random, and the same
            # report must give the same bytes. A name per turn page: WeasyPrint's pages may
            # share one resource dictionary.
            name = f"/GmTurnPage{index + 1}"
            page.add_resource(form, pikepdf.Name.XObject, name=pikepdf.Name(name))
            up = shift if index == 0 else 0.0
            page.contents_add(b"q\n", prepend=True)
            page.contents_add(f"\nQ\nq 1 0 0 1 0 {up:.2f} cm {name} Do Q\n".encode("ascii"))
            rects = [r for code in sorted(readers) for r in turn.rows.get(code, ()) if r[0] == index]
            if rects:
                _tint(seat, page, [(n, x, y + up, w, h) for n, x, y, w, h in rects])
        out = io.BytesIO()
        # deterministic_id: the file's /ID from its content, so the same report gives the same bytes.
        seat.save(out, deterministic_id=True)
    return out.getvalue()


def _tint(pdf: pikepdf.Pdf, page: pikepdf.Page, rects: list[Rect]) -> None:
    import pikepdf

    state = page.add_resource(
        pikepdf.Dictionary(Type=pikepdf.Name.ExtGState, BM=pikepdf.Name.Multiply),
        pikepdf.Name.ExtGState,
        name=pikepdf.Name("/GmTint"),
    )
    red, green, blue = TINT_RGB
    paths = "".join(f"{x:.2f} {y:.2f} {w:.2f} {h:.2f} re\n" for _, x, y, w, h in rects)
    # An artifact: in a tagged report the tint is no content a screen reader should read.
    content = f"/Artifact BMC q {state} gs {red:.4f} {green:.4f} {blue:.4f} rg\n{paths}f Q EMC\n"
    page.contents_add(pikepdf.Stream(pdf, content.encode("ascii")), prepend=False)
