"""A turn's map drawn once and shared by every seat's report: one picture, and each seat's own marks over it.

The whole board goes where its labels can be read: in the first page's flow if they are large
enough there, else on a page of its own, A4, A4 landscape or A3 (`sheet_for`). Each seat also
gets an enlarged map of its own region and neighbours (gm.render.regionmap).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from gm.core.arrows import Arrow, arrows as arrows_of
from gm.render import maptext
from gm.render.arrows import arrow_key
from gm.render.pictures import TEXT_WIDTH_MM, map_picture, picture_figure
from gm.render.regionmap import region_section
from gm.render.svgmap import CODE_SIZE, map_metrics, svg_map, svg_overlay

# A map in the first page's flow taller than this is drawn narrower, so it fits under the masthead.
MAX_HEIGHT_MM = 195
# A territory's code must print at least this large (points) for the map to count as readable:
# the size of a road atlas's smaller place names.
MIN_LABEL_PT = 7.0
_PT_MM = 25.4 / 72
# The first page of a seat with no enlarged region (it holds nothing, or its areas and their
# neighbours spread over most of the board) while the whole board has a page of its own at the end
# (report.html's board_sheet): without it, page 1 has no map and no word of where one is.
WHERE_THE_MAP_IS = Markup(
    '<p class="hint map-where">The whole map, with this turn\'s moves and attacks you may see, is on a page'
    " of its own at the end of this report.</p>"
)


@dataclass(frozen=True)
class Sheet:
    """Where a whole-board map may go: page, the CSS named page it takes ("" for the flow of the
    first page, under the masthead); width_mm and height_mm, the room there for the figure."""

    page: str
    width_mm: float
    height_mm: float


# In order of preference; report.css's margins (16 mm at the sides, 35 mm top and bottom) and
# 22 mm for the heading and the key under the map are taken off each page size.
SHEETS = (
    Sheet("", TEXT_WIDTH_MM, MAX_HEIGHT_MM),
    Sheet("map-a4", TEXT_WIDTH_MM, 240),
    Sheet("map-a4-landscape", 265, 155),
    Sheet("map-a3", 265, 363),
    Sheet("map-a3-landscape", 388, 240),
)


def sheet_for(view_map: Mapping[str, Any], seats: Sequence[Mapping[str, Any]] | None = None) -> tuple[Sheet, float]:
    """The first sheet on which the map's codes print at MIN_LABEL_PT or more (else the one
    where they print largest), and the figure's width there in mm."""
    width, height, radius = map_metrics(view_map, seats)
    best: tuple[float, Sheet, float] | None = None
    for sheet in SHEETS:
        figure_mm = min(sheet.width_mm, sheet.height_mm * width / height)
        label_pt = radius * CODE_SIZE * figure_mm / width / _PT_MM
        if label_pt >= MIN_LABEL_PT:
            return sheet, figure_mm
        if best is None or label_pt > best[0]:
            best = (label_pt, sheet, figure_mm)
    assert best is not None
    return best[1], best[2]


def map_sections(
    view_map: Mapping[str, Any],
    you: str | None,
    names: Mapping[str, str] | None = None,
    events: Iterable[Mapping[str, Any]] = (),
    seats: Sequence[Mapping[str, Any]] | None = None,
) -> Markup:
    """A seat's maps for the top of its report: the whole board if it reads well in the first
    page's flow, and the enlarged map of the seat's region, with this turn's moves and attacks
    it may see (from `events`, the events of its report) as arrows. A board that needs a page
    of its own comes later, from board_sheet; a seat without a region is told so (WHERE_THE_MAP_IS)."""
    moves = arrows_of(events)
    sheet, figure_mm = sheet_for(view_map, seats)
    region = region_section(view_map, you, names, moves, seats, figure_mm / _map_width(view_map))
    if sheet.page:
        return region or WHERE_THE_MAP_IS
    figure = map_figure(view_map, you, names, moves, seats, figure_mm)
    return Markup('<section class="map">') + figure + arrow_key(moves) + Markup("</section>") + region


def board_sheet(
    view_map: Mapping[str, Any],
    you: str | None,
    names: Mapping[str, str] | None = None,
    events: Iterable[Mapping[str, Any]] = (),
    seats: Sequence[Mapping[str, Any]] | None = None,
) -> Markup:
    """The whole board on a page of its own (A4, A4 landscape or A3: sheet_for), for a board too
    large to read in the first page's flow; nothing for one that is not."""
    sheet, figure_mm = sheet_for(view_map, seats)
    if not sheet.page:
        return Markup("")
    moves = arrows_of(events)
    figure = map_figure(view_map, you, names, moves, seats, figure_mm)
    return (
        Markup(f'<section class="map map-sheet {sheet.page}"><h2>The whole map</h2>')
        + figure
        + arrow_key(moves)
        + Markup("</section>")
    )


def map_figure(
    view_map: Mapping[str, Any],
    you: str | None,
    names: Mapping[str, str] | None = None,
    arrows: Iterable[Arrow] = (),
    seats: Sequence[Mapping[str, Any]] | None = None,
    figure_mm: float | None = None,
) -> Markup:
    """The map for one seat's report: the turn's shared picture as a data: URL, with the seat's
    outlines and arrows drawn over it as a small SVG. Every seat whose view shows the same map
    gets the same picture, drawn once (seats whose views differ, e.g. in fog of war, get their
    own). figure_mm: its width (default: as wide as fits the first page)."""
    if figure_mm is None:
        width, height, _ = map_metrics(view_map, seats)
        figure_mm = min(TEXT_WIDTH_MM, MAX_HEIGHT_MM * width / height)
    url, width, height = map_picture(str(svg_map(view_map, you, names, shared=True, seats=seats)), figure_mm)
    overlay = svg_overlay(view_map, you, names, arrows, seats) if you is not None else Markup("")
    alt = maptext.territories(view_map, you, names, title="Map of the whole game", seats=seats)
    return picture_figure(url, figure_mm, width, height, alt, overlay)


def _map_width(view_map: Mapping[str, Any]) -> float:
    return float(view_map["width"])
