"""A hex board as inline SVG, for any ruleset that plays on pointy-top hexes.

The ruleset's view gives plain data and this draws it; nothing here knows a game's rules.
Positions are in doubled hex coordinates: a hex at (col, row) has neighbours at col +- 2 in its
row and col +- 1 in the rows above and below. A corner is (col, row, k), k = 0..5 clockwise from
the upper right (0 upper right, 1 lower right, 2 bottom, 3 lower left, 4 upper left, 5 top).

    board = {
      "hexes":  [{"col", "row", "fill", "label", "number", "hot", "caption"}],
      "corners": [{"at": [col, row, k], "text": "12"}],           # a label on every corner
      "lines":  [{"from": [c, r, k], "to": [c, r, k], "colour"}],  # roads
      "ports":  [{"from": [c, r, k], "to": [c, r, k], "text": "3:1", "hex": [col, row]}],
      "pieces": [{"at": [c, r, k], "shape": "village"|"town"|"warrior", "colour", "text",
                  "badge": "2", "hollow": bool, "ring": bool}],
      "marks":  [{"col", "row", "shape": "robber"|"merchant", "colour"}],
    }

The same board drawn twice is drawn once: the markup is cached by the board's canonical JSON, so
every seat's report of a round shares one drawing; hex_picture turns it into a picture once.
"""

from __future__ import annotations

import base64
import json
import math
import re
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from markupsafe import Markup, escape

from gm.render import maptext
from gm.render.pictures import map_picture

SIZE = 40.0  # a hex's corner radius in SVG units
HALF_WIDTH = SIZE * math.sqrt(3) / 2
MARGIN = SIZE * 1.2  # room round the island for the ports
_HEX_COLOUR = re.compile(r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})")
_INK = "#1d1d1b"
_FONT = "DejaVu Sans, sans-serif"
_SEA = "#d6e6f0"


def hex_map(board: Mapping[str, Any]) -> Markup:
    """The board as an <img> of SVG in a data: URL, safe in an autoescaped template (see the
    module docstring). WeasyPrint draws an SVG image in about half the time of the same SVG
    inline (measured in bench/README.md, bench_imperials.py)."""
    svg = _drawing(json.dumps(board, sort_keys=True, default=str))
    encoded = base64.b64encode(svg.encode("utf-8")).decode("ascii")
    return Markup(f'<img class="hexmap" alt="the board" src="data:image/svg+xml;base64,{encoded}">')


def hex_picture(board: Mapping[str, Any], seat: str | None = None, seats: Sequence[Mapping[str, Any]] = ()) -> Markup:
    """The board as an <img> of a palette PNG drawn once per process for the same board
    (gm/render/pictures.py): every seat's report of a round shares one picture, which the render
    workers embed without parsing or drawing it again, where the SVG of hex_map is parsed and
    drawn anew in every report. Its text for a screen reader says what the board holds
    (gm.render.maptext), `seat`'s own pieces first."""
    url, _, _ = map_picture(hex_svg(board))
    alt = maptext.island(board, seat, seat_names(seats), corner_number(board))
    return Markup(f'<img class="hexmap" alt="{escape(alt)}" src="{url}">')


def seat_names(seats: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    """Seat code -> "Blue (BLUE)", for the words of a map."""
    return {s["code"]: f"{s.get('nation', s['code'])} ({s['code']})" for s in seats}


def corner_number(board: Mapping[str, Any]) -> Callable[[Sequence[Any]], str | None]:
    """A corner (col, row, k) -> the vertex number the board prints there (any of the up to three
    ways to name the same corner), None where it prints none."""
    numbers = {_rounded(corner_point(c["at"])): str(c["text"]) for c in board.get("corners", ()) if c.get("text")}
    return lambda at: numbers.get(_rounded(corner_point(at)))


def _rounded(point: tuple[float, float]) -> tuple[int, int]:
    return round(point[0]), round(point[1])


def hex_svg(board: Mapping[str, Any]) -> str:
    """The board as SVG text, for a page that wants the markup itself."""
    return _drawing(json.dumps(board, sort_keys=True, default=str))


@lru_cache(maxsize=64)
def _drawing(key: str) -> str:
    board = json.loads(key)
    hexes = board.get("hexes", [])
    if not hexes:
        return '<svg xmlns="http://www.w3.org/2000/svg" class="hexmap" viewBox="0 0 10 10"></svg>'
    xs = [_centre(h["col"], h["row"])[0] for h in hexes]
    ys = [_centre(h["col"], h["row"])[1] for h in hexes]
    left, top = min(xs) - HALF_WIDTH - MARGIN, min(ys) - SIZE - MARGIN
    width = max(xs) - min(xs) + 2 * (HALF_WIDTH + MARGIN)
    height = max(ys) - min(ys) + 2 * (SIZE + MARGIN)
    middle = _middle(hexes)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="hexmap" viewBox="{_f(left)} {_f(top)} '
        f'{_f(width)} {_f(height)}" font-family="{_FONT}">',
        f'<rect x="{_f(left)}" y="{_f(top)}" width="{_f(width)}" height="{_f(height)}" fill="{_SEA}"/>',
    ]
    out += [_hex(h) for h in hexes]
    out += [_port(p, middle) for p in board.get("ports", [])]
    out += [_line(line) for line in board.get("lines", [])]
    out += [_mark(m) for m in board.get("marks", [])]
    taken = {tuple(p["at"]) for p in board.get("pieces", [])}
    out += [_corner(c) for c in board.get("corners", []) if tuple(c["at"]) not in taken]
    out += [_piece(p) for p in board.get("pieces", [])]
    out.append("</svg>")
    return "\n".join(out)


def _merchant(m: Mapping[str, Any]) -> str:
    # A flag with an M in its holder's colour, at the left of the number token (the robber stands
    # at its right), clear of the corners where pieces and their badges are drawn.
    x, y = _centre(m["col"], m["row"])
    pole = x - SIZE * 0.42
    return (
        f'<g><path d="M{_f(pole)},{_f(y + 6)} L{_f(pole)},{_f(y - 17)}" stroke="{_INK}" stroke-width="1.2"/>'
        f'<path d="M{_f(pole)},{_f(y - 17)} L{_f(pole + 13)},{_f(y - 17)} L{_f(pole + 13)},{_f(y - 7)} '
        f'L{_f(pole)},{_f(y - 7)} Z" fill="{_colour(m.get("colour"))}" stroke="{_INK}" stroke-width="0.8"/>'
        f'<text x="{_f(pole + 6.5)}" y="{_f(y - 9.3)}" text-anchor="middle" font-size="7" font-weight="bold" '
        f'fill="#ffffff" stroke="{_INK}" stroke-width="0.4">M</text></g>'
    )


def centre(col: float, row: float) -> tuple[float, float]:
    """The SVG point of a tile's centre."""
    return _centre(col, row)


def _centre(col: float, row: float) -> tuple[float, float]:
    return float(col) * HALF_WIDTH, float(row) * 1.5 * SIZE


def corner_point(at: Sequence[float]) -> tuple[float, float]:
    """The SVG point of a corner (col, row, k)."""
    col, row, k = at
    x, y = _centre(col, row)
    angle = math.radians(-30 + 60 * int(k))
    return x + SIZE * math.cos(angle), y + SIZE * math.sin(angle)


def _f(value: float) -> str:
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _colour(value: object) -> str:
    return value if isinstance(value, str) and _HEX_COLOUR.fullmatch(value) else "#cccccc"


def _hex(h: Mapping[str, Any]) -> str:
    x, y = _centre(h["col"], h["row"])
    points = " ".join(f"{_f(px)},{_f(py)}" for px, py in (corner_point((h["col"], h["row"], k)) for k in range(6)))
    out = [f'<polygon points="{points}" fill="{_colour(h.get("fill"))}" stroke="#6f6a5f" stroke-width="1.2"/>']
    if h.get("label"):
        out.append(
            f'<text x="{_f(x)}" y="{_f(y - SIZE * 0.5)}" text-anchor="middle" font-size="11" '
            f'font-weight="bold" fill="{_INK}">{escape(h["label"])}</text>'
        )
    if h.get("number") is not None:
        hot = bool(h.get("hot"))
        out.append(
            f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(SIZE * 0.3)}" fill="#fffdf5" '
            f'stroke="{"#b71c1c" if hot else "#6f6a5f"}" stroke-width="{2.2 if hot else 0.9}"/>'
        )
        out.append(
            f'<text x="{_f(x)}" y="{_f(y + 4.6)}" text-anchor="middle" font-size="{14 if hot else 12.5}" '
            f'font-weight="bold" fill="{"#b71c1c" if hot else _INK}">{escape(str(h["number"]))}</text>'
        )
    if h.get("caption"):
        out.append(
            f'<text x="{_f(x)}" y="{_f(y + SIZE * 0.6)}" text-anchor="middle" font-size="8" '
            f'fill="{_INK}">{escape(h["caption"])}</text>'
        )
    return "\n".join(out)


def _line(line: Mapping[str, Any]) -> str:
    (x1, y1), (x2, y2) = corner_point(line["from"]), corner_point(line["to"])
    # Shortened a little at both ends so the corner labels stay clear.
    dx, dy = (x2 - x1) * 0.2, (y2 - y1) * 0.2
    return (
        f'<line x1="{_f(x1 + dx)}" y1="{_f(y1 + dy)}" x2="{_f(x2 - dx)}" y2="{_f(y2 - dy)}" '
        f'stroke="#ffffff" stroke-width="8.5" stroke-linecap="round"/>'
        f'<line x1="{_f(x1 + dx)}" y1="{_f(y1 + dy)}" x2="{_f(x2 - dx)}" y2="{_f(y2 - dy)}" '
        f'stroke="{_colour(line.get("colour"))}" stroke-width="6" stroke-linecap="round"/>'
    )


def _middle(hexes: Sequence[Mapping[str, Any]]) -> tuple[float, float]:
    points = [_centre(h["col"], h["row"]) for h in hexes]
    return sum(x for x, _ in points) / len(points), sum(y for _, y in points) / len(points)


def port_labels(board: Mapping[str, Any]) -> list[tuple[float, float, float, float]]:
    """(left, top, width, height) of each port's label on the board's drawing, in its units."""
    hexes = board.get("hexes", [])
    if not hexes:
        return []
    middle = _middle(hexes)
    labels = []
    for port in board.get("ports", []):
        px, py, half = _port_label(port, middle)
        labels.append((px - half, py - 7, 2 * half, 14.0))
    return labels


def _port_label(port: Mapping[str, Any], middle: tuple[float, float]) -> tuple[float, float, float]:
    """(x, y, half its width) of a port's label: straight out from the coast, away from the port's
    own hex if given, else the island's middle."""
    (x1, y1), (x2, y2) = corner_point(port["from"]), corner_point(port["to"])
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    cx, cy = _centre(*port["hex"]) if port.get("hex") else middle
    dx, dy = mx - cx, my - cy
    length = math.hypot(dx, dy) or 1.0
    return mx + dx / length * SIZE * 0.78, my + dy / length * SIZE * 0.78, 2.2 * len(str(port.get("text", ""))) + 4


def _port(port: Mapping[str, Any], middle: tuple[float, float]) -> str:
    (x1, y1), (x2, y2) = corner_point(port["from"]), corner_point(port["to"])
    px, py, half = _port_label(port, middle)
    raw = str(port.get("text", ""))
    return (
        f'<line x1="{_f(x1)}" y1="{_f(y1)}" x2="{_f(px)}" y2="{_f(py)}" stroke="#6f6a5f" stroke-width="1.4"/>'
        f'<line x1="{_f(x2)}" y1="{_f(y2)}" x2="{_f(px)}" y2="{_f(py)}" stroke="#6f6a5f" stroke-width="1.4"/>'
        f'<rect x="{_f(px - half)}" y="{_f(py - 7)}" width="{_f(2 * half)}" height="14" rx="3" '
        f'fill="#ffffff" stroke="#6f6a5f" stroke-width="0.9"/>'
        f'<text x="{_f(px)}" y="{_f(py + 2.8)}" text-anchor="middle" font-size="7.5" fill="{_INK}">'
        f"{escape(raw)}</text>"
    )


def _corner(c: Mapping[str, Any]) -> str:
    x, y = corner_point(c["at"])
    return (
        f'<circle cx="{_f(x)}" cy="{_f(y)}" r="6.3" fill="#ffffff" stroke="#8c877b" stroke-width="0.6"/>'
        f'<text x="{_f(x)}" y="{_f(y + 2.5)}" text-anchor="middle" font-size="7" fill="{_INK}">'
        f"{escape(c.get('text', ''))}</text>"
    )


def _piece(p: Mapping[str, Any]) -> str:
    x, y = corner_point(p["at"])
    fill = _colour(p.get("colour"))
    text = escape(p.get("text", ""))
    shape = p.get("shape")
    if shape == "town":
        body = (
            f'<rect x="{_f(x - 11)}" y="{_f(y - 9)}" width="22" height="18" rx="2" fill="{fill}" '
            f'stroke="#ffffff" stroke-width="1.6"/>'
        )
    elif shape == "warrior":
        body = (
            f'<polygon points="{_f(x)},{_f(y - 11)} {_f(x + 10)},{_f(y)} {_f(x)},{_f(y + 11)} '
            f'{_f(x - 10)},{_f(y)}" fill="{"#ffffff" if p.get("hollow") else fill}" stroke="{fill}" '
            f'stroke-width="2"/>'
        )
    else:
        body = (
            f'<polygon points="{_f(x - 8)},{_f(y + 7)} {_f(x + 8)},{_f(y + 7)} {_f(x + 8)},{_f(y - 2)} '
            f'{_f(x)},{_f(y - 9)} {_f(x - 8)},{_f(y - 2)}" fill="{fill}" stroke="#ffffff" stroke-width="1.6"/>'
        )
    ink = _INK if shape == "warrior" and p.get("hollow") else "#ffffff"
    out = [
        body,
        f'<text x="{_f(x)}" y="{_f(y + 3)}" text-anchor="middle" font-size="7.5" font-weight="bold" '
        f'fill="{ink}">{text}</text>',
    ]
    if p.get("ring"):
        out.insert(
            0,
            f'<circle cx="{_f(x)}" cy="{_f(y)}" r="15" fill="none" stroke="{_INK}" '
            'stroke-width="1.3" stroke-dasharray="2.5 1.5"/>',
        )
    if p.get("badge"):
        out.append(
            f'<circle cx="{_f(x + 10)}" cy="{_f(y - 9)}" r="5.2" fill="{_INK}"/>'
            f'<text x="{_f(x + 10)}" y="{_f(y - 6.8)}" text-anchor="middle" font-size="6.5" '
            f'font-weight="bold" fill="#ffffff">{escape(str(p["badge"]))}</text>'
        )
    return "\n".join(out)


def _mark(m: Mapping[str, Any]) -> str:
    if m.get("shape") == "merchant":
        return _merchant(m)
    x, y = _centre(m["col"], m["row"])
    x += SIZE * 0.48  # beside the number token, which stays readable
    return (
        f'<g><circle cx="{_f(x)}" cy="{_f(y - 6)}" r="5" fill="{_INK}"/>'
        f'<path d="M{_f(x - 8)},{_f(y + 9)} Q{_f(x)},{_f(y - 8)} {_f(x + 8)},{_f(y + 9)} Z" fill="{_INK}"/>'
        f'<text x="{_f(x)}" y="{_f(y + 7)}" text-anchor="middle" font-size="6" font-weight="bold" '
        f'fill="#ffffff">R</text></g>'
    )
