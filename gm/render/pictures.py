"""Map pictures drawn where the PDF is made: a turn's reports name them, a render worker draws them.

Drawing the board with CairoSVG took the `gm` process about 0.4 s, and importing CairoSVG another
0.5-0.8 s, before any report could go to a worker (bench/README.md, issue 18). Inside `deferred()`
turnmap.map_picture draws nothing: it gives a reference in place of the picture's data: URL, with
the picture's size in pixels worked out from the SVG as CairoSVG works it out, and the job
carries the SVG (RenderJob.pictures). A worker draws each picture once (turnmap's cache) and puts
the same data: URL where the reference stood, so the PDF is the one it was (tests/render/test_pictures.py).
Nothing here imports CairoSVG.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gm.render.worker import RenderJob

REFERENCE = "gm-picture:"
# What drawing imports, for the render workers' fork server to import ahead (worker.WARM_MODULES).
PICTURE_MODULES = ("gm.render.turnmap", "gm.render.raster")
_ROOT = re.compile(r"<svg\b[^>]*>")
_ATTRIBUTE = re.compile(r'(?<![\w-])(width|height|viewBox|style)="([^"]*)"')


@dataclass(frozen=True)
class Picture:
    """A map picture still to draw: reference, what stands for its data: URL in the report's HTML
    (gm-picture: and turnmap's key of the SVG and width); svg, the drawing; width_mm, its width."""

    reference: str
    svg: str
    width_mm: float
    url: str = ""  # its data: URL, when another worker drew it already (set by the render pool)


_named: ContextVar[dict[str, Picture] | None] = ContextVar("gm_pictures_named", default=None)


@contextmanager
def deferred() -> Iterator[dict[str, Picture]]:
    """While inside, turnmap.map_picture names its pictures (into the dict given) instead of
    drawing them; each one's reference stands in the HTML made meanwhile."""
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


def drawn(job: RenderJob) -> RenderJob:
    """The RenderJob with its pictures drawn: each reference in its HTML replaced by the picture's
    data: URL, and its shared images found in the HTML as it would have been made in one go."""
    return draw_pictures(job)[0]


def draw_pictures(job: RenderJob) -> tuple[RenderJob, tuple[tuple[str, str], ...]]:
    """drawn(job), and the (reference, data: URL) of each picture this call drew, for a render
    pool to hand to other workers (a picture that came with its URL is not drawn again)."""
    if not job.pictures:
        return job, ()
    from gm.render.turnmap import map_picture
    from gm.render.worker import shared_images

    html, made = job.html, []
    for picture in job.pictures:
        url = picture.url
        if not url:
            url, _, _ = map_picture(picture.svg, picture.width_mm)
            made.append((picture.reference, url))
        html = html.replace(f'src="{picture.reference}"', f'src="{url}"')
    return dataclasses.replace(job, html=html, images=shared_images(html), pictures=()), tuple(made)
