"""The maps of a seat's report as pictures of their own, for the portal: drawn from the view its
report was made from, with the same drawing functions the reports use.

A view holds a map in one of the shapes gm/render draws (docs/writing-a-ruleset.md): a graph map
(`view["map"]`, svgmap.py), a hex board (`view["board"]`, hexmap.py) or a grid world
(`view["world"]`, with the seat's `view["region"]` enlarged, gridmap.py). A ruleset whose view
holds none of them has no map on the portal; its report still has whatever it draws.

CairoSVG (gm.render.raster) and Pillow (gm.render.gridmap) are imported inside the functions
that draw with them, so that gm/services can import this module at the top without `gm --help`
paying for them.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from gm.render.hexmap import hex_svg
from gm.render.svgmap import svg_map

SVG = "image/svg+xml"
PNG = "image/png"


@dataclass(frozen=True)
class SeatMap:
    """One map a view holds: its file name in the portal's address (map.svg, world.png, ...),
    what it shows in words (the picture's alt text), its media type, and a note for the caption
    (how to read it)."""

    file: str
    title: str
    media_type: str
    note: str = ""


def seat_maps(view: Mapping[str, Any]) -> list[SeatMap]:
    """The maps this view holds, in the order the report shows them."""
    found = []
    if isinstance(view.get("map"), Mapping):
        found.append(SeatMap("map.svg", "The map", SVG, "Your areas have a thick outline. Open the map to zoom in."))
    if isinstance(view.get("board"), Mapping):
        found.append(SeatMap("board.svg", "The board", SVG, "Open the board to zoom in."))
    if isinstance(view.get("world"), Mapping):
        key = "The key to its colours and marks is in your report."
        found.append(SeatMap("world.png", "The whole world", PNG, key))
        if isinstance(view.get("region"), Mapping):
            found.append(SeatMap("region.png", "Your region, enlarged", PNG, key))
    return found


def draw_seat_map(view: Mapping[str, Any], seat: str, names: Mapping[str, str], file: str) -> bytes | None:
    """The picture `file` (one of seat_maps(view)) as bytes of its media type, the seat's own
    territories marked as in its report; None when the view holds no such map."""
    if file not in {m.file for m in seat_maps(view)}:
        return None
    return _DRAW[file](view, seat, names)


def map_png(view: Mapping[str, Any], seat: str, names: Mapping[str, str], file: str, width: int = 1600) -> bytes | None:
    """The map `file` as a PNG, whatever its media type (an SVG drawn `width` pixels wide): for
    a mail, whose readers show a PNG and seldom an SVG. None when the view holds no such map."""
    drawn = draw_seat_map(view, seat, names, file)
    if drawn is None or file.endswith(".png"):
        return drawn
    from gm.render.raster import PNGSurface, Tree

    out = io.BytesIO()
    PNGSurface(Tree(bytestring=drawn), out, 96, output_width=width, background_color="#ffffff").finish()
    return out.getvalue()


def _graph(view: Mapping[str, Any], seat: str, names: Mapping[str, str]) -> bytes:
    return str(svg_map(view["map"], seat, names)).encode("utf-8")


def _board(view: Mapping[str, Any], seat: str, names: Mapping[str, str]) -> bytes:
    return hex_svg(view["board"]).encode("utf-8")


def _world(view: Mapping[str, Any], seat: str, names: Mapping[str, str]) -> bytes:
    from gm.render.gridmap import draw_png

    return draw_png(view["world"])


def _region(view: Mapping[str, Any], seat: str, names: Mapping[str, str]) -> bytes:
    from gm.render.gridmap import draw_png

    return draw_png(view["world"], view["region"])


_DRAW: dict[str, Callable[[Mapping[str, Any], str, Mapping[str, str]], bytes]] = {
    "map.svg": _graph,
    "board.svg": _board,
    "world.png": _world,
    "region.png": _region,
}
