"""Hatching that tells apart seats whose colours look alike: a map stays readable for 32 seats.

Thirty-two colours cannot all be told apart at a glance (Empires' palette has pairs a hair
apart), so each seat whose colour is close to one already taken also gets a hatching, chosen so
that no two close colours share one. The seat's code on each of its areas is what settles it;
the hatching is what the eye catches first. The choice depends only on the seats' colours in
seating order, so a seat keeps its hatching all game.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping
from typing import TypeVar

# How far apart (CIE76 delta E in L*a*b*) two colours must be to need no other mark; at 25
# pairs such as Empires' #8969ea/#7531c6 (22) still get a hatching each.
CLOSE = 25.0
# The hatchings: none, then stripes at these angles (degrees, counter-clockwise from the
# horizontal: "45" rises to the right) and a cross.
HATCHES = ("", "45", "-45", "0", "90", "cross")

Owner = TypeVar("Owner", bound=Hashable)  # a seat code, a map's owner (None: nobody), a grid's letter


def hatches(colours: Iterable[tuple[Owner, str]], plain: Iterable[str] = ()) -> dict[Owner, int]:
    """owner -> index into HATCHES, for (owner, colour) in a fixed order (seats in seating
    order). `plain` colours (neutral, sea, unowned) never take a hatching of their own, but a
    seat whose colour looks like one of them does."""
    taken: list[tuple[tuple[float, float, float], int]] = [(_lab(colour), 0) for colour in plain]
    out: dict[Owner, int] = {}
    for owner, colour in colours:
        if owner in out:
            continue
        lab = _lab(colour)
        near = {h for other, h in taken if math.dist(lab, other) < CLOSE}
        choice = next((h for h in range(len(HATCHES)) if h not in near), 0)
        out[owner] = choice
        taken.append((lab, choice))
    return out


def pattern_defs(fills: Mapping[str, tuple[str, int]], unit: float) -> list[str]:
    """SVG <pattern> elements, one per id -> (colour, hatch): the stripes to lay over that colour
    (dark on a light colour, light on a dark one), spaced for territories about `unit` across.
    Only the stripes: a pattern that painted the colour too left a seam at every tile's edge."""
    out = ["<defs>"]
    for pattern_id, (colour, hatch) in sorted(fills.items()):
        out.append(_pattern(pattern_id, colour, hatch, unit))
    out.append("</defs>")
    return out if len(out) > 2 else []


def _pattern(pattern_id: str, colour: str, hatch: int, unit: float) -> str:
    gap = unit * 0.4
    ink, opacity = ("#1d1d1b", "0.3") if _light(colour) else ("#ffffff", "0.38")
    angle = HATCHES[hatch]
    half = gap / 2
    # One stripe across the middle of a tile, a little longer than the tile so that stripes meet;
    # the pattern's rotation turns it (SVG turns clockwise, so "45" is given as -45: "/").
    stripes = [(-1.0, half, gap + 1.0, half)]
    if angle == "cross":
        angle = "45"
        stripes.append((half, -1.0, half, gap + 1.0))
    lines = "".join(
        f'<line x1="{x1:.2f}" y1="{y1:.2f}" x2="{x2:.2f}" y2="{y2:.2f}" stroke="{ink}"'
        f' stroke-opacity="{opacity}" stroke-width="{gap * 0.26:.2f}"/>'
        for x1, y1, x2, y2 in stripes
    )
    return (
        f'<pattern id="{pattern_id}" patternUnits="userSpaceOnUse" width="{gap:.2f}" height="{gap:.2f}"'
        f' patternTransform="rotate({-int(angle)})">{lines}</pattern>'
    )


def _light(colour: str) -> bool:
    return _lab(colour)[0] > 60


def _lab(colour: str) -> tuple[float, float, float]:
    """A #rrggbb (or #rgb) colour in CIE L*a*b* (D65), where distance is what the eye sees."""
    digits = colour.lstrip("#")
    if len(digits) == 3:
        digits = "".join(c * 2 for c in digits)
    red, green, blue = (_linear(int(digits[i : i + 2], 16) / 255) for i in (0, 2, 4))
    x = (0.4124 * red + 0.3576 * green + 0.1805 * blue) / 0.95047
    y = 0.2126 * red + 0.7152 * green + 0.0722 * blue
    z = (0.0193 * red + 0.1192 * green + 0.9505 * blue) / 1.08883
    fx, fy, fz = (_f(v) for v in (x, y, z))
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def _linear(channel: float) -> float:
    return channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4


def _f(t: float) -> float:
    return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116
