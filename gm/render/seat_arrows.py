"""A seat's maps of a past turn for the portal with that turn's arrows drawn in, as its report draws them.

The arrows are the report's own: gm.core.arrows reads them from the events of the seat's report
(only what it may see), and the report's drawing functions draw them, over the same picture the
report shows. A graph map is the report's shared picture with the seat's overlay (its outlines and
arrows, svg_overlay) laid inside the same SVG; a grid world's arrows (grid_arrows, an SVG in the
picture's pixels) are drawn onto its PNG. A map the report draws no arrows on (a hex board) is
the picture seat_maps draws, and so is a grid world in a turn without moves.

CairoSVG (gm.render.raster) is imported inside the function that draws arrows onto a grid picture,
as everywhere in gm/render: a process loads it only when it first draws such a picture, not when
it imports the portal's services.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from gm.core.arrows import arrows as arrows_of
from gm.render.gridmap import draw, draw_png, grid_arrows
from gm.render.seat_maps import draw_seat_map, seat_maps
from gm.render.svgmap import svg_map, svg_overlay

JSON = Mapping[str, Any]  # a view, an event, a crop: JSON objects of the seat's report


def draw_turn_map(
    view: JSON, seat: str, names: Mapping[str, str], file: str, events: Iterable[JSON] = ()
) -> bytes | None:
    """The picture `file` (one of seat_maps(view)) with this turn's moves and attacks the seat may
    see (from `events`, its report's) drawn as its report draws them; None when the view holds no
    such map."""
    arrowed = _ARROWED.get(file)
    if arrowed is None or file not in {m.file for m in seat_maps(view)}:
        return draw_seat_map(view, seat, names, file)
    return arrowed(view, seat, names, list(events))


def draws_arrows(file: str) -> bool:
    """Whether draw_turn_map draws this turn's arrows on the map `file` (as the report does on it)."""
    return file in _ARROWED


def _graph(view: JSON, seat: str, names: Mapping[str, str], events: Sequence[JSON]) -> bytes:
    """The report's map (gm.render.turnmap.map_figure): the picture every seat shares, and over it
    the seat's overlay, here nested in the same SVG (it has the picture's viewBox and no size,
    so it covers it exactly)."""
    seats = view.get("seats")
    picture = str(svg_map(view["map"], seat, names, shared=True, seats=seats))
    overlay = str(svg_overlay(view["map"], seat, names, arrows_of(events), seats))
    return (picture.removesuffix("</svg>") + overlay + "</svg>").encode("utf-8")


def _world(view: JSON, seat: str, names: Mapping[str, str], events: Sequence[JSON]) -> bytes:
    return _grid(view, None, events)


def _region(view: JSON, seat: str, names: Mapping[str, str], events: Sequence[JSON]) -> bytes:
    return _grid(view, view["region"], events)


def _grid(view: JSON, crop: JSON | None, events: Sequence[JSON]) -> bytes:
    """The grid picture as seat_maps draws it, with the report's arrows (gridmap.grid_figure's
    overlay, in the picture's pixels) drawn onto it."""
    from gm.render.raster import Image, PNGSurface, Tree

    overlay = str(grid_arrows(view["world"], crop, events, view.get("seats")))
    if not overlay:  # every arrow has a place outside the crop
        return draw_png(view["world"], crop)
    picture = draw(view["world"], crop).convert("RGBA")
    drawn = io.BytesIO()
    PNGSurface(
        Tree(bytestring=overlay.encode("utf-8")), drawn, 96, output_width=picture.width, output_height=picture.height
    ).finish()
    arrows = Image.open(io.BytesIO(drawn.getvalue())).convert("RGBA")
    out = io.BytesIO()
    Image.alpha_composite(picture, arrows).convert("RGB").save(out, "PNG", compress_level=6)
    return out.getvalue()


_ARROWED: dict[str, Callable[[JSON, str, Mapping[str, str], Sequence[JSON]], bytes]] = {
    "map.svg": _graph,
    "world.png": _world,
    "region.png": _region,
}
