"""Map pictures: an SVG map drawn once per process as a palette PNG, or named for a render worker to draw.

map_picture turns an SVG into a data: URL of a palette PNG (CairoSVG draws, Pillow packs the
colours), once per process for the same SVG and width. Drawing the board took the `gm` process
about 0.4 s, and importing CairoSVG another 0.5-0.8 s, before any report could go to a worker
(bench/README.md, issue 18). So inside `deferred()` map_picture draws nothing: it gives a
reference in place of the picture's data: URL, with the picture's size in pixels worked out from
the SVG as CairoSVG works it out, and the job carries the SVG (RenderJob.pictures). A worker
draws each picture once (gm.render.worker.draw_pictures) and puts the same data: URL where the
reference stood, so the PDF is the one it was (tests/render/test_pictures.py). A grid world's
maps (gm.render.gridmap.grid_map, Pillow) are named the same way (name_grid): a seat's enlarged
region is its own picture, 20-30 ms of drawing and packing a seat at turn 10, which the one `gm`
process no longer does for every seat (issue 32; tests/render/test_gridmap_shared.py).

CairoSVG and Pillow (gm.render.raster) are imported inside _draw, where a picture is drawn: the
process that makes a turn's HTML only names its pictures, and `gm --help` imports this module.
"""

from __future__ import annotations

import base64
import hashlib
import io
import re
import sys
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from markupsafe import Markup, escape

REFERENCE = "gm-picture:"
PNG_DATA_URL = "data:image/png;base64,"
_PNG_SOURCE = re.compile(r'src="(data:image/png;base64,[A-Za-z0-9+/=]+)"')
_ROOT = re.compile(r"<svg\b[^>]*>")
_ATTRIBUTE = re.compile(r'(?<![\w-])(width|height|viewBox|style)="([^"]*)"')

# The picture's resolution: labels of the 215-area Empires map stay sharp in print and at 200 %
# on screen. Its width is the page's text width (A4, 16 mm margins) or the sheet's.
PICTURE_DPI = 200
TEXT_WIDTH_MM = 178
# A picture is never wider than this: an A3 sheet's board (codes at 9 points or more) is drawn
# at about 150 dpi, so a report mail carries 313 KB of map rather than 461.
MAX_PIXELS = 1600

_pictures: OrderedDict[str, tuple[str, int, int]] = OrderedDict()
_KEEP = 16  # pictures kept in a process: a run-due renders one game's turn after another


@dataclass(frozen=True)
class Picture:
    """A map picture still to draw: reference, what stands for its data: URL in the report's HTML
    (gm-picture: and map_picture's key of the SVG and width); svg, the drawing; width_mm, its width."""

    reference: str
    svg: str
    width_mm: float
    url: str = ""  # its data: URL, when another worker drew it already (set by the render pool)
    grid: str = ""  # a grid map's [data, crop] as JSON (gm.render.gridmap), drawn instead of svg


def name_grid(key: str, grid: str) -> str | None:
    """The reference of a grid map (gm.render.gridmap.grid_map's `key` of its data and crop, given
    as JSON in `grid`) inside deferred(), for a render worker to draw; None outside it."""
    named = _named.get()
    if named is None:
        return None
    picture = Picture(f"{REFERENCE}grid-{key}", "", 0.0, grid=grid)
    named[picture.reference] = picture
    return picture.reference


_named: ContextVar[dict[str, Picture] | None] = ContextVar("gm_pictures_named", default=None)


def map_picture(svg: str, width_mm: float = TEXT_WIDTH_MM) -> tuple[str, int, int]:
    """(data: URL of a palette PNG, width, height in pixels) of an SVG map, `width_mm` wide at
    PICTURE_DPI (at most MAX_PIXELS wide), made once per process for the same SVG and width.
    Inside deferred() a reference stands for the data: URL, and a render worker draws the picture."""
    key = hashlib.sha256(f"{width_mm:.1f}\n{svg}".encode()).hexdigest()
    named = name(key, svg, width_mm, _pixels(width_mm))
    if named is not None:
        return named
    if key not in _pictures:
        _pictures[key] = _draw(svg, width_mm)
        while len(_pictures) > _KEEP:
            _pictures.popitem(last=False)
    _pictures.move_to_end(key)
    return _pictures[key]


def picture_figure(
    url: str, width_mm: float, pixels_wide: int, pixels_high: int, alt: str, overlay: str = ""
) -> Markup:
    """A map picture as a figure `width_mm` wide, in its own proportions, with an overlay over it."""
    return Markup(
        f'<div class="map-figure" style="width: {width_mm:.1f}mm; height: {width_mm * pixels_high / pixels_wide:.1f}mm">'
        f'<img class="map-picture" src="{url}" alt="{escape(alt)}">{overlay}</div>'
    )


def shared_images(html: str) -> tuple[str, ...]:
    """The PNG data: URLs an HTML page shows, for RenderJob.images (a turn's map)."""
    return tuple(dict.fromkeys(_PNG_SOURCE.findall(html)))


@contextmanager
def deferred() -> Iterator[dict[str, Picture]]:
    """While inside, map_picture names its pictures (into the dict given) instead of drawing
    them; each one's reference stands in the HTML made meanwhile."""
    named: dict[str, Picture] = {}
    token = _named.set(named)
    try:
        yield named
    finally:
        _named.reset(token)


def name(key: str, svg: str, width_mm: float, pixels: int) -> tuple[str, int, int] | None:
    """(reference, width, height in pixels) of the picture of `svg`, `pixels` wide, inside
    deferred(); None outside it, or for an SVG whose size this cannot work out (it is drawn then)."""
    named = _named.get()
    size = None if named is None else pixel_size(svg, pixels)
    if named is None or size is None:
        return None
    picture = Picture(f"{REFERENCE}{key}", svg, width_mm)
    named[picture.reference] = picture
    return picture.reference, size[0], size[1]


def pixel_size(svg: str, pixels: int) -> tuple[int, int] | None:
    """The size CairoSVG's PNGSurface gives the SVG drawn `pixels` wide (output_width): its root's
    width and height, or its viewBox's where they are missing, scaled and rounded as it does.
    None for sizes with units, percentages or a style on the root: those are left to CairoSVG."""
    root = _ROOT.search(svg)
    found = dict(_ATTRIBUTE.findall(root[0])) if root else {}
    if not root or "style" in found:
        return None
    box = found.get("viewBox", "").replace(",", " ").split()
    try:
        width = float(found["width"]) if "width" in found else float(box[2])
        height = float(found["height"]) if "height" in found else float(box[3])
    except (ValueError, IndexError):
        return None
    if width <= 0 or height <= 0:
        return None
    return int(round(pixels)), int(round(height * (pixels / width)))


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
    url = PNG_DATA_URL + base64.b64encode(out.getvalue()).decode("ascii")
    return url, picture.width, picture.height
