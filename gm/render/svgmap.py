"""A map as SVG: borders, territories in their owner's colour, troops, a legend; and a seat's overlay.

Pillow, which measures the legend's text, is imported inside _dejavu, when a legend is first
drawn: `gm --help` imports this module (through gm.render.environment) and should not pay for it.
"""

from __future__ import annotations

import functools
import hashlib
import math
import re
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import orjson
from markupsafe import Markup, escape

from gm.core.arrows import Arrow
from gm.render.arrows import svg_arrows
from gm.render.marks import hatches, pattern_defs

if TYPE_CHECKING:
    from PIL.ImageFont import FreeTypeFont

# Only plain hex colours reach an attribute: a view is data, and fill="url(...)" is a reference.
_HEX_COLOUR = re.compile(r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})")
_FALLBACK_COLOUR = "#cccccc"
_INK = "#1d1d1b"
_FONT = "DejaVu Sans, sans-serif"
# A territory's code is this many radii high: at the smallest print size gm allows (MIN_LABEL_PT
# in gm.render.turnmap) a three-letter code still fits its circle.
CODE_SIZE = 0.66
SECOND_SIZE = 0.52  # the line under it: the owner's code and the troops
# Arrows run rim to rim, or where neighbours nearly touch (Empires' areas are 2.4 radii apart)
# from this many radii off the centres: clear of the labels, and still long enough to see.
ARROW_INSET = 0.72
# Owners that are not seats: their areas carry no seat code.
_NOT_SEATS = {None, "neutral", "sea"}


_T = TypeVar("_T")
_KEEP = 16  # drawings kept in a process: a run-due makes one game's turn after another
_kept: OrderedDict[tuple[str, bytes], Any] = OrderedDict()


def _once(kind: str, make: Callable[[], _T], *parts: object) -> _T:
    """make()'s result, made once per process for the same `parts` by content: every seat of a
    turn whose view shows the same map asks for the same shared drawing and its size (issue 32:
    5.7 and 2.4 ms of the gm process for each turn-10 Empires seat, made again for every seat).
    The key is a digest of the parts as JSON; parts orjson cannot write are not kept."""
    try:
        data = orjson.dumps(parts, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS)
    except orjson.JSONEncodeError:
        return make()
    key = (kind, hashlib.blake2b(data, digest_size=20).digest())
    if key not in _kept:
        _kept[key] = make()
        while len(_kept) > _KEEP:
            _kept.popitem(last=False)
    _kept.move_to_end(key)
    return _kept[key]  # type: ignore[no-any-return]


def svg_map(
    view_map: Mapping[str, Any],
    you: str | None = None,
    names: Mapping[str, str] | None = None,
    shared: bool = False,
    seats: Sequence[Mapping[str, Any]] | None = None,
) -> Markup:
    """The map of a view as an SVG element, safe to put into an autoescaped template.

    view_map: the view's "map" ({"width", "height", "territories": [...]}); a territory with a
        "shape" (list of [x, y]) is drawn as that polygon, otherwise as a circle at x, y.
    you: the seat whose territories get a strong outline (None for a neutral view).
    names: seat code -> label for the legend (e.g. "Britain"); codes alone without it.
    shared: the same picture for every seat of a turn: no seat's outlines and no "(you)", but
        the legend says what the strong outline means (svg_overlay draws it for one seat).
    seats: the view's seats ({"code", "colour"} each) in seating order: which seats' colours
        look alike, so each of those gets a hatching it keeps all game (gm.render.marks).
    The shared map is made once per process for the same view, names and seats (_once).
    """
    if shared:
        return _once("map", lambda: _svg_map(view_map, None, names, True, seats), view_map, names, seats)
    return _svg_map(view_map, you, names, False, seats)


def _svg_map(
    view_map: Mapping[str, Any],
    you: str | None,
    names: Mapping[str, str] | None,
    shared: bool,
    seats: Sequence[Mapping[str, Any]] | None,
) -> Markup:
    width, height = _number(view_map["width"]), _number(view_map["height"])
    board = _Board(view_map, seats)
    layout = _legend(board, None if shared else you, names or {}, width, height, shared)
    total_height = height + layout.height
    out = [
        (
            f'<svg xmlns="http://www.w3.org/2000/svg" class="map" viewBox="0 0 {_fmt(width)} {_fmt(total_height)}"'
            f' width="{_fmt(width)}" height="{_fmt(total_height)}" font-family="{_FONT}">'
        ),
        *board.defs(),
        f'<rect x="0" y="0" width="{_fmt(width)}" height="{_fmt(total_height)}" fill="#ffffff"/>' if shared else "",
        f'<rect x="0" y="0" width="{_fmt(width)}" height="{_fmt(height)}" fill="#f4f1ea" stroke="#b9b3a5"/>',
    ]
    out += _borders(board.territories, board.radius)
    for territory in board.territories:
        out += _territory(board, territory, None if shared else you)
    out += layout.drawing()
    out.append("</svg>")
    return Markup("\n".join(line for line in out if line))


# Its text in a tagged report (an inline <svg> is a figure there, and every figure needs one).
OVERLAY_TITLE = "<title>Drawn over the map: your own places outlined and this turn's moves as arrows (the map's text says what it holds)</title>"


def svg_overlay(
    view_map: Mapping[str, Any],
    you: str,
    names: Mapping[str, str] | None = None,
    arrows: Iterable[Arrow] = (),
    seats: Sequence[Mapping[str, Any]] | None = None,
) -> Markup:
    """One seat's marks for the shared map of svg_map(..., shared=True), in the same coordinates:
    the strong outline of its territories and of its legend swatch, and this turn's moves and
    attacks it may see as arrows. Transparent elsewhere."""
    width, height = _number(view_map["width"]), _number(view_map["height"])
    board = _board(view_map, seats)
    layout = _legend(board, None, names or {}, width, height, True)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="map-overlay" viewBox="0 0 {_fmt(width)} '
        f'{_fmt(height + layout.height)}" preserveAspectRatio="none">',
        OVERLAY_TITLE,
    ]
    out += _outlines(board, you)
    arrows = list(arrows)
    out += svg_arrows(arrows, board.where, board.radius, board.seat_colours, inset=board.radius, tight=ARROW_INSET)
    out += _labels_over(board, arrows)
    out += layout.ring(you)
    out.append("</svg>")
    return Markup("\n".join(out))


def svg_region_board(view_map: Mapping[str, Any], seats: Sequence[Mapping[str, Any]] | None = None) -> str:
    """What every seat's region map of a view has in common, for the whole board: the
    territories and borders, no seat's outlines and no arrows (svg_region_overlay has those). Drawn
    once a turn into a raster each seat's region is cut from (gm.render.pictures.map_crop); its
    text is made once per process for the same view and seats (_once), as the shared map's is."""
    return _once("region board", lambda: _svg_region_board(view_map, seats), view_map, seats)


def _svg_region_board(view_map: Mapping[str, Any], seats: Sequence[Mapping[str, Any]] | None) -> str:
    width, height = _number(view_map["width"]), _number(view_map["height"])
    board = _Board(view_map, seats)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="map-region-board" viewBox="0 0 {_fmt(width)} '
        f'{_fmt(height)}" font-family="{_FONT}">',
        *board.defs(),
        f'<rect x="0" y="0" width="{_fmt(width)}" height="{_fmt(height)}" fill="#f4f1ea"/>',
    ]
    out += _borders(board.territories, board.radius)
    for territory in board.territories:
        out += _territory(board, territory, None)
    out.append("</svg>")
    return "\n".join(out)


# Its text in a tagged report, as OVERLAY_TITLE's for the whole map.
REGION_OVERLAY_TITLE = "<title>Drawn over the region map: your own places outlined and this turn's moves as arrows with the troops that went</title>"


def svg_region_overlay(
    view_map: Mapping[str, Any],
    you: str,
    box: tuple[float, float, float, float],
    arrows: Iterable[Arrow] = (),
    seats: Sequence[Mapping[str, Any]] | None = None,
) -> Markup:
    """One seat's marks over its region map cut from svg_region_board's raster, in the part's
    coordinates (box: left, top, right, bottom): its outlines, and the arrows with the troops that
    went. Transparent elsewhere."""
    left, top, right, bottom = box
    board = _board(view_map, seats)
    r = board.radius
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="map-overlay" viewBox="{_fmt(left)} {_fmt(top)} '
        f'{_fmt(right - left)} {_fmt(bottom - top)}" preserveAspectRatio="none" font-family="{_FONT}">',
        REGION_OVERLAY_TITLE,
    ]
    out += _outlines(board, you)
    arrows = list(arrows)
    out += svg_arrows(
        arrows,
        board.where,
        r,
        board.seat_colours,
        counts=True,
        inset=r,
        tight=ARROW_INSET,
        labels=list(board.points.values()),
    )
    out += _labels_over(board, arrows)
    out.append("</svg>")
    return Markup("\n".join(out))


def map_metrics(
    view_map: Mapping[str, Any], seats: Sequence[Mapping[str, Any]] | None = None
) -> tuple[float, float, float]:
    """(width, height with the legend, a territory's radius) of svg_map's drawing, in map units:
    what gm.render.turnmap needs to choose the page a map is readable on. Once per process for
    the same view and seats (_once)."""
    return _once("metrics", lambda: _map_metrics(view_map, seats), view_map, seats)


def _map_metrics(view_map: Mapping[str, Any], seats: Sequence[Mapping[str, Any]] | None) -> tuple[float, float, float]:
    width, height = _number(view_map["width"]), _number(view_map["height"])
    board = _Board(view_map, seats)
    return width, height + _legend(board, None, {}, width, height, True).height, board.radius


def _board(view_map: Mapping[str, Any], seats: Sequence[Mapping[str, Any]] | None) -> _Board:
    """The _Board of a view and seats, made once per process for the same ones (_once): a seat's
    overlay on the whole map and on its region each read the same board, and so does every seat
    of a turn whose views show the same map (issue 32: 3 ms of the `gm` process a turn-10 Empires
    seat, the 215 areas' radius and colours worked out again for each drawing). A board is only
    read once made."""
    return _once("board", lambda: _Board(view_map, seats), view_map, seats)


class _Board:
    """A view's map as drawn: its territories, their radius, where each is, each owner's fill
    (a hatching where its colour looks like another's) and each seat's colour."""

    def __init__(self, view_map: Mapping[str, Any], seats: Sequence[Mapping[str, Any]] | None):
        self.territories = list(view_map["territories"])
        width, height = _number(view_map["width"]), _number(view_map["height"])
        self.radius = _radius(self.territories, width, height)
        self.points = {t["code"]: (_number(t["x"]), _number(t["y"])) for t in self.territories}
        owned: dict[str | None, str] = {}
        for t in self.territories:
            owned.setdefault(t.get("owner"), safe_colour(t.get("colour")))
        order = [(s["code"], safe_colour(s.get("colour"))) for s in seats or ()]
        self.seat_codes = {code for code, _ in order} or {o for o in owned if o not in _NOT_SEATS}
        order += sorted(((o, c) for o, c in owned.items() if o in self.seat_codes), key=lambda oc: str(oc[0]))
        self.seat_colours = dict(reversed(order))  # a seat's own colour before its areas' colour
        # Neutral, sea and unowned keep their plain colour; a seat like one of them is hatched.
        hatch = hatches(order, [c for o, c in owned.items() if o not in self.seat_codes])
        self.patterns = {
            f"hatch-{i}": (colour, hatch[owner]) for i, (owner, colour) in enumerate(owned.items()) if hatch.get(owner)
        }
        self.hatching = {owner: f"url(#hatch-{i})" for i, owner in enumerate(owned) if hatch.get(owner)}

    def where(self, code: str) -> tuple[float, float] | None:
        return self.points.get(code)

    def hatch(self, owner: str | None) -> str | None:
        """The stripes laid over `owner`'s colour (a fill="url(...)"), or None."""
        return self.hatching.get(owner)

    def defs(self) -> list[str]:
        return pattern_defs(self.patterns, self.radius)


def _outlines(board: _Board, you: str) -> list[str]:
    """The strong outline of each of `you`'s territories."""
    r = board.radius
    stroke = f'fill="none" stroke="{_INK}" stroke-width="{_fmt(r * 0.2)}"'
    out = []
    for t in board.territories:
        if t.get("owner") != you:
            continue
        if t.get("shape"):
            points = " ".join(f"{_fmt(_number(px))},{_fmt(_number(py))}" for px, py in t["shape"])
            out.append(f'<polygon points="{points}" {stroke} stroke-linejoin="round"/>')
        else:
            out.append(f'<circle cx="{_fmt(_number(t["x"]))}" cy="{_fmt(_number(t["y"]))}" r="{_fmt(r)}" {stroke}/>')
    return out


def _borders(territories: list[Mapping[str, Any]], radius: float) -> list[str]:
    """One line per pair of neighbours, drawn once, under the territories."""
    where = {t["code"]: (_number(t["x"]), _number(t["y"])) for t in territories}
    pairs = sorted({tuple(sorted((t["code"], n))) for t in territories for n in t["neighbours"] if n in where})
    stroke = _fmt(max(radius * 0.08, 1))
    return [
        f'<line x1="{_fmt(where[a][0])}" y1="{_fmt(where[a][1])}" x2="{_fmt(where[b][0])}" y2="{_fmt(where[b][1])}"'
        f' stroke="#8a8578" stroke-width="{stroke}"/>'
        for a, b in pairs
    ]


def _territory(board: _Board, t: Mapping[str, Any], you: str | None) -> list[str]:
    r = board.radius
    x, y = _number(t["x"]), _number(t["y"])
    fill = safe_colour(t.get("colour"))
    mine = you is not None and t.get("owner") == you
    if mine:
        stroke = f'stroke="{_INK}" stroke-width="{_fmt(r * 0.2)}"'
    else:
        stroke = f'stroke="#5b574f" stroke-width="{_fmt(r * 0.06)}"'
    shape = t.get("shape")
    hatch = board.hatch(t.get("owner"))
    if shape:
        points = " ".join(f"{_fmt(_number(px))},{_fmt(_number(py))}" for px, py in shape)
        out = [f'<polygon points="{points}" fill="{fill}" {stroke} stroke-linejoin="round"/>']
        if hatch:
            out.append(f'<polygon points="{points}" fill="{hatch}"/>')
    else:
        out = [f'<circle cx="{_fmt(x)}" cy="{_fmt(y)}" r="{_fmt(r)}" fill="{fill}" {stroke}/>']
        if hatch:
            out.append(f'<circle cx="{_fmt(x)}" cy="{_fmt(y)}" r="{_fmt(r)}" fill="{hatch}"/>')
    if t.get("core_of"):
        out.append(
            f'<circle cx="{_fmt(x)}" cy="{_fmt(y)}" r="{_fmt(r * 0.87)}" fill="none" stroke="{_ink_on(fill)}"'
            f' stroke-width="{_fmt(r * 0.05)}" stroke-dasharray="{_fmt(r * 0.14)} {_fmt(r * 0.1)}"/>'
        )
    return out + _label(board, t)


def _label(board: _Board, t: Mapping[str, Any], plate: bool = False) -> list[str]:
    """A territory's code and the line under it; on a plate of its own colour (plate=True) where
    it is written again over an arrow that crosses it (_labels_over)."""
    r = board.radius
    x, y = _number(t["x"]), _number(t["y"])
    fill = safe_colour(t.get("colour"))
    ink = _ink_on(fill)
    second = _second_line(t, board.seat_codes)
    out = []
    if plate:
        half = max(text_ems(t["code"]) * CODE_SIZE, text_ems(second) * SECOND_SIZE) * r / 2 + r * 0.06
        bottom = y + (r * 0.72 if second else r * 0.1)
        out.append(
            f'<rect x="{_fmt(x - half)}" y="{_fmt(y - r * 0.6)}" width="{_fmt(2 * half)}"'
            f' height="{_fmt(bottom - (y - r * 0.6))}" rx="{_fmt(r * 0.12)}" fill="{fill}"/>'
        )
    out.append(
        f'<text x="{_fmt(x)}" y="{_fmt(y - r * 0.04)}" text-anchor="middle" font-size="{_fmt(r * CODE_SIZE)}"'
        f' font-weight="bold" fill="{ink}">{escape(t["code"])}</text>'
    )
    if second:
        out.append(
            f'<text x="{_fmt(x)}" y="{_fmt(y + r * 0.6)}" text-anchor="middle" font-size="{_fmt(r * SECOND_SIZE)}"'
            f' fill="{ink}">{escape(second)}</text>'
        )
    return out


def _labels_over(board: _Board, arrows: Sequence[Arrow]) -> list[str]:
    """The labels of territories an arrow passes over on its way (not where it starts or ends),
    written again on top: an Empires attack across a sea ran over the sea's code."""
    crossed: list[str] = []
    for arrow in arrows:
        points = [board.where(place) for place in arrow.path]
        segments = [(a, b) for a, b in zip(points, points[1:]) if a is not None and b is not None]
        for t in board.territories:
            if t["code"] in arrow.path or t["code"] in crossed:
                continue
            centre = (_number(t["x"]), _number(t["y"]))
            if any(_distance(centre, a, b) < board.radius * 0.75 for a, b in segments):
                crossed.append(t["code"])
    return [line for t in board.territories if t["code"] in crossed for line in _label(board, t, plate=True)]


def _distance(p: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
    """How far p is from the segment a-b."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    span = dx * dx + dy * dy
    t = 0.0 if not span else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / span))
    return math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy)


def text_ems(text: str) -> float:
    """How wide `text` is in DejaVu Sans, the maps' font, in ems: measured with the font's own
    glyphs (the fonts-dejavu-core package gm needs), else a little over an estimate."""
    font = _dejavu()
    if font is not None:
        return font.getlength(text) / 100
    return 1.05 * sum(
        0.32 if c == " " else 0.36 if c in "iljtfr:;,.()'|!" else 0.72 if c.isupper() else 0.6 for c in text
    )


@functools.cache
def _dejavu() -> FreeTypeFont | None:
    from PIL import ImageFont

    try:
        return ImageFont.truetype("DejaVuSans.ttf", 100)
    except OSError:  # not installed where Pillow looks: the estimate will do
        return None


def _second_line(t: Mapping[str, Any], seats: set[str | None]) -> str:
    """Under the code: the owner's seat code (colours alone cannot tell 32 seats apart) and the
    troops ("?" where they are hidden)."""
    troops = "?" if t.get("troops") is None else str(t["troops"])
    owner = t.get("owner")
    return f"{owner} {troops}".strip() if owner in seats else troops


def _legend(
    board: _Board, you: str | None, names: Mapping[str, str], width: float, height: float, shared: bool = False
) -> _Legend:
    """Legend rows under the map: one swatch per owner, then what the outlines mean."""
    owners: dict[str | None, str] = {}
    for t in board.territories:
        owners.setdefault(t.get("owner"), safe_colour(t.get("colour")))
    entries: list[_Entry] = []
    for owner in sorted(o for o in owners if o not in (None, "neutral")):
        label = f"{owner} {names[owner]}" if owner in names else str(owner)
        if owner == you:
            label += " (you)"
        entries.append(("swatch", owners[owner], label, owner))
        if board.hatch(owner):
            entries[-1] = ("swatch", f"{owners[owner]} {board.hatch(owner)}", label, owner)
    if "neutral" in owners:
        entries.append(("swatch", owners["neutral"], "neutral", None))
    if None in owners:
        entries.append(("swatch", owners[None], "unowned", None))
    if you is not None or shared:
        entries.append(("yours", "#ffffff", "thick outline: yours", None))
    if any(t.get("core_of") for t in board.territories):
        entries.append(("core", "#ffffff", "dashed ring: home territory", None))
    entries.append(("text", "", "2nd line: owner, troops", None))
    return _Legend(entries, width, height, max(width / 70, board.radius * 0.45))


# A legend entry: kind ("swatch", "yours", "core", "text"), its colour (and hatching, for a
# swatch), its label, and the owner it stands for (None for the others).
_Entry = tuple[str, str, str, str | None]


class _Legend:
    """Where each legend entry goes: up to four to a row under the map, fewer where the longest
    entry would run into the next (a small map's "thick outline: yours" was cut at its edge),
    and in a smaller font where even one to a row would not fit."""

    PER_ROW = 4

    def __init__(self, entries: list[_Entry], width: float, top: float, font: float):
        widest = max(self._ems(label) for _, _, label, _ in entries)
        font = min(font, width / widest)
        self.per_row = max(1, min(self.PER_ROW, int(width // (widest * font))))
        self.entries, self.top, self.font = entries, top, font
        self.column, self.row_height, self.box = width / self.per_row, font * 2, font * 1.1
        self.height = math.ceil(len(entries) / self.per_row) * self.row_height + font * 0.5

    @staticmethod
    def _ems(label: str) -> float:
        """An entry's width in ems: the margin, the swatch and its gap, the label, a gap after."""
        return 1 + 1.65 + text_ems(label) + 0.25

    def place(self, i: int) -> tuple[float, float]:
        """(left, middle) of entry i."""
        left = (i % self.per_row) * self.column + self.font
        return left, self.top + self.row_height * (i // self.per_row) + self.row_height * 0.75

    def drawing(self) -> list[str]:
        out, font, box = [], self.font, self.box
        for i, (kind, colour, label, _) in enumerate(self.entries):
            left, mid = self.place(i)
            if kind == "swatch":
                colour, _, hatch = colour.partition(" ")  # "#rrggbb", and its stripes if any
                out.append(
                    f'<rect x="{_fmt(left)}" y="{_fmt(mid - box / 2)}" width="{_fmt(box)}" height="{_fmt(box)}"'
                    f' fill="{colour}" stroke="#5b574f" stroke-width="{_fmt(font * 0.06)}"/>'
                )
                if hatch:
                    out.append(
                        f'<rect x="{_fmt(left)}" y="{_fmt(mid - box / 2)}" width="{_fmt(box)}"'
                        f' height="{_fmt(box)}" fill="{hatch}"/>'
                    )
            elif kind == "yours":
                out.append(
                    f'<circle cx="{_fmt(left + box / 2)}" cy="{_fmt(mid)}" r="{_fmt(box / 2)}" fill="#ffffff"'
                    f' stroke="{_INK}" stroke-width="{_fmt(font * 0.25)}"/>'
                )
            elif kind == "core":
                dashes = f"{_fmt(font * 0.2)} {_fmt(font * 0.14)}"
                out.append(
                    f'<circle cx="{_fmt(left + box / 2)}" cy="{_fmt(mid)}" r="{_fmt(box / 2)}" fill="none"'
                    f' stroke="{_INK}" stroke-width="{_fmt(font * 0.08)}" stroke-dasharray="{dashes}"/>'
                )
            out.append(
                f'<text x="{_fmt(left + box * 1.5)}" y="{_fmt(mid + font * 0.35)}" font-size="{_fmt(font)}"'
                f' fill="{_INK}">{escape(label)}</text>'
            )
        return out

    def ring(self, owner: str | None) -> list[str]:
        """The strong outline around `owner`'s swatch, as its territories have."""
        for i, (kind, _, _, whose) in enumerate(self.entries):
            if kind == "swatch" and whose == owner:
                left, mid = self.place(i)
                pad = self.font * 0.2
                return [
                    f'<rect x="{_fmt(left - pad)}" y="{_fmt(mid - self.box / 2 - pad)}" width="{_fmt(self.box + 2 * pad)}"'
                    f' height="{_fmt(self.box + 2 * pad)}" fill="none" stroke="{_INK}"'
                    f' stroke-width="{_fmt(self.font * 0.25)}"/>'
                ]
        return []


def territory_radius(view_map: Mapping[str, Any]) -> float:
    """The radius every territory of the map is drawn with, in map units."""
    return _radius(list(view_map["territories"]), _number(view_map["width"]), _number(view_map["height"]))


def _radius(territories: list[Mapping[str, Any]], width: float, height: float) -> float:
    """Circles as large as they can be without touching the nearest other territory."""
    return _radius_of(tuple((_number(t["x"]), _number(t["y"])) for t in territories), min(width, height))


@functools.lru_cache(maxsize=32)
def _radius_of(points: tuple[tuple[float, float], ...], side: float) -> float:
    # Every pair of 215 areas: done once per map, not once per seat (cached by the points).
    nearest = min(
        (math.dist(a, b) for i, a in enumerate(points) for b in points[i + 1 :] if a != b),
        default=side,
    )
    return max(side * 0.02, min(nearest * 0.42, side * 0.06))


def _ink_on(fill: str) -> str:
    """Black or white text, whichever reads better on the fill colour."""
    digits = fill[1:]
    if len(digits) == 3:
        digits = "".join(c * 2 for c in digits)
    red, green, blue = (int(digits[i : i + 2], 16) / 255 for i in (0, 2, 4))
    light = 0.2126 * red + 0.7152 * green + 0.0722 * blue
    return _INK if light > 0.5 else "#ffffff"


def safe_colour(value: object) -> str:
    """`value` if it is a plain hex colour, else a neutral grey: only such colours reach SVG or CSS."""
    return value if isinstance(value, str) and _HEX_COLOUR.fullmatch(value) else _FALLBACK_COLOUR


def _number(value: str | float) -> float:
    """A coordinate as a finite float; float() also rejects any text smuggled into a view."""
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(f"map coordinate is not a finite number: {value!r}")
    return number


def _fmt(number: float) -> str:
    return f"{number:.2f}".rstrip("0").rstrip(".")
