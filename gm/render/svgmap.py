"""A seat's map as inline SVG: borders, territories in their owner's colour, troops, a legend."""
from __future__ import annotations

import math
import re
from collections.abc import Mapping

from markupsafe import Markup, escape

# Only plain hex colours reach an attribute: a view is data, and fill="url(...)" is a reference.
_HEX_COLOUR = re.compile(r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})")
_FALLBACK_COLOUR = "#cccccc"
_INK = "#1d1d1b"
_FONT = "DejaVu Sans, sans-serif"


def svg_map(view_map: Mapping, you: str | None = None, names: Mapping[str, str] | None = None) -> Markup:
    """The map of a view as an SVG element, safe to put into an autoescaped template.

    view_map: the view's "map" ({"width", "height", "territories": [...]}); a territory with a
        "shape" (list of [x, y]) is drawn as that polygon, otherwise as a circle at x, y.
    you: the seat whose territories get a strong outline (None for a neutral view).
    names: seat code -> label for the legend (e.g. "Britain"); codes alone without it.
    """
    width, height = _number(view_map["width"]), _number(view_map["height"])
    territories = list(view_map["territories"])
    radius = _radius(territories, width, height)
    legend, legend_height = _legend(territories, you, names or {}, width, height, radius)
    total_height = height + legend_height
    out = [
        (
            f'<svg xmlns="http://www.w3.org/2000/svg" class="map" viewBox="0 0 {_fmt(width)} {_fmt(total_height)}"'
            f' width="{_fmt(width)}" height="{_fmt(total_height)}" font-family="{_FONT}">'
        ),
        f'<rect x="0" y="0" width="{_fmt(width)}" height="{_fmt(height)}" fill="#f4f1ea" stroke="#b9b3a5"/>',
    ]
    out += _borders(territories, radius)
    for territory in territories:
        out += _territory(territory, radius, you)
    out += legend
    out.append("</svg>")
    return Markup("\n".join(out))


def _borders(territories: list, radius: float) -> list[str]:
    """One line per pair of neighbours, drawn once, under the territories."""
    where = {t["code"]: (_number(t["x"]), _number(t["y"])) for t in territories}
    pairs = sorted({tuple(sorted((t["code"], n))) for t in territories for n in t["neighbours"] if n in where})
    stroke = _fmt(max(radius * 0.08, 1))
    return [
        f'<line x1="{_fmt(where[a][0])}" y1="{_fmt(where[a][1])}" x2="{_fmt(where[b][0])}" y2="{_fmt(where[b][1])}"'
        f' stroke="#8a8578" stroke-width="{stroke}"/>'
        for a, b in pairs
    ]


def _territory(t: Mapping, r: float, you: str | None) -> list[str]:
    x, y = _number(t["x"]), _number(t["y"])
    fill = safe_colour(t.get("colour"))
    mine = you is not None and t.get("owner") == you
    if mine:
        stroke = f'stroke="{_INK}" stroke-width="{_fmt(r * 0.2)}"'
    else:
        stroke = f'stroke="#5b574f" stroke-width="{_fmt(r * 0.06)}"'
    shape = t.get("shape")
    if shape:
        points = " ".join(f"{_fmt(_number(px))},{_fmt(_number(py))}" for px, py in shape)
        out = [f'<polygon points="{points}" fill="{fill}" {stroke} stroke-linejoin="round"/>']
    else:
        out = [f'<circle cx="{_fmt(x)}" cy="{_fmt(y)}" r="{_fmt(r)}" fill="{fill}" {stroke}/>']
    if t.get("core_of"):
        out.append(
            f'<circle cx="{_fmt(x)}" cy="{_fmt(y)}" r="{_fmt(r * 0.87)}" fill="none" stroke="{_ink_on(fill)}"'
            f' stroke-width="{_fmt(r * 0.05)}" stroke-dasharray="{_fmt(r * 0.14)} {_fmt(r * 0.1)}"/>'
        )
    ink = _ink_on(fill)
    troops = "?" if t.get("troops") is None else t["troops"]
    out.append(
        f'<text x="{_fmt(x)}" y="{_fmt(y - r * 0.08)}" text-anchor="middle" font-size="{_fmt(r * 0.5)}"'
        f' font-weight="bold" fill="{ink}">{escape(t["code"])}</text>'
    )
    out.append(
        f'<text x="{_fmt(x)}" y="{_fmt(y + r * 0.55)}" text-anchor="middle" font-size="{_fmt(r * 0.52)}"'
        f' fill="{ink}">{escape(troops)}</text>'
    )
    return out


def _legend(territories: list, you: str | None, names: Mapping, width: float, height: float, r: float):
    """Legend rows under the map: one swatch per owner, then what the outlines mean."""
    owners: dict = {}
    for t in territories:
        owners.setdefault(t.get("owner"), safe_colour(t.get("colour")))
    entries = []
    for owner in sorted(o for o in owners if o not in (None, "neutral")):
        label = f"{owner} {names[owner]}" if owner in names else str(owner)
        if owner == you:
            label += " (you)"
        entries.append(("swatch", owners[owner], label))
    if "neutral" in owners:
        entries.append(("swatch", owners["neutral"], "neutral"))
    if None in owners:
        entries.append(("swatch", owners[None], "unowned"))
    if you is not None:
        entries.append(("yours", "#ffffff", "thick outline: yours"))
    if any(t.get("core_of") for t in territories):
        entries.append(("core", "#ffffff", "dashed ring: home territory"))
    entries.append(("text", "", "number: troops"))

    font = max(width / 70, r * 0.45)
    per_row = 4
    column = width / per_row
    row_height = font * 2
    out = []
    for i, (kind, colour, label) in enumerate(entries):
        left = (i % per_row) * column + font
        mid = height + row_height * (i // per_row) + row_height * 0.75
        box = font * 1.1
        if kind == "swatch":
            out.append(f'<rect x="{_fmt(left)}" y="{_fmt(mid - box / 2)}" width="{_fmt(box)}" height="{_fmt(box)}"'
                       f' fill="{colour}" stroke="#5b574f" stroke-width="{_fmt(font * 0.06)}"/>')
        elif kind == "yours":
            out.append(f'<circle cx="{_fmt(left + box / 2)}" cy="{_fmt(mid)}" r="{_fmt(box / 2)}" fill="#ffffff"'
                       f' stroke="{_INK}" stroke-width="{_fmt(font * 0.25)}"/>')
        elif kind == "core":
            dashes = f"{_fmt(font * 0.2)} {_fmt(font * 0.14)}"
            out.append(f'<circle cx="{_fmt(left + box / 2)}" cy="{_fmt(mid)}" r="{_fmt(box / 2)}" fill="none"'
                       f' stroke="{_INK}" stroke-width="{_fmt(font * 0.08)}" stroke-dasharray="{dashes}"/>')
        out.append(f'<text x="{_fmt(left + box * 1.5)}" y="{_fmt(mid + font * 0.35)}" font-size="{_fmt(font)}"'
                   f' fill="{_INK}">{escape(label)}</text>')
    rows = math.ceil(len(entries) / per_row)
    return out, rows * row_height + font * 0.5


def _radius(territories: list, width: float, height: float) -> float:
    """Circles as large as they can be without touching the nearest other territory."""
    side = min(width, height)
    points = [(_number(t["x"]), _number(t["y"])) for t in territories]
    nearest = min(
        (math.dist(a, b) for i, a in enumerate(points) for b in points[i + 1:] if a != b),
        default=side,
    )
    return max(side * 0.02, min(nearest * 0.42, side * 0.06))


def _ink_on(fill: str) -> str:
    """Black or white text, whichever reads better on the fill colour."""
    digits = fill[1:]
    if len(digits) == 3:
        digits = "".join(c * 2 for c in digits)
    red, green, blue = (int(digits[i:i + 2], 16) / 255 for i in (0, 2, 4))
    light = 0.2126 * red + 0.7152 * green + 0.0722 * blue
    return _INK if light > 0.5 else "#ffffff"


def safe_colour(value) -> str:
    """`value` if it is a plain hex colour, else a neutral grey: only such colours reach SVG or CSS."""
    return value if isinstance(value, str) and _HEX_COLOUR.fullmatch(value) else _FALLBACK_COLOUR


def _number(value) -> float:
    """A coordinate as a finite float; float() also rejects any text smuggled into a view."""
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(f"map coordinate is not a finite number: {value!r}")
    return number


def _fmt(number: float) -> str:
    return f"{number:.2f}".rstrip("0").rstrip(".")
