"""This turn's moves and attacks drawn as SVG arrows over any map (graph, grid), in its coordinates.

The arrows come from gm.core.arrows, that is from the events the seat may see; a map only says
where each place is. A move is an arrow in the mover's colour edged in ink; an attack is a
bolder arrow edged in red, with a bar across its tip when it was beaten off.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence

from markupsafe import Markup, escape

from gm.core.arrows import Arrow

INK = "#1d1d1b"
ATTACK_EDGE = "#c0161b"
_FALLBACK = "#ffffff"

Point = tuple[float, float]
_Box = tuple[float, float, float, float]  # left, top, right, bottom
# A place's code and the line under it fill a square this many radii from its point, each way.
_LABEL = 0.62
# Where along its shaft an arrow's count may sit, the middle first.
_ALONG = (0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8)


def arrow_key(moves: Sequence[Arrow]) -> Markup:
    """What the arrows mean, under a map that has any."""
    if not moves:
        return Markup("")
    return Markup(
        '<p class="map-key">Arrows: this turn\'s moves you may see, in the colour of who moved; '
        "attacks bolder and edged in red, with a bar across the tip where they were beaten off.</p>"
    )


def svg_arrows(
    arrows: Iterable[Arrow],
    where: Callable[[str], Point | None],
    unit: float,
    colours: Mapping[str, str],
    counts: bool = False,
    inset: float = 0.0,
    tight: float = 1.0,
    labels: Sequence[Point] = (),
) -> list[str]:
    """SVG elements for the arrows whose places the map knows (`where` gives a place's point or
    None). unit: the size an arrow is drawn to (a territory's radius); inset: how far from a
    place's point an arrow starts and stops (the same radius, so arrows run rim to rim), times
    `tight` where the places are too close for an arrow between the rims;
    colours: seat -> fill; counts: write the troops that went beside each arrow; labels: the
    points where the map writes a place's code, which a count's box is kept off where it can be."""
    drawn = [(a, pts) for a in arrows if (pts := _points(a, where)) is not None]
    shifts = _shifts([pts for _, pts in drawn], unit)
    # What a count's box must not cover: each label (a square of its code's size) and the boxes
    # already placed.
    taken: list[_Box] = [
        (x - unit * _LABEL, y - unit * _LABEL, x + unit * _LABEL, y + unit * _LABEL) for x, y in labels
    ]
    out: list[str] = []
    for (arrow, pts), shift in zip(drawn, shifts):
        # An arrow shorter than its own size (an attack on the next block) runs centre to centre.
        length = _length(pts)
        trimmed = (
            pts
            if length <= 2 * unit
            else _trim(_shifted(pts, shift), inset if length > 2 * inset + 1.2 * unit else inset * tight)
        )
        out += _arrow(arrow, trimmed, unit, colours.get(arrow.seat or "", _FALLBACK), counts, taken)
    return out


def _points(arrow: Arrow, where: Callable[[str], Point | None]) -> list[Point] | None:
    points = [where(place) for place in arrow.path]
    known = [p for p in points if p is not None]
    if len(known) != len(points):
        return None
    unique = [p for i, p in enumerate(known) if i == 0 or p != known[i - 1]]
    return unique if len(unique) >= 2 else None


def _length(pts: list[Point]) -> float:
    return sum(math.hypot(b[0] - a[0], b[1] - a[1]) for a, b in zip(pts, pts[1:]))


def _shifts(paths: Sequence[list[Point]], unit: float) -> list[float]:
    """Arrows between the same two places (both ways, or twice) side by side, not on top."""
    pairs: dict[tuple[Point, Point], list[int]] = {}
    for i, pts in enumerate(paths):
        pairs.setdefault((min(pts[0], pts[-1]), max(pts[0], pts[-1])), []).append(i)
    shifts = [0.0] * len(paths)
    for members in pairs.values():
        for k, i in enumerate(members):
            side = 1.0 if paths[i][0] <= paths[i][-1] else -1.0
            shifts[i] = (k - (len(members) - 1) / 2) * unit * 0.42 * side
    return shifts


def _shifted(pts: list[Point], shift: float) -> list[Point]:
    if not shift:
        return pts
    (ax, ay), (bx, by) = pts[0], pts[-1]
    length = math.hypot(bx - ax, by - ay) or 1.0
    nx, ny = -(by - ay) / length * shift, (bx - ax) / length * shift
    return [(x + nx, y + ny) for x, y in pts]


def _trim(pts: list[Point], inset: float) -> list[Point]:
    """The path shortened by `inset` at both ends (by at most 30 % of an end's segment)."""
    if not inset:
        return pts
    first = _toward(pts[0], pts[1], inset)
    last = _toward(pts[-1], pts[-2], inset * 1.05)
    return [first, *pts[1:-1], last]


def _toward(a: Point, b: Point, distance: float) -> Point:
    length = math.hypot(b[0] - a[0], b[1] - a[1])
    # Never more than 30 % of the segment: a short arrow (an attack on the next block) stays one.
    step = min(distance, length * 0.3) / length if length else 0.0
    return a[0] + (b[0] - a[0]) * step, a[1] + (b[1] - a[1]) * step


def _arrow(arrow: Arrow, pts: list[Point], unit: float, fill: str, counts: bool, taken: list[_Box]) -> list[str]:
    attack = arrow.kind == "attack"
    half = unit * (0.12 if attack else 0.085)
    edge_colour = ATTACK_EDGE if attack else INK
    edge = unit * (0.07 if attack else 0.045)
    (px, py), (tx, ty) = pts[-2], pts[-1]
    length = math.hypot(tx - px, ty - py) or 1.0
    ux, uy = (tx - px) / length, (ty - py) / length
    head = min(unit * (0.62 if attack else 0.55), length * 0.7)
    wide = head * (0.62 if attack else 0.55)
    neck = (tx - ux * head, ty - uy * head)
    shaft = " ".join(f"{_f(x)},{_f(y)}" for x, y in [*pts[:-1], neck])
    tip = [(tx, ty), (neck[0] - uy * wide, neck[1] + ux * wide), (neck[0] + uy * wide, neck[1] - ux * wide)]
    out = [
        f'<polyline points="{shaft}" fill="none" stroke="{edge_colour}" stroke-width="{_f(2 * (half + edge))}"'
        f' stroke-linejoin="round"/>',
        f'<polyline points="{shaft}" fill="none" stroke="{fill}" stroke-width="{_f(2 * half)}" stroke-linejoin="round"/>',
        f'<polygon points="{" ".join(f"{_f(x)},{_f(y)}" for x, y in tip)}" fill="{fill}" stroke="{edge_colour}"'
        f' stroke-width="{_f(edge)}" stroke-linejoin="round"/>',
    ]
    if attack and not arrow.taken:
        bar = wide * 1.15
        out.append(
            f'<line x1="{_f(tx - uy * bar)}" y1="{_f(ty + ux * bar)}" x2="{_f(tx + uy * bar)}"'
            f' y2="{_f(ty - ux * bar)}" stroke="{ATTACK_EDGE}" stroke-width="{_f(unit * 0.14)}"/>'
        )
    if counts and arrow.count is not None:
        out += _count(arrow.count, [*pts[:-1], neck], unit, taken)
    return out


def _count(count: int, pts: list[Point], unit: float, taken: list[_Box]) -> list[str]:
    """The troops that went, in a small white box beside the arrow's shaft, where it hides neither
    the arrow nor a label: beside the middle, to the arrow's left as it goes, unless that box would
    cover a place's code or another count; then the first spot along the shaft, on either side,
    that covers least of them (an Empires arrow across a sea hid the sea's code, "E③")."""
    size = unit * 0.42
    width = size * (0.35 + 0.62 * len(str(count)))
    boxes = []
    for fraction in _ALONG:
        (x, y), (nx, ny) = _along(pts, fraction)
        for side in (1.0, -1.0):
            cx, cy = x + side * nx * size * 1.1, y + side * ny * size * 1.1
            boxes.append((cx - width / 2, cy - size * 0.62, cx + width / 2, cy + size * 0.62))
    # The first of the least covering (min keeps the first of equals): the middle, on the left,
    # wherever that is clear.
    best = min(boxes, key=lambda box: sum(_overlap(box, other) for other in taken))
    left, top, right, bottom = best
    taken.append(best)
    x, y = (left + right) / 2, (top + bottom) / 2
    return [
        f'<rect x="{_f(left)}" y="{_f(top)}" width="{_f(width)}" height="{_f(size * 1.24)}"'
        f' rx="{_f(size * 0.3)}" fill="#ffffff" stroke="{INK}" stroke-width="{_f(unit * 0.03)}"/>',
        f'<text x="{_f(x)}" y="{_f(y + size * 0.36)}" text-anchor="middle" font-size="{_f(size)}"'
        f' font-weight="bold" fill="{INK}">{escape(str(count))}</text>',
    ]


def _overlap(a: _Box, b: _Box) -> float:
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))


def _along(pts: list[Point], fraction: float) -> tuple[Point, Point]:
    """The point `fraction` of the way along a path and the unit normal to its left there."""
    lengths = [math.hypot(b[0] - a[0], b[1] - a[1]) for a, b in zip(pts, pts[1:])]
    left = sum(lengths) * fraction
    for (a, b), length in zip(zip(pts, pts[1:]), lengths):
        if length and left <= length:
            t = left / length
            return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t), (
                (b[1] - a[1]) / length,
                -(b[0] - a[0]) / length,
            )
        left -= length
    return pts[0], (0.0, -1.0)


def _f(number: float) -> str:
    return f"{number:.2f}".rstrip("0").rstrip(".")
