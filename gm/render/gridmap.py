"""Raster maps of grid worlds for reports: terrain, territory, railroads and marks drawn with
Pillow into a PNG data: URI. Each distinct drawing is made once per process and shared, so every
seat's report of a round reuses the same world map.

The drawing data (plain, JSON-able, given by a ruleset's view):
    width, height    the grid in blocks; x runs left to right, y top to bottom from 0,0
    terrain          one string per row, one character per block
    palette          character -> "#rrggbb" for the terrain
    territory        optional rows like terrain: who owns each block
    owners           character -> "#rrggbb": the colour of each owner (other characters: nobody)
    lines            optional [{"colour", "blocks": [[x, y], ...]}]: a line through block centres
    marks            optional [{"x", "y", "shape": "capital"|"city"|"group", "colour",
                     "label" (shown where blocks are big enough to read it),
                     "note" (a small word under a group, where blocks are large),
                     "tag" (always shown)}]
    every            coordinates and grid lines every this many blocks (default 10)
A crop {"x0", "y0", "x1", "y1"} (x1 and y1 excluded) draws that part of the world enlarged, with
coordinates every 5 blocks.

What is the same for several drawings is made once per process by content, in LRUs of a number
each: the PNG of each distinct data and crop (CACHE_SIZE), the world's terrain tinted by its
territory one pixel a block, the part of the data every seat of a round shares (BASE_SIZE; the
world map and every seat's enlarged region are cut from it), and each font size. A seat's region
is its own (its crop), so it is still drawn and packed per seat: inside pictures.deferred(), as
the reports of a turn are made, by a render worker rather than the one `gm` process (issue 32).

Text is Pillow's own scalable font (ImageFont.load_default(size=...)): it ships inside Pillow,
so a map is drawn the same on every machine, with no system font to install or find."""

from __future__ import annotations

import base64
import hashlib
import io
import json
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from markupsafe import Markup
from PIL import Image, ImageChops, ImageDraw, ImageFont

from gm.core.arrows import arrows as arrows_of
from gm.render import maptext
from gm.render.arrows import svg_arrows
from gm.render.marks import HATCHES, hatches
from gm.render.pictures import given_grid, name_grid
from gm.render.svgmap import safe_colour

TARGET_PX = 1000  # the longer side of a map's blocks, in pixels (about 150 dpi on A4)
MAX_BLOCK_PX = 40  # blocks of a small crop are never drawn larger than this
TINT = 0.5  # how strongly territory colours the terrain under it
CACHE_SIZE = 32  # distinct drawings kept (a round's world map and each seat's crop)
BASE_SIZE = 4  # distinct worlds whose tinted terrain is kept (a run-due draws one game's turn after another)
NOTE_BLOCK_PX = 24  # a group's note (its owner) is drawn only on blocks this large
# The whole world's text at no less than a tag's size (13 px: 5 pt on its 85 % wide report map): a
# city's label is drawn that large, and a group's (its troops, inside its square, too small for
# text that large) is left to the enlarged region and the tables, as the map's legend says.
WHOLE_LABEL_PX = 13
CAPITAL_GOLD = (212, 160, 23)  # "Capital City (Gold Block)"
CITY_RED = (170, 20, 20)  # "Regular Cities (Redstone Block)"
INK = (29, 29, 27)

_cache: OrderedDict[str, str] = OrderedDict()
_bases: OrderedDict[str, tuple[Image.Image, Image.Image | None, dict[str, int]]] = OrderedDict()


def _json(value: object) -> str:
    """The drawing's data as JSON, one text for the same content (a key, and what a worker reads)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)


def grid_map(data: Mapping[str, Any], crop: Mapping[str, Any] | None = None) -> str:
    """The map as a data: URI of a PNG (drawn once per distinct data and crop); inside
    pictures.deferred() a reference that a render worker replaces by that URI (draw_pictures)."""
    grid, key = _keyed(data, crop)
    named = name_grid(key, grid)
    if named is not None:  # inside pictures.deferred(): a render worker draws it (this function)
        return named
    return _uri(key, data, crop)


def picture_uri(data: Mapping[str, Any], crop: Mapping[str, Any] | None = None) -> str:
    """The map as grid_map draws it, always as a data: URI (never a reference): the one a render
    worker of this process's pool drew for a report (pictures.given_grid), else drawn here once
    per distinct data and crop. The turn kit shows it (gm.render.kit)."""
    return _uri(_keyed(data, crop)[1], data, crop)


def _keyed(data: Mapping[str, Any], crop: Mapping[str, Any] | None) -> tuple[str, str]:
    """The drawing's data and crop as JSON, and its key: the SHA-256 of that JSON."""
    grid = _json([data, crop])
    return grid, hashlib.sha256(grid.encode("utf-8")).hexdigest()


def _uri(key: str, data: Mapping[str, Any], crop: Mapping[str, Any] | None) -> str:
    if key in _cache:
        _cache.move_to_end(key)
        return _cache[key]
    uri = given_grid(key) or "data:image/png;base64," + base64.b64encode(draw_png(data, crop)).decode("ascii")
    _cache[key] = uri
    while len(_cache) > CACHE_SIZE:
        _cache.popitem(last=False)
    return uri


def draw_png(data: Mapping[str, Any], crop: Mapping[str, Any] | None = None) -> bytes:
    image = draw(data, crop)
    out = io.BytesIO()
    image.save(out, "PNG", compress_level=6)
    return out.getvalue()


def _rgb(colour: str) -> tuple[int, int, int]:
    text = str(colour).lstrip("#")
    if len(text) != 6:
        return (128, 128, 128)
    try:
        red, green, blue = (int(text[k : k + 2], 16) for k in (0, 2, 4))
    except ValueError:
        return (128, 128, 128)
    return red, green, blue


def _indexed(
    rows: list[str], colours: Mapping[str, Any], width: int, height: int, default: tuple[int, int, int]
) -> tuple[Image.Image, dict[str, int]]:
    """A palette image with one pixel per block, and which characters had a colour."""
    letters = sorted(colours)[:255]
    index = {c: n + 1 for n, c in enumerate(letters)}
    table = bytes(index.get(chr(c), 0) for c in range(256))
    text = "".join(row[:width].ljust(width) for row in rows[:height]).ljust(width * height)
    raw = text.encode("latin-1", "replace").translate(table)
    image = Image.frombytes("P", (width, height), raw)
    palette = list(default) + [v for c in letters for v in _rgb(colours[c])]
    image.putpalette(palette + [0] * (768 - len(palette)))
    return image, index


def draw(data: Mapping[str, Any], crop: Mapping[str, Any] | None = None) -> Image.Image:
    width, height = int(data["width"]), int(data["height"])
    owners = data.get("owners") or {}
    picture, owned, index = _base(data)
    x0, y0, x1, y1 = _box(crop, width, height)
    picture = picture.crop((x0, y0, x1, y1))
    cols, rows = x1 - x0, y1 - y0
    scale, margin = geometry(cols, rows)
    picture = picture.resize((cols * scale, rows * scale), Image.Resampling.NEAREST)
    if owned is not None and index:
        _hatch(
            picture, owned.crop((x0, y0, x1, y1)).resize(picture.size, Image.Resampling.NEAREST), index, owners, scale
        )
    every = 5 if crop else int(data.get("every") or 10)
    canvas = Image.new("RGB", (cols * scale + 2 * margin, rows * scale + 2 * margin), (255, 255, 255))
    canvas.paste(picture, (margin, margin))
    sketch = _Sketch(ImageDraw.Draw(canvas), scale, margin, x0, y0, x1, y1, whole=not crop)
    sketch.borders(data.get("territory") or [], owners)
    sketch.grid(every)
    for line in data.get("lines") or []:
        sketch.line(line)
    for mark in sorted(data.get("marks") or [], key=_layer):
        sketch.mark(mark)
    sketch.coordinates(every)
    return canvas


def _base(data: Mapping[str, Any]) -> tuple[Image.Image, Image.Image | None, dict[str, int]]:
    """(the terrain tinted by the territory, one RGB pixel a block; the territory as a palette
    image, or None; which owner characters it has), made once per process for the same world and
    territory and shared by every drawing of it (draw only crops them, never changes them)."""
    parts = [data.get(k) for k in ("width", "height", "terrain", "palette", "territory", "owners")]
    key = hashlib.sha256(_json(parts).encode("utf-8")).hexdigest()
    if key not in _bases:
        _bases[key] = _tinted(data)
        while len(_bases) > BASE_SIZE:
            _bases.popitem(last=False)
    _bases.move_to_end(key)
    return _bases[key]


def _tinted(data: Mapping[str, Any]) -> tuple[Image.Image, Image.Image | None, dict[str, int]]:
    width, height = int(data["width"]), int(data["height"])
    terrain, _ = _indexed(data["terrain"], data["palette"], width, height, (200, 200, 200))
    picture = terrain.convert("RGB")
    owned: Image.Image | None = None
    index: dict[str, int] = {}
    if data.get("territory"):
        owned, index = _indexed(data["territory"], data.get("owners") or {}, width, height, (0, 0, 0))
        mask = owned.point([0] + [255] * 255, "L") if index else None
        if mask is not None:
            tinted = Image.blend(picture, owned.convert("RGB"), TINT)
            picture.paste(tinted, (0, 0), mask)
    return picture, owned, index


def _hatch(
    picture: Image.Image, owned: Image.Image, index: Mapping[str, int], owners: Mapping[str, Any], scale: int
) -> None:
    """Stripes over the territory of each empire whose colour looks like another's (the same
    choice as the graph maps', gm.render.marks), so 16 empires stay apart when tinted."""
    chosen = hatches((letter, str(owners[letter])) for letter in owners)
    gap = max(6, scale // 2 * 2)
    for letter, hatch in sorted(chosen.items()):
        if not hatch or letter not in index:
            continue
        where = owned.point([255 if i == index[letter] else 0 for i in range(256)], "L")
        stripes = ImageChops.multiply(where, _stripes(picture.size, HATCHES[hatch], gap))
        picture.paste(_darker(_rgb(str(owners[letter]))), (0, 0, *picture.size), stripes)


def _stripes(size: tuple[int, int], angle: str, gap: int) -> Image.Image:
    """A mask of thin stripes `gap` pixels apart at the hatching's angle."""
    mask = Image.new("L", size, 0)
    pen = ImageDraw.Draw(mask)
    width, height = size
    thick = max(1, gap // 4)
    if angle in ("45", "cross"):
        for k in range(-height, width, gap):
            pen.line([(k, height), (k + height, 0)], fill=255, width=thick)
    if angle in ("-45", "cross"):
        for k in range(0, width + height, gap):
            pen.line([(k - height, 0), (k, height)], fill=255, width=thick)
    if angle == "0":
        for y in range(gap // 2, height, gap):
            pen.line([(0, y), (width, y)], fill=255, width=thick)
    if angle == "90":
        for x in range(gap // 2, width, gap):
            pen.line([(x, 0), (x, height)], fill=255, width=thick)
    return mask


def grid_figure(
    data: Mapping[str, Any],
    crop: Mapping[str, Any] | None = None,
    events: Iterable[Mapping[str, Any]] = (),
    seats: Sequence[Mapping[str, Any]] | None = None,
    alt: str = "Map",
    you: str | None = None,
) -> Markup:
    """The map picture (grid_map, shared) with this turn's moves and attacks the seat may see
    (from its report's events) drawn over it as a small SVG in the picture's pixels (grid_arrows).
    Its text for a screen reader: `alt`, then what it holds in words (gm.render.maptext), the
    seat `you`'s own first."""
    return (
        Markup('<div class="grid-figure"><img src="{}" alt="{}">').format(
            grid_map(data, crop), maptext.grid(data, crop, seats, you, alt)
        )
        + grid_arrows(data, crop, events, seats)
        + Markup("</div>")
    )


def grid_arrows(
    data: Mapping[str, Any],
    crop: Mapping[str, Any] | None = None,
    events: Iterable[Mapping[str, Any]] = (),
    seats: Sequence[Mapping[str, Any]] | None = None,
) -> Markup:
    """This turn's moves and attacks the seat may see (from its report's events) as an SVG in the
    pixels of the map's picture (draw, draw_png), to lay over it; "" when there are none. An
    arrow with a place outside the crop is left out."""
    marks, (width, height) = arrow_marks(data, crop, events, seats)
    if not marks:
        return Markup("")
    return (
        Markup(
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" preserveAspectRatio="none">'
            "<title>Drawn over the map: this turn's moves as arrows (the map's text says what it holds)</title>"
        )
        + marks
        + Markup("</svg>")
    )


def arrow_marks(
    data: Mapping[str, Any],
    crop: Mapping[str, Any] | None = None,
    events: Iterable[Mapping[str, Any]] = (),
    seats: Sequence[Mapping[str, Any]] | None = None,
) -> tuple[Markup, tuple[int, int]]:
    """grid_arrows' SVG elements ("" when there are none) and the picture's size in pixels, the
    space they are drawn in."""
    width, height = int(data["width"]), int(data["height"])
    x0, y0, x1, y1 = _box(crop, width, height)
    scale, margin = geometry(x1 - x0, y1 - y0)
    size = ((x1 - x0) * scale + 2 * margin, (y1 - y0) * scale + 2 * margin)

    def where(place: str) -> tuple[float, float] | None:
        x, y = _block(place)
        if x is None or y is None or not (x0 <= x < x1 and y0 <= y < y1):
            return None
        return margin + (x - x0 + 0.5) * scale, margin + (y - y0 + 0.5) * scale

    colours = {s["code"]: safe_colour(s.get("colour")) for s in seats or ()}
    marks = svg_arrows(
        arrows_of(events), where, max(scale * 1.2, 16.0), colours, counts=crop is not None, inset=scale * 0.45
    )
    return Markup("".join(marks)), size


def _block(place: str) -> tuple[int | None, int | None]:
    """A block named "x,y" as numbers; (None, None) for any other name."""
    parts = str(place).split(",")
    if len(parts) != 2 or not all(p.strip().isascii() and p.strip().isdigit() for p in parts):
        return None, None
    return int(parts[0]), int(parts[1])


def geometry(cols: int, rows: int) -> tuple[int, int]:
    """(pixels per block, margin in pixels) of a map of cols x rows blocks: block x,y's top left
    pixel is (margin + x * scale, margin + y * scale) counted from the crop's corner."""
    scale = max(3, min(MAX_BLOCK_PX, TARGET_PX // max(cols, rows)))
    return scale, max(36, scale + 8)  # room for a 3-digit coordinate at each side


def _box(crop: Mapping[str, Any] | None, width: int, height: int) -> tuple[int, int, int, int]:
    if not crop:
        return 0, 0, width, height
    x0 = max(0, min(width - 1, int(crop["x0"])))
    y0 = max(0, min(height - 1, int(crop["y0"])))
    return x0, y0, max(x0 + 1, min(width, int(crop["x1"]))), max(y0 + 1, min(height, int(crop["y1"])))


_LAYERS: dict[str | None, int] = {"group": 2, "city": 1, "capital": 1}


def _layer(mark: Mapping[str, Any]) -> int:
    return _LAYERS.get(mark.get("shape"), 0)


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's font at this size, loaded once per process (loading it decodes the font file)."""
    if size not in _fonts:
        _fonts[size] = ImageFont.load_default(size=size)
    return _fonts[size]


_fonts: dict[int, ImageFont.FreeTypeFont | ImageFont.ImageFont] = {}


def _contrast(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    r, g, b = colour
    return INK if r * 299 + g * 587 + b * 114 > 140000 else (255, 255, 255)


def _darker(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    red, green, blue = (int(v * 0.55) for v in colour)
    return red, green, blue


class _Sketch:
    """Drawing on the canvas in block coordinates (the cropped part, scaled, inside a margin)."""

    def __init__(
        self, pen: ImageDraw.ImageDraw, scale: int, margin: int, x0: int, y0: int, x1: int, y1: int, whole: bool = False
    ):
        self.pen, self.scale, self.margin = pen, scale, margin
        self.x0, self.y0, self.x1, self.y1 = x0, y0, x1, y1
        self.whole = whole  # the whole world, not a crop of it: WHOLE_LABEL_PX

    def at(self, x: float, y: float) -> tuple[float, float]:
        return self.margin + (x - self.x0) * self.scale, self.margin + (y - self.y0) * self.scale

    def inside(self, x: int, y: int) -> bool:
        return self.x0 <= x < self.x1 and self.y0 <= y < self.y1

    def borders(self, territory: list[str], owners: Mapping[str, Any]) -> None:
        """A line in the owner's darker colour wherever its territory meets another's or none."""
        if not territory:
            return
        width = max(1, self.scale // 5)
        colours = {c: _darker(_rgb(v)) for c, v in owners.items()}
        for y in range(self.y0, self.y1):
            row = territory[y] if y < len(territory) else ""
            below = territory[y + 1] if y + 1 < len(territory) else ""
            for x in range(self.x0, self.x1):
                here = row[x] if x < len(row) else ""
                right = row[x + 1] if x + 1 < len(row) else ""
                under = below[x] if x < len(below) else ""
                if here != right and x + 1 < self.x1:
                    self._edge(x + 1, y, x + 1, y + 1, colours.get(here) or colours.get(right), width)
                if here != under and y + 1 < self.y1:
                    self._edge(x, y + 1, x + 1, y + 1, colours.get(here) or colours.get(under), width)

    def _edge(self, ax: int, ay: int, bx: int, by: int, colour: tuple[int, int, int] | None, width: int) -> None:
        if colour:
            self.pen.line([self.at(ax, ay), self.at(bx, by)], fill=colour, width=width)

    def grid(self, every: int) -> None:
        for x in range(self.x0, self.x1 + 1):
            if x % every == 0:
                self.pen.line([self.at(x, self.y0), self.at(x, self.y1)], fill=(60, 60, 60), width=1)
        for y in range(self.y0, self.y1 + 1):
            if y % every == 0:
                self.pen.line([self.at(self.x0, y), self.at(self.x1, y)], fill=(60, 60, 60), width=1)

    def line(self, line: Mapping[str, Any]) -> None:
        points = [self.at(x + 0.5, y + 0.5) for x, y in line.get("blocks", [])]
        if len(points) < 2:
            return
        colour = _rgb(line.get("colour", "#000000"))
        width = max(2, self.scale // 3)
        self.pen.line(points, fill=INK, width=width + 2, joint="curve")
        self.pen.line(points, fill=colour, width=width, joint="curve")

    def mark(self, mark: Mapping[str, Any]) -> None:
        x, y = int(mark["x"]), int(mark["y"])
        if not self.inside(x, y):
            return
        cx, cy = self.at(x + 0.5, y + 0.5)
        colour = _rgb(mark.get("colour", "#000000"))
        s = self.scale
        shape = mark.get("shape")
        if shape in ("capital", "city"):
            ring = max(2, s // 3)
            half = s / 2 + ring
            self.pen.rectangle(
                [cx - half, cy - half, cx + half, cy + half], fill=colour, outline=INK, width=max(1, s // 10)
            )
            inner = s / 2 - (0 if s < 10 else s // 10)
            core = CAPITAL_GOLD if shape == "capital" else CITY_RED
            self.pen.rectangle([cx - inner, cy - inner, cx + inner, cy + inner], fill=core, outline=INK, width=1)
        else:
            half = max(2.0, s * 0.34)
            self.pen.rectangle(
                [cx - half, cy - half, cx + half, cy + half], fill=colour, outline=INK, width=max(1, s // 12)
            )
        if mark.get("tag"):
            # Above the city, or under it where above is the edge's numbers (a city on the top rows).
            gap = s / 2 + max(3, s // 2)
            above = cy - gap - 9
            self._text(cx, above if above - 2 >= self.margin else cy + gap - 4, str(mark["tag"]), 13, centred=True)
        if mark.get("note") and shape == "group" and s >= NOTE_BLOCK_PX:
            self._text(cx, cy + s * 0.36, str(mark["note"]), max(9, s // 3), centred=True)
        if mark.get("label") and s >= 12 and not (self.whole and shape == "group"):
            size = max(WHOLE_LABEL_PX if self.whole else 9, min(16, int(s * 0.42)))
            if shape == "group":
                self._text(
                    cx, cy - size * 0.6, str(mark["label"]), size, centred=True, fill=_contrast(colour), halo=False
                )
            else:
                # Right of the city, or left of it where the right is the edge's numbers.
                text, gap = str(mark["label"]), s / 2 + max(2, s // 3) + 2
                width = self.pen.textlength(text, font=_font(size))
                right_edge = self.margin + (self.x1 - self.x0) * self.scale
                at = cx + gap if cx + gap + width + 2 <= right_edge else cx - gap - width
                self._text(at, cy - size * 0.6, text, size)

    def _text(
        self,
        x: float,
        y: float,
        text: str,
        size: int,
        centred: bool = False,
        fill: tuple[int, int, int] = INK,
        halo: bool = True,
    ) -> None:
        font = _font(size)
        if centred:
            x -= self.pen.textlength(text, font=font) / 2
        if halo:
            self.pen.text((x, y), text, font=font, fill=fill, stroke_width=2, stroke_fill=(255, 255, 255))
        else:
            self.pen.text((x, y), text, font=font, fill=fill)

    def coordinates(self, every: int) -> None:
        """Numbers along all four edges every `every` blocks, so a player can write x,y."""
        size = 12 if self.scale < 14 else 14
        font = _font(size)
        top, left = self.margin, self.margin
        bottom = self.margin + (self.y1 - self.y0) * self.scale
        right = self.margin + (self.x1 - self.x0) * self.scale
        for x in range(self.x0, self.x1):
            if x % every == 0:
                px = self.at(x + 0.5, 0)[0]
                text = str(x)
                w = self.pen.textlength(text, font=font)
                self.pen.text((px - w / 2, top - size - 6), text, font=font, fill=INK)
                self.pen.text((px - w / 2, bottom + 5), text, font=font, fill=INK)
        for y in range(self.y0, self.y1):
            if y % every == 0:
                py = self.at(0, y + 0.5)[1] - size / 2 - 1
                text = str(y)
                w = self.pen.textlength(text, font=font)
                self.pen.text((left - w - 5, py), text, font=font, fill=INK)
                self.pen.text((right + 5, py), text, font=font, fill=INK)
