"""A turn's map drawn once and shared by every seat's report: one picture, and each seat's own marks over it.

The whole board goes where its labels can be read: in the first page's flow if they are large
enough there, else on a page of its own, A4, A4 landscape or A3 (`sheet_for`). Each seat also
gets an enlarged map of its own region and neighbours (gm.render.regionmap).
"""

from __future__ import annotations

import base64
import hashlib
import io
import sys
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from markupsafe import Markup, escape

from gm.core.arrows import Arrow, arrows as arrows_of
from gm.render import maptext, pictures
from gm.render.svgmap import CODE_SIZE, map_metrics, svg_map, svg_overlay

# The picture's resolution: labels of the 215-area Empires map stay sharp in print and at 200 %
# on screen. Its width is the page's text width (A4, 16 mm margins) or the sheet's.
PICTURE_DPI = 200
TEXT_WIDTH_MM = 178
# A picture is never wider than this: an A3 sheet's board (codes at 9 points or more) is drawn
# at about 150 dpi, so a report mail carries 313 KB of map rather than 461.
MAX_PIXELS = 1600
# A map in the first page's flow taller than this is drawn narrower, so it fits under the masthead.
MAX_HEIGHT_MM = 195
# A territory's code must print at least this large (points) for the map to count as readable:
# the size of a road atlas's smaller place names.
MIN_LABEL_PT = 7.0
_PT_MM = 25.4 / 72

_pictures: OrderedDict[str, tuple[str, int, int]] = OrderedDict()
_KEEP = 16  # pictures kept in a process: a run-due renders one game's turn after another


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


def sheet_for(view_map: Mapping, seats: Sequence[Mapping] | None = None) -> tuple[Sheet, float]:
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
    view_map: Mapping,
    you: str | None,
    names: Mapping[str, str] | None = None,
    events: Iterable[Mapping] = (),
    seats: Sequence[Mapping] | None = None,
) -> Markup:
    """A seat's maps for the top of its report: the whole board if it reads well in the first
    page's flow, and the enlarged map of the seat's region, with this turn's moves and attacks
    it may see (from `events`, the events of its report) as arrows. A board that needs a page
    of its own comes later, from board_sheet."""
    from gm.render.regionmap import region_section

    moves = arrows_of(events)
    sheet, figure_mm = sheet_for(view_map, seats)
    region = region_section(view_map, you, names, moves, seats, figure_mm / _map_width(view_map))
    if sheet.page:
        return region
    figure = map_figure(view_map, you, names, moves, seats, figure_mm)
    return Markup('<section class="map">') + figure + arrow_key(moves) + Markup("</section>") + region


def board_sheet(
    view_map: Mapping,
    you: str | None,
    names: Mapping[str, str] | None = None,
    events: Iterable[Mapping] = (),
    seats: Sequence[Mapping] | None = None,
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


def arrow_key(moves: Sequence[Arrow]) -> Markup:
    """What the arrows mean, under a map that has any."""
    if not moves:
        return Markup("")
    return Markup(
        '<p class="map-key">Arrows: this turn\'s moves you may see, in the colour of who moved; '
        "attacks bolder and edged in red, with a bar across the tip where they were beaten off.</p>"
    )


def map_figure(
    view_map: Mapping,
    you: str | None,
    names: Mapping[str, str] | None = None,
    arrows: Iterable[Arrow] = (),
    seats: Sequence[Mapping] | None = None,
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


def picture_figure(
    url: str, width_mm: float, pixels_wide: int, pixels_high: int, alt: str, overlay: str = ""
) -> Markup:
    """A map picture as a figure `width_mm` wide, in its own proportions, with an overlay over it."""
    return Markup(
        f'<div class="map-figure" style="width: {width_mm:.1f}mm; height: {width_mm * pixels_high / pixels_wide:.1f}mm">'
        f'<img class="map-picture" src="{url}" alt="{escape(alt)}">{overlay}</div>'
    )


def _map_width(view_map: Mapping) -> float:
    return float(view_map["width"])


def map_picture(svg: str, width_mm: float = TEXT_WIDTH_MM) -> tuple[str, int, int]:
    """(data: URL of a palette PNG, width, height in pixels) of an SVG map, `width_mm` wide at
    PICTURE_DPI (at most MAX_PIXELS wide), made once per process for the same SVG and width.
    Inside pictures.deferred() a reference stands for the data: URL, and a render worker draws
    the picture (pictures.drawn)."""
    key = hashlib.sha256(f"{width_mm:.1f}\n{svg}".encode()).hexdigest()
    named = pictures.name(key, svg, width_mm, _pixels(width_mm))
    if named is not None:
        return named
    if key not in _pictures:
        _pictures[key] = _draw(svg, width_mm)
        while len(_pictures) > _KEEP:
            _pictures.popitem(last=False)
    _pictures.move_to_end(key)
    return _pictures[key]


def _pixels(width_mm: float) -> int:
    return min(round(width_mm / 25.4 * PICTURE_DPI), MAX_PIXELS)


def _draw(svg: str, width_mm: float = TEXT_WIDTH_MM) -> tuple[str, int, int]:
    # CairoSVG (Kozea's, like WeasyPrint) draws with cairo; Pillow turns it into a palette PNG:
    # a map is a few flat colours and anti-aliased edges, so 256 colours keep it, at a third of
    # the size, and gm.render.pdf embeds such a PNG without decoding it. Pillow takes cairo's
    # pixels as they are: cairo's own PNG, written and read back, was a fifth of the time.
    from gm.render.raster import Image, PNGSurface, Tree

    drawn = PNGSurface(
        Tree(bytestring=svg.encode("utf-8")), None, 96, output_width=_pixels(width_mm), background_color="#ffffff"
    ).cairo
    drawn.flush()
    size = (drawn.get_width(), drawn.get_height())
    # ARGB32 is stored as native-endian 32-bit words: B, G, R, A on a little-endian machine. The
    # background is opaque, so no pixel is premultiplied by anything but 255, and the alpha byte
    # can be skipped as the pixels are read (BGRX): read straight from cairo's buffer into an RGB
    # image, with no copy of the buffer and no RGBA image between. An A3 board is 14 MB of
    # pixels; the two copies made a render worker's peak 46 MB higher (now about 25).
    order = "BGRX" if sys.byteorder == "little" else "XRGB"
    picture = Image.frombuffer("RGB", size, drawn.get_data(), "raw", order, drawn.get_stride(), 1)
    drawn.finish()  # cairo's pixels are no longer needed
    del drawn
    palette = picture.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    out = io.BytesIO()
    palette.save(out, format="PNG", compress_level=6)
    url = "data:image/png;base64," + base64.b64encode(out.getvalue()).decode("ascii")
    return url, picture.width, picture.height
