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

map_crop makes a seat's region picture as a part of a board drawn once (issue 32): the board's
raster is drawn at a resolution fixed by the board alone (the finest any seat's part needs, at
most BOARD_MAX_PIXELS), kept by the process, and each part is resampled from it by Pillow. Two
seats share a raster only when their boards' SVG is the same byte for byte, and a seat's part
does not depend on which other seats a worker drew before it. In a render pool the first worker
to need a raster writes it to a folder of the pool's, and the others read it there rather than
draw it again (RenderJob.board_rasters): the same pixels, so the same PDFs.

CairoSVG and Pillow (gm.render.raster) are imported inside _draw, where a picture is drawn: the
process that makes a turn's HTML only names its pictures, and `gm --help` imports this module.
"""

from __future__ import annotations

import base64
import hashlib
import io
import math
import os
import re
import sys
import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from markupsafe import Markup, escape

if TYPE_CHECKING:
    from PIL import Image

REFERENCE = "gm-picture:"
PNG_DATA_URL = "data:image/png;base64,"
_PNG_SOURCE = re.compile(r'src="(data:image/png;base64,[A-Za-z0-9+/=]+)"')
_ROOT = re.compile(r"<svg\b[^>]*>")
_ATTRIBUTE = re.compile(r'(?<![\w-])(width|height|viewBox|style)="([^"]*)"')

# The picture's resolution: labels of the 215-area Empires map stay sharp in print and at 200 %
# on screen. Its width is the page's text width (A4, 16 mm margins) or the sheet's.
PICTURE_DPI = 200
TEXT_WIDTH_MM = 178
# A drawn picture is never wider than this: an A3 sheet's board (codes at 9 points or more) is
# drawn at about 150 dpi, so a report mail carries 313 KB of map rather than 461. (A part cut by
# map_crop has its board raster's resolution: a region 178 mm wide is up to 1,700 pixels.)
MAX_PIXELS = 1600

# A board raster is never larger than this: 24 MB of cairo's pixels while it is drawn, 6 MB held
# while a worker makes the turn's region pictures. What it costs: Empires' board at its largest
# enlargement (13-point codes at 200 dpi) would be 8.0 million, and is drawn at 0.87 of that
# resolution, its regions at about 175 dpi in print (codes still sharp: tests/render and the
# pages looked at, bench/README.md); Imperials' (13-point vertex numbers) is 4.9 million, whole.
# At 8 million a worker making a 32-seat Empires turn peaked at 155 MB; at 6, 147 (126 before).
BOARD_MAX_PIXELS = 6_000_000

_pictures: OrderedDict[str, tuple[str, int, int]] = OrderedDict()
_KEEP = 16  # pictures kept in a process: a run-due renders one game's turn after another
_boards: dict[str, Image.Image] = {}  # one turn's board raster at a time: the workers' memory (150 MB)
_BAND = 256  # rows of a board mapped to its palette at a time (2.4 MB of Empires' board)
# A pool's workers share their board rasters as files in a folder of the pool's (_write_board):
# this many are kept there, 6 MB each at most (BOARD_MAX_PIXELS), a few games' worth.
_RASTER = ".board"
_KEEP_RASTERS = 4


@dataclass(frozen=True)
class Crop:
    """A part of a board's raster: box, (left, top, right, bottom) in its pixels; scale, the
    raster's pixels a unit of the board's SVG (board_scale)."""

    box: tuple[int, int, int, int]
    scale: float


@dataclass(frozen=True)
class Picture:
    """A map picture still to draw: reference, what stands for its data: URL in the report's HTML
    (gm-picture: and map_picture's key of the SVG and width); svg, the drawing; width_mm, its width."""

    reference: str
    svg: str
    width_mm: float
    url: str = ""  # its data: URL, when another worker drew it already (set by the render pool)
    grid: str = ""  # a grid map's [data, crop] as JSON (gm.render.gridmap), drawn instead of svg
    crop: Crop | None = None  # a part of the board `svg`, cut from its raster (map_crop)


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

# Grid maps' pictures the render workers drew, handed here by the pool (keep_drawn): a seat's turn
# kit, made in the `gm` process after its report, shows the same pictures (gm.render.kit) and so
# takes them rather than drawing and packing them again. A run-due makes a game's kits right
# after its reports, so one game's worth is enough: a world and its seats' regions.
_given: OrderedDict[str, str] = OrderedDict()
_given_lock = threading.Lock()  # the pool's thread keeps, the caller's takes
KEEP_GIVEN = 40


def keep_drawn(reference: str, url: str) -> None:
    """Keep a grid map's picture a render worker drew (its reference and data: URL), for
    given_grid; any other picture is left to the pool."""
    if not reference.startswith(f"{REFERENCE}grid-") or not url.startswith(PNG_DATA_URL):
        return
    with _given_lock:
        _given[reference] = url
        _given.move_to_end(reference)
        while len(_given) > KEEP_GIVEN:
            _given.popitem(last=False)


def given_grid(key: str) -> str | None:
    """The data: URL of the grid map whose key (gm.render.gridmap) is `key`, when a render worker
    of this process's pool drew it; None otherwise."""
    with _given_lock:
        return _given.get(f"{REFERENCE}grid-{key}")


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


def map_crop(
    board_svg: str, box: tuple[float, float, float, float], finest: float
) -> tuple[str, int, int, tuple[float, float, float, float]]:
    """(data: URL of a palette PNG, width, height in pixels, the part shown) of the part `box`
    (left, top, width, height in the SVG's units) of a board: the pixels of the board's raster,
    drawn once per process at board_scale(board_svg, finest) pixels a unit (`finest`: what the
    most enlarged part needs), that fall in the box, moved onto whole pixels and inside the board.
    The part shown is that box, in the SVG's units, for what is drawn over the picture.
    Inside deferred() a reference stands for the data: URL, and a render worker cuts it."""
    scale = board_scale(board_svg, finest)
    frame = _frame(board_svg)
    board = raster_size(board_svg, scale)
    sx, sy = board[0] / frame[2], board[1] / frame[3]
    x0, x1 = _whole_pixels(box[0] - frame[0], box[2], sx, board[0])
    y0, y1 = _whole_pixels(box[1] - frame[1], box[3], sy, board[1])
    crop = Crop((x0, y0, x1, y1), scale)
    shown = (frame[0] + x0 / sx, frame[1] + y0 / sy, (x1 - x0) / sx, (y1 - y0) / sy)
    key = hashlib.sha256(f"{crop}\n{board_svg}".encode()).hexdigest()
    picture = Picture(f"{REFERENCE}{key}", board_svg, 0.0, crop=crop)
    named = _named.get()
    if named is None:
        return _cut(picture), x1 - x0, y1 - y0, shown
    named[picture.reference] = picture
    return picture.reference, x1 - x0, y1 - y0, shown


def board_scale(board_svg: str, finest: float) -> float:
    """The board raster's pixels a unit of its SVG: `finest`, or less where the raster would be
    larger than BOARD_MAX_PIXELS. A function of the board alone, so a part is the same whatever
    other seats share the board."""
    frame = _frame(board_svg)
    return min(finest, math.sqrt(BOARD_MAX_PIXELS / (frame[2] * frame[3])))


def raster_size(board_svg: str, scale: float) -> tuple[int, int]:
    """The board raster's size in pixels, as CairoSVG draws it `scale` pixels a unit wide."""
    frame = _frame(board_svg)
    size = pixel_size(board_svg, max(1, round(frame[2] * scale)))
    if size is None:
        raise ValueError("a board drawing needs its size in plain numbers")
    return size


def _whole_pixels(start: float, size: float, scale: float, pixels: int) -> tuple[int, int]:
    """[start, start + size) in units as whole pixels of a raster `pixels` long: rounded, and
    moved inside it (cut to it where longer)."""
    first, length = round(start * scale), max(1, min(round(size * scale), pixels))
    first = min(max(first, 0), pixels - length)
    return first, first + length


def draw(picture: Picture, rasters: Path | None = None) -> str:
    """The data: URL of a picture a job names (a render worker draws it: gm.render.worker);
    rasters: the folder where a pool's workers share their board rasters (None: not shared)."""
    if picture.crop is not None:
        return _cut(picture, rasters)
    return map_picture(picture.svg, picture.width_mm)[0]


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
    return _png(picture), picture.width, picture.height


def _png(picture: Image.Image) -> str:
    """An RGB picture as the data: URL of a palette PNG (256 colours, no dithering)."""
    from gm.render.raster import Image

    palette = picture.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    out = io.BytesIO()
    palette.save(out, format="PNG", compress_level=6)
    return PNG_DATA_URL + base64.b64encode(out.getvalue()).decode("ascii")


def _frame(svg: str) -> tuple[float, float, float, float]:
    """The viewBox (left, top, width, height) of an SVG's root."""
    root = _ROOT.search(svg)
    box = dict(_ATTRIBUTE.findall(root[0])).get("viewBox", "") if root else ""
    values = [float(v) for v in box.replace(",", " ").split()]
    if len(values) != 4 or values[2] <= 0 or values[3] <= 0:
        raise ValueError("a board drawing needs a viewBox with a width and a height")
    return values[0], values[1], values[2], values[3]


def _board(svg: str, scale: float, rasters: Path | None = None) -> Image.Image:
    """The board's raster at `scale` pixels a unit as a palette image (a byte a pixel), made
    once per process (the last one kept): read from the folder `rasters` where another worker of
    the pool wrote it already (_read_board), else drawn (_draw_board) and written there."""
    key = hashlib.sha256(f"{scale!r}\n{svg}".encode()).hexdigest()
    if key not in _boards:
        _boards.clear()  # the last board's pixels go before the next one's are made
        board = _read_board(rasters / f"{key}{_RASTER}", raster_size(svg, scale)) if rasters else None
        if board is None:
            board = _draw_board(svg, scale)
            if rasters:
                try:
                    _write_board(rasters, key, board)
                except OSError:  # a full disk, the pool closing: the others draw it themselves
                    pass
        _boards[key] = board
    return _boards[key]


def _draw_board(svg: str, scale: float) -> Image.Image:
    """The board drawn by CairoSVG at `scale` pixels a unit, as a palette image.

    Pillow reads cairo's pixels where they lie (as RGBA: cairo's B, G, R, A on a little-endian
    machine, opaque everywhere), picks 256 colours from the board shrunk four times (FASTOCTREE),
    then maps the board to them a band of rows at a time, and swaps the palette's red and blue
    back. Picking colours from the whole board was 305 ms and 93 MB more at the peak for Empires'
    8 million pixels; this is about 85 ms, and a board holds a byte a pixel, not cairo's four."""
    from gm.render.raster import Image, PNGSurface, Tree

    drawn = PNGSurface(
        Tree(bytestring=svg.encode("utf-8")),
        None,
        96,
        output_width=raster_size(svg, scale)[0],
        background_color="#ffffff",
    ).cairo
    drawn.flush()
    size = (drawn.get_width(), drawn.get_height())
    little = sys.byteorder == "little"
    raw = "RGBA" if little else "ARGB"  # big-endian: read as a copy, in order
    raster = Image.frombuffer("RGBA", size, drawn.get_data(), "raw", raw, drawn.get_stride(), 1)
    bands = [(0, top, size[0], min(size[1], top + _BAND)) for top in range(0, size[1], _BAND)]
    # Each band shrunk on its own: Image.reduce of the whole board copies all its pixels first.
    sample = Image.new("RGB", (size[0] // 4, sum(-(-(b[3] - b[1]) // 4) for b in bands)))
    for band in bands:
        sample.paste(raster.crop(band).reduce(4).convert("RGB"), (0, band[1] // 4))
    colours = sample.quantize(256, Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    board = Image.new("P", size)
    for band in bands:
        board.paste(raster.crop(band).convert("RGB").quantize(palette=colours, dither=Image.Dither.NONE), band[:2])
    del raster
    drawn.finish()
    palette = colours.getpalette("RGB") or []
    if little:  # B, G, R: red and blue change places
        palette[0::3], palette[2::3] = palette[2::3], palette[0::3]
    board.putpalette(palette, "RGB")
    return board


def _write_board(folder: Path, key: str, board: Image.Image) -> None:
    """Write a board's raster where the pool's other workers read it (_read_board): the palette's
    length in two bytes, the palette, then a byte a pixel. Written under a name of this process's
    and renamed into place, so a reader sees the whole file or none (two workers that drew the
    same board at once write the same bytes). Only the newest _KEEP_RASTERS stay: a run-due goes
    through the games one after another."""
    palette = bytes(board.getpalette("RGB") or [])
    part = folder / f"{key}.{os.getpid()}.part"
    with part.open("wb") as out:
        out.write(len(palette).to_bytes(2, "little") + palette)
        out.write(board.tobytes())
    os.replace(part, folder / f"{key}{_RASTER}")
    kept = sorted(folder.glob(f"*{_RASTER}"), key=_age, reverse=True)
    for old in kept[_KEEP_RASTERS:]:
        old.unlink(missing_ok=True)  # another worker may have removed it first


def _read_board(path: Path, size: tuple[int, int]) -> Image.Image | None:
    """A board's raster as _write_board wrote it, or None where there is none (or not whole)."""
    from gm.render.raster import Image

    try:
        data = path.read_bytes()
    except OSError:  # none yet, or gone with its pool
        return None
    length = int.from_bytes(data[:2], "little")
    if len(data) != 2 + length + size[0] * size[1]:
        return None
    board = Image.frombuffer("P", size, data[2 + length :], "raw", "P", 0, 1)  # no copy of the pixels
    board.putpalette(data[2 : 2 + length], "RGB")
    return board


def _age(path: Path) -> int:
    """A file's last change in nanoseconds (0 where it is gone)."""
    try:
        return path.stat().st_mtime_ns
    except FileNotFoundError:
        return 0


def _cut(picture: Picture, rasters: Path | None = None) -> str:
    """The palette PNG data: URL of the part of a board a picture names (picture.crop): the
    raster's own pixels and colours, not resampled, so a code is as sharp as in the board."""
    assert picture.crop is not None
    part = _board(picture.svg, picture.crop.scale, rasters).crop(picture.crop.box)
    out = io.BytesIO()
    part.save(out, format="PNG", compress_level=6)
    return PNG_DATA_URL + base64.b64encode(out.getvalue()).decode("ascii")
