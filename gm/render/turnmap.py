"""A turn's map drawn once and shared by every seat's report: one picture, and each seat's own marks over it."""
from __future__ import annotations

import base64
import hashlib
import io
from collections import OrderedDict
from collections.abc import Mapping

from markupsafe import Markup

from gm.render.svgmap import svg_map, svg_overlay

# The picture's resolution: labels of the 215-area Empires map stay sharp in print and at 200 %
# on screen. Its width is the page's text width (A4, 16 mm margins).
PICTURE_DPI = 200
TEXT_WIDTH_MM = 178
# A map taller than this is drawn narrower, so it fits on the first page under the masthead.
MAX_HEIGHT_MM = 195

_pictures: OrderedDict[str, tuple[str, int, int]] = OrderedDict()
_KEEP = 16  # pictures kept in a process: a run-due renders one game's turn after another


def map_figure(view_map: Mapping, you: str | None, names: Mapping[str, str] | None = None) -> Markup:
    """The map for one seat's report: the turn's shared picture as a data: URL, with the seat's
    outlines drawn over it as a small SVG. Every seat whose view shows the same map gets the
    same picture, drawn once (seats whose views differ, e.g. in fog of war, get their own)."""
    url, width, height = map_picture(str(svg_map(view_map, you, names, shared=True)))
    figure_mm = min(TEXT_WIDTH_MM, MAX_HEIGHT_MM * width / height)
    overlay = svg_overlay(view_map, you, names) if you is not None else Markup("")
    return Markup(
        f'<div class="map-figure" style="width: {figure_mm:.1f}mm; height: {figure_mm * height / width:.1f}mm">'
        f'<img class="map-picture" src="{url}" alt="Map of the game">{overlay}</div>'
    )


def map_picture(svg: str) -> tuple[str, int, int]:
    """(data: URL of a palette PNG, width, height in pixels) of an SVG map, made once per process
    for the same SVG."""
    key = hashlib.sha256(svg.encode("utf-8")).hexdigest()
    if key not in _pictures:
        _pictures[key] = _draw(svg)
        while len(_pictures) > _KEEP:
            _pictures.popitem(last=False)
    _pictures.move_to_end(key)
    return _pictures[key]


def _draw(svg: str) -> tuple[str, int, int]:
    # CairoSVG (Kozea's, like WeasyPrint) draws with cairo; Pillow turns it into a palette PNG:
    # a map is a few flat colours and anti-aliased edges, so 256 colours keep it, at a third of
    # the size, and gm.render.pdf embeds such a PNG without decoding it.
    import cairosvg
    from PIL import Image

    pixels = round(TEXT_WIDTH_MM / 25.4 * PICTURE_DPI)
    png = cairosvg.svg2png(bytestring=svg.encode("utf-8"), output_width=pixels, background_color="#ffffff")
    picture = Image.open(io.BytesIO(png)).convert("RGB")
    palette = picture.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    out = io.BytesIO()
    palette.save(out, format="PNG", compress_level=6)
    url = "data:image/png;base64," + base64.b64encode(out.getvalue()).decode("ascii")
    return url, picture.width, picture.height
