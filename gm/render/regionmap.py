"""The enlarged map of one seat's region: its territories and their neighbours, with this turn's arrows.

The picture is cut from one raster of the whole board a turn (svg_region_board, drawn once per
render worker at the resolution the most enlarged region needs: gm.render.pictures.map_crop), and
what is the seat's own, its outlines and its arrows with their troop counts, is drawn over it as
a small SVG (svg_region_overlay), as on the whole map. Before (issue 32), each seat's region was
drawn and quantised on its own by CairoSVG: 69 ms of an Empires seat's 310 in a worker. A region
that would come out hardly larger than the whole board gets none.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from markupsafe import Markup, escape

from gm.core.arrows import Arrow
from gm.core.names import named
from gm.render import maptext
from gm.render.arrows import arrow_key
from gm.render.pictures import PICTURE_DPI, TEXT_WIDTH_MM, map_crop, picture_figure
from gm.render.svgmap import CODE_SIZE, safe_colour, svg_region_board, svg_region_overlay, territory_radius

REGION_HEIGHT_MM = 150  # room under the masthead of the first page
MIN_GAIN = 1.25  # enlarged less than this, the whole board already shows the region
MAX_LABEL_PT = 13.0  # a region of a territory or two is enlarged no further than this
_PAD = 1.35  # radii of room round the outermost territories
_PT_MM = 25.4 / 72

Box = tuple[float, float, float, float]


def region_box(view_map: Mapping[str, Any], you: str | None, board_mm_per_unit: float) -> tuple[Box, float] | None:
    """The part of the map (left, top, right, bottom, in map units) the seat's region map shows:
    its territories and their neighbours with a little room round them; and its scale in mm per
    unit, as large as the text's width and REGION_HEIGHT_MM allow, up to MAX_LABEL_PT codes.
    None if the seat holds nothing or the whole board already shows its region nearly as large."""
    territories = list(view_map["territories"])
    width, height = float(view_map["width"]), float(view_map["height"])
    mine = [t for t in territories if you is not None and t.get("owner") == you]
    if not mine:
        return None
    wanted = {t["code"] for t in mine} | {n for t in mine for n in t["neighbours"]}
    xs = [float(t["x"]) for t in territories if t["code"] in wanted]
    ys = [float(t["y"]) for t in territories if t["code"] in wanted]
    r = territory_radius(view_map)
    left, top, right, bottom = min(xs) - _PAD * r, min(ys) - _PAD * r, max(xs) + _PAD * r, max(ys) + _PAD * r
    scale = min(
        TEXT_WIDTH_MM / (right - left), REGION_HEIGHT_MM / (bottom - top), MAX_LABEL_PT * _PT_MM / (r * CODE_SIZE)
    )
    if scale < board_mm_per_unit * MIN_GAIN:
        return None
    # No wider than the region: every territory more in the box is drawn again for this seat.
    box_width, box_height = right - left, bottom - top
    x0 = placed(left, box_width, 0.0, width)
    y0 = placed(top, box_height, 0.0, height)
    return (x0, y0, x0 + box_width, y0 + box_height), scale


def finest_scale(view_map: Mapping[str, Any]) -> float:
    """The board raster's pixels a map unit that the most enlarged region (MAX_LABEL_PT codes)
    needs at PICTURE_DPI: what its region pictures are cut from."""
    return MAX_LABEL_PT * _PT_MM / (territory_radius(view_map) * CODE_SIZE) * PICTURE_DPI / 25.4


def placed(start: float, size: float, low: float, span: float) -> float:
    """start moved so that [start, start + size] stays within [low, low + span] where it can
    (centred on it where it cannot)."""
    if size >= span:
        return low + (span - size) / 2
    return min(max(start, low), low + span - size)


def region_section(
    view_map: Mapping[str, Any],
    you: str | None,
    names: Mapping[str, str] | None,
    moves: Sequence[Arrow],
    seats: Sequence[Mapping[str, Any]] | None,
    board_mm_per_unit: float,
) -> Markup:
    """The report section of the seat's region map, or nothing (see region_box)."""
    found = region_box(view_map, you, board_mm_per_unit)
    if found is None or you is None:
        return Markup("")
    box, scale = found
    left, top, right, bottom = box
    figure_mm = (right - left) * scale
    url, width, height, shown = map_crop(
        svg_region_board(view_map, seats), (left, top, right - left, bottom - top), finest_scale(view_map)
    )
    box = (shown[0], shown[1], shown[0] + shown[2], shown[1] + shown[3])  # on the raster's whole pixels
    overlay = svg_region_overlay(view_map, you, box, moves, seats)
    names = names or {}
    title = f"{named(names[you], you)} and its neighbours, enlarged" if you in names else "Your region, enlarged"
    return (
        Markup('<section class="map map-region"><h2>')
        + escape(title)
        + Markup("</h2>")
        + picture_figure(
            url, figure_mm, width, height, maptext.territories(view_map, you, names, box, title, seats), overlay
        )
        + _key(view_map, box, you, names, seats)
        + arrow_key(moves)
        + Markup("</section>")
    )


def _key(
    view_map: Mapping[str, Any], box: Box, you: str, names: Mapping[str, str], seats: Sequence[Mapping[str, Any]] | None
) -> Markup:
    """Who holds what on the region map: a swatch and the seat code written on its areas."""
    left, top, right, bottom = box
    colours = {s["code"]: s.get("colour") for s in seats or ()}
    shown: dict[str, str] = {}
    for t in view_map["territories"]:
        owner = t.get("owner")
        if owner in names and left <= float(t["x"]) <= right and top <= float(t["y"]) <= bottom:
            shown.setdefault(owner, colours.get(owner) or t.get("colour"))
    items = [
        Markup('<span class="item"><span class="swatch" style="background: {}"></span><b>{}</b> {}{}</span>').format(
            safe_colour(colour), code, names[code], " (you, thick outline)" if code == you else ""
        )
        for code, colour in sorted(shown.items())
    ]
    return Markup('<p class="map-key">') + Markup(" ").join(items) + Markup("</p>")
