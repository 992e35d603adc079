"""The turn's pages: sections every seat of a turn reads alike, laid out once and laid over each seat's PDF.

A report template marks such sections (the scores, a ruleset's table of every seat) with
TURN_START ... TURN_END, and says where their pages go with a `<!--gm:turn-pages reader="BR"-->`
comment that names the reader. The render worker takes the marked sections out of the seat's HTML
into a document of their own, the turn's pages, laid out once for every seat whose marked text
is the same (once per run: the render pool hands them from the worker that made them to the
others) (the key is the text itself, so nothing of one seat can reach another: a section
that differs per seat just makes a document per seat).

The turn's document is laid out in strips a quarter of a page's text tall (STRIP_MM), each on a
page of its own. The seat's own document gets, where that comment stood, an empty block as tall
as each strip's text, kept whole; they flow with the seat's text like any block, as many to a
page as fit, so the turn's text starts right under the seat's and no more than a strip's height
is left empty at a page's foot, in one layout of each (a turn laid out as whole pages left a
third of a page or more empty: its first page fitted under a seat's text only where that ended
in the page's top third, and was a third short everywhere else). The blocks carry the seat's
running header and page numbers, and the strips are laid over them in the PDF (pikepdf). A
table's header row is not repeated at each strip (it would stand mid-page). A row that names
seats (data-reader="BR FR") is tinted on the page of each seat it names, drawn over the shared
text with a multiply blend, so the reader finds their own row as in the seat's own tables
(tinted; the bold those have cannot be laid over).

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
# A strip: a quarter of the text's height on report.css's A4 page (297 mm less its 17 mm and 18 mm
# margins: 262 mm), so that four fill a page. Its page keeps the report's size and side margins
# (the text is as wide as the seat's), with no running header or page number (the seat's blocks
# under it carry them), and no table's header row repeated at the head of each strip.
STRIP_MM = 65.5
_STRIP_PAGE = (
    f"<style>@page {{ margin-top: 0; margin-bottom: {297 - STRIP_MM}mm; "
    "@top-left { content: none; } @top-right { content: none; } "
    "@bottom-left { content: none; } @bottom-right { content: none; } } "
    "thead { display: table-row-group; break-after: avoid; } thead tr { break-after: avoid; }</style>"
)
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
        f'{styles}\n{_STRIP_PAGE}\n</head>\n<body class="turn-pages">\n' + "\n".join(sections) + "\n</body>\n</html>\n"
    )


def _key(turn_html: str, base_url: str, asset_dirs: tuple[str, ...]) -> str:
    return hashlib.sha256("\0".join((turn_html, base_url, *_real(tuple(asset_dirs)))).encode()).hexdigest()


@functools.lru_cache(maxsize=16)
def _real(asset_dirs: tuple[str, ...]) -> tuple[str, ...]:
    """The folders as the worker's AssetFetcher has them (their real paths), looked up once a
    process: a few system calls a folder, for every job of a run-due."""
    return tuple(os.path.realpath(d) for d in asset_dirs)


def blank_pages(heights: tuple[float, ...], margins: tuple[tuple[float, float], ...] = ()) -> str:
    """The HTML of an empty block for each of the turn's strips, as tall as its text (CSS px),
    for where the turn-pages comment stood; each kept whole, and each with an id so that where it
    lands can be found in the laid-out document (Page.anchors). They flow with the seat's text,
    the first under it where it fits, the seat's text on below the last. Each is an <article>: in
    a tagged PDF its empty Art tag marks where the strip's tags go (gm.render.structure)."""
    # Styled in place, so that a GM's own sheet cannot split one or give it margins.
    style = "display: block; margin: 0; padding: 0; border: 0; break-inside: avoid"  # margins: a strip's (strips)
    margins = margins or ((0.0, 0.0),) * len(heights)
    return "".join(
        f'<article class="turn-page" id="{BLANK_ID}{n}" style="{style}; margin-top: {above:.2f}px; '
        f'margin-bottom: {below:.2f}px; height: {height:.2f}px"></article>'
        for n, (height, (above, below)) in enumerate(zip(heights, margins, strict=True), 1)
    )


def place_blank_pages(seat_html: str, turn: TurnPages) -> str:
    """The seat's HTML with the blocks its turn strips go over (blank_pages) where they belong."""
    heights = turn.heights or (1.0,) * turn.pages
    return _PLACE.sub(lambda _: blank_pages(heights, turn.margins), seat_html, count=1)


def strips(document: Document) -> tuple[tuple[float, ...], float, float, tuple[tuple[float, float], ...]]:
    """(each strip's text height, the left and top of a strip's text, each strip's margins above
    and below its text: _margin) of the turn's laid-out strips, in CSS px from
    the page's edges. The seat's blocks take the margins, so that they collapse between two
    strips as they would have between the two texts."""
    pages = [page._page_box for page in document.pages]
    going_on = [_elements(page) for page in pages[1:]] + [set()]
    heights = tuple(
        _text_bottom(page, later) - page.content_box_y() for page, later in zip(pages, going_on, strict=True)
    )
    left, top = (pages[0].content_box_x(), pages[0].content_box_y()) if pages else (0.0, 0.0)
    heads = (0.0, *(_margin(page, _elements(before), "top") for before, page in zip(pages, pages[1:])))
    feet = tuple(_margin(page, later, "bottom") for page, later in zip(pages, going_on, strict=True))
    return heights, left, top, tuple(zip(heads, feet, strict=True))


def _margin(page_box: Any, others: set[int], side: str) -> float:
    """A strip's margin at one side (CSS px), "top" or "bottom": at its head the margin its first
    text lost there (a page's head takes it), at its foot the one its height leaves out. Of the
    boxes that begin on the page (at its head) or end on it (at its foot), not of an element of
    `others` (the page before, or after), down their first or last children, the largest (they
    collapse), up to one with a border or padding on that side."""
    found, box = 0.0, page_box.children[0] if page_box.children else None
    while box is not None and type(box).__name__ != "LineBox":
        if getattr(box, "element", None) is not None and id(box.element) not in others:
            margin = box.style[f"margin_{side}"]
            if margin.unit == "px":
                found = max(found, float(margin.value))
            if getattr(box, f"border_{side}_width") or getattr(box, f"padding_{side}"):
                break
        children = getattr(box, "children", None)
        box = (children[0] if side == "top" else children[-1]) if children else None
    return found


def _elements(page_box: Any) -> set[int]:
    """The elements a page has boxes of (by id: each box of an element keeps the same one)."""
    return {id(box.element) for box in page_box.descendants() if getattr(box, "element", None) is not None}


def _text_bottom(box: Any, going_on: set[int]) -> float:
    """How far down the page a box's text reaches (CSS px from the top edge), without its bottom
    margin. A box whose element goes on in the next strip (`going_on`) may be laid out taller
    than its text (down to the page's foot, or with the row that went on): its children say how
    far it reaches; a line is as tall as its text."""
    children = getattr(box, "children", None)
    element = getattr(box, "element", None)
    split = element is None or id(element) in going_on
    if type(box).__name__ == "LineBox" or not children or not split:
        bottom: float = box.position_y + box.margin_height() - box.margin_bottom
        return bottom
    return max(_text_bottom(child, going_on) for child in children)


def blank_places(document: Document, count: int) -> list[tuple[int, float, float]]:
    """Where each of the `count` blocks of a laid-out seat document stands: (page index, left,
    top), in CSS px from the page's edges."""
    found: dict[str, tuple[int, float, float]] = {}
    for number, page in enumerate(document.pages):
        for name, where in page.anchors.items():
            if name.startswith(BLANK_ID):
                found[name] = (number, where[0], where[1])
    return [found[f"{BLANK_ID}{n}"] for n in range(1, count + 1)]


@dataclass(frozen=True)
class TurnPages:
    """The turn's strips laid out and written: their key (Split.key), the PDF (a page a strip),
    how many strips, and per seat code the rectangles of the rows that name it, as (strip index,
    x, y, width, height) in PDF points from its page's lower left corner; heights, left, top and
    margins as strips() gives them."""

    key: str
    pdf: bytes
    pages: int
    rows: dict[str, tuple[Rect, ...]]
    heights: tuple[float, ...] = ()
    left: float = 0.0
    top: float = 0.0
    margins: tuple[tuple[float, float], ...] = ()


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


def lay_over(
    seat_pdf: bytes, turn: TurnPages, places: list[tuple[int, float, float]], readers: frozenset[str]
) -> bytes:
    """The seat's PDF with each of the turn's strips laid over its block (places: blank_places),
    and the reader's rows tinted; a tagged report gets the turn's tags too (gm.render.structure)."""
    import pikepdf

    from gm.render import structure

    if len(places) != turn.pages:
        raise RuntimeError(
            f"the report's turn pages did not fit: {turn.pages} strip(s) to lay over {len(places)} block(s)"
        )
    blanks = [number for number, _, _ in places]
    with pikepdf.open(io.BytesIO(seat_pdf)) as seat, pikepdf.open(io.BytesIO(turn.pdf)) as shared:
        for index, number in enumerate(blanks):
            if seat.pages[number].mediabox != shared.pages[index].mediabox:
                raise RuntimeError(f"page {number + 1} of the report is not the size of the turn strip it carries")
        if structure.is_tagged(seat) and structure.turn_forms(shared) is not None:
            forms = structure.graft(seat, shared, blanks)
        else:
            forms = [seat.copy_foreign(shared.pages[index].as_form_xobject()) for index in range(len(blanks))]
        tints: dict[int, list[Rect]] = {}
        wrapped: set[int] = set()
        for index, ((number, x, y), form) in enumerate(zip(places, forms, strict=True)):
            page = seat.pages[number]
            # Named, not pikepdf's add_overlay: its resource names are random, and the same
            # report must give the same bytes. A name per strip: WeasyPrint's pages may share
            # one resource dictionary.
            name = f"/GmTurnPage{index + 1}"
            page.add_resource(form, pikepdf.Name.XObject, name=pikepdf.Name(name))
            right, up = (x - turn.left) * _PX_PT, (turn.top - y) * _PX_PT
            if number not in wrapped:  # the page's own drawing kept apart from the strips'
                page.contents_add(b"q\n", prepend=True)
                page.contents_add(b"\nQ\n")
                wrapped.add(number)
            page.contents_add(f"q 1 0 0 1 {right:.2f} {up:.2f} cm {name} Do Q\n".encode("ascii"))
            for code in sorted(readers):
                tints.setdefault(number, []).extend(
                    (n, rx + right, ry + up, w, h) for n, rx, ry, w, h in turn.rows.get(code, ()) if n == index
                )
        for number, rects in sorted(tints.items()):
            if rects:
                _tint(seat, seat.pages[number], rects)
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
