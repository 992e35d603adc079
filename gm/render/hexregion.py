"""The enlarged map of one seat's part of a hex board: the same drawing as the board, framed
round the seat's pieces and roads, cut from the board's raster drawn once a turn
(gm.render.pictures.map_crop; it was drawn per seat by CairoSVG until issue 32).

A vertex number is what a player writes orders with; on the 30-tile greater island they print
at about 5 points across A4, so the seat's own corner of the island is shown again, enlarged.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from markupsafe import Markup

from gm.render import maptext
from gm.render.hexmap import SIZE, centre, corner_number, corner_point, hex_svg, port_labels, seat_names
from gm.render.pictures import PICTURE_DPI, TEXT_WIDTH_MM, map_crop, picture_figure
from gm.render.regionmap import MAX_LABEL_PT, MIN_GAIN, REGION_HEIGHT_MM, placed

CORNER_FONT = 7.0  # the vertex numbers' size in the drawing's units (hexmap._corner)
_PAD = SIZE * 1.7  # room round the outermost piece: the next tile and its corners
_PT_MM = 25.4 / 72
# The board raster's pixels a unit the most enlarged part (MAX_LABEL_PT vertex numbers) needs.
FINEST_SCALE = MAX_LABEL_PT * _PT_MM / CORNER_FONT * PICTURE_DPI / 25.4
_VIEWBOX = re.compile(r'viewBox="([-0-9. ]+)"')


def hex_region(
    board: Mapping[str, Any],
    seat: str | None,
    title: str = "Your part of the island, enlarged",
    seats: Sequence[Mapping[str, Any]] = (),
) -> Markup:
    """A section with the seat's part of the board enlarged, or nothing: for a seat with no
    piece, or where the whole board already shows that part nearly as large. Its text for a
    screen reader names the tiles it shows and every piece on the board, the seat's first."""
    svg = hex_svg(board)
    found = _VIEWBOX.search(svg)
    points = _points(board, seat)
    if not points or found is None:
        return Markup("")
    frame = [float(v) for v in found[1].split()]
    box = region_box(points, frame, port_labels(board))
    if box is None:
        return Markup("")
    left, top, width, height = box
    url, pixels_wide, pixels_high, box = map_crop(svg, box, FINEST_SCALE)
    shown = {
        **board,
        "hexes": [h for h in board.get("hexes", ()) if _shows(box, centre(h["col"], h["row"]))],
        "pieces": [p for p in board.get("pieces", ()) if _shows(box, corner_point(p["at"]))],
        "lines": [
            line
            for line in board.get("lines", ())
            if _shows(box, corner_point(line["from"])) and _shows(box, corner_point(line["to"]))
        ],
    }
    alt = maptext.island(shown, seat, seat_names(seats), corner_number(board), title="Your part of the island")
    return (
        Markup('<section class="map map-region"><h2>')
        + title
        + Markup("</h2>")
        + picture_figure(url, TEXT_WIDTH_MM, pixels_wide, pixels_high, alt)
        + Markup("</section>")
    )


Box = tuple[float, float, float, float]  # left, top, width, height in the drawing's units


def region_box(points: list[tuple[float, float]], frame: list[float], labels: Sequence[Box] = ()) -> Box | None:
    """(left, top, width, height) of the part of the drawing round `points`, as wide as the
    text at its scale; None where that scale is under MIN_GAIN times the whole board's. A label
    (a port's: `labels`) the part would cut at its edge is taken in whole (looks11 saw "2:1 brick"
    cut in half), the part no taller than REGION_HEIGHT_MM for that."""
    frame_left, frame_top, frame_width, frame_height = frame
    xs, ys = [x for x, _ in points], [y for _, y in points]
    left, top, right, bottom = min(xs) - _PAD, min(ys) - _PAD, max(xs) + _PAD, max(ys) + _PAD
    scale = min(TEXT_WIDTH_MM / (right - left), REGION_HEIGHT_MM / (bottom - top), MAX_LABEL_PT * _PT_MM / CORNER_FONT)
    if scale < TEXT_WIDTH_MM / frame_width * MIN_GAIN:
        return None
    width = TEXT_WIDTH_MM / scale
    height = min(REGION_HEIGHT_MM / scale, max(bottom - top, width * 0.6))
    box = (
        placed((left + right - width) / 2, width, frame_left, frame_width),
        placed((top + bottom - height) / 2, height, frame_top, frame_height),
        width,
        height,
    )
    cut = [label for label in labels if _cuts(box, label)]
    if cut:
        box = _moved(box, cut, labels, points, frame) or box
    for _ in range(4):  # each round takes in what the last cut; the part only grows, within the frame
        cut = [label for label in labels if _cuts(box, label)]
        if not cut:
            break
        box = _taken_in(box, cut, frame)
    return box


def _moved(
    box: Box, cut: list[Box], labels: Sequence[Box], points: list[tuple[float, float]], frame: list[float]
) -> Box | None:
    """The part moved the least (its size and so its scale kept) so that it takes each label in
    `cut` in whole or leaves it out, cuts no other, and keeps SIZE of room round every point;
    None where no such move is found."""
    room = 1.0
    xs = {0.0} | {d for label in cut for d in (label[0] - room - box[0], label[0] + label[2] + room - box[0])}
    xs |= {
        d for label in cut for d in (label[0] + label[2] + room - box[0] - box[2], label[0] - room - box[0] - box[2])
    }
    ys = {0.0} | {d for label in cut for d in (label[1] - room - box[1], label[1] + label[3] + room - box[1])}
    ys |= {
        d for label in cut for d in (label[1] + label[3] + room - box[1] - box[3], label[1] - room - box[1] - box[3])
    }
    found: list[tuple[float, Box]] = []
    for dx in xs:
        for dy in ys:
            moved = (
                placed(box[0] + dx, box[2], frame[0], frame[2]),
                placed(box[1] + dy, box[3], frame[1], frame[3]),
                box[2],
                box[3],
            )
            roomy = all(
                moved[0] + SIZE <= x <= moved[0] + moved[2] - SIZE
                and moved[1] + SIZE <= y <= moved[1] + moved[3] - SIZE
                for x, y in points
            )
            if roomy and not any(_cuts(moved, label) for label in labels):
                found.append((abs(moved[0] - box[0]) + abs(moved[1] - box[1]), moved))
    return min(found)[1] if found else None


def _cuts(box: Box, label: Box) -> bool:
    """Whether the edge of `box` runs through `label` (it holds part of it, not all)."""
    overlaps = label[0] < box[0] + box[2] and box[0] < label[0] + label[2]
    overlaps = overlaps and label[1] < box[1] + box[3] and box[1] < label[1] + label[3]
    inside = box[0] <= label[0] and label[0] + label[2] <= box[0] + box[2]
    inside = inside and box[1] <= label[1] and label[1] + label[3] <= box[1] + box[3]
    return overlaps and not inside


def _taken_in(box: Box, labels: list[Box], frame: list[float]) -> Box:
    """`box` grown round `labels` (and a point of room), inside the frame, and made wider where it
    would print taller than REGION_HEIGHT_MM (it is printed as wide as the text)."""
    room = 1.0
    left = max(frame[0], min([box[0], *(label[0] - room for label in labels)]))
    top = max(frame[1], min([box[1], *(label[1] - room for label in labels)]))
    right = min(frame[0] + frame[2], max([box[0] + box[2], *(label[0] + label[2] + room for label in labels)]))
    bottom = min(frame[1] + frame[3], max([box[1] + box[3], *(label[1] + label[3] + room for label in labels)]))
    width, height = right - left, bottom - top
    wide = max(width, height * TEXT_WIDTH_MM / REGION_HEIGHT_MM)
    left = placed(left - (wide - width) / 2, wide, frame[0], frame[2])
    return left, top, wide, height


def _shows(box: tuple[float, float, float, float], point: tuple[float, float]) -> bool:
    """Whether the region (left, top, width, height) shows the point (a tile's centre, a corner)."""
    x, y = point
    return box[0] <= x <= box[0] + box[2] and box[1] <= y <= box[1] + box[3]


def _points(board: Mapping[str, Any], seat: str | None) -> list[tuple[float, float]]:
    """Where the seat's pieces stand and its roads run."""
    if seat is None:
        return []
    points = [corner_point(p["at"]) for p in board.get("pieces", []) if p.get("seat") == seat]
    for line in board.get("lines", []):
        if line.get("seat") == seat:
            points += [corner_point(line["from"]), corner_point(line["to"])]
    return points
