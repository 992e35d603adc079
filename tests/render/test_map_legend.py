"""The map's legend fits its picture: on a small map (a plug-in's few territories) no entry runs
into the next or off the edge ("thick outline: y..." was cut), and a wide map keeps four a row."""

from __future__ import annotations

import re

import pytest

from gm.render.svgmap import svg_map, text_ems

# Three territories far apart on a square board: large circles, so a large legend font.
TERRITORIES = [
    {"code": "A", "x": 20, "y": 20, "neighbours": ["B"], "owner": "RA", "colour": "#1f77b4", "troops": 3},
    {"code": "B", "x": 140, "y": 20, "neighbours": ["A", "C"], "owner": "WO", "colour": "#d62728", "troops": 2},
    {"code": "C", "x": 80, "y": 140, "neighbours": ["B"], "owner": None, "colour": "#dddddd", "troops": 0},
]
NAMES = {"RA": "Ravens of the North", "WO": "Wolves"}


def legend_texts(svg: str, height: float) -> list[tuple[float, float, float, str]]:
    """(left, right, baseline, label) of each legend label: the text elements under the map."""
    found = []
    for x, y, size, label in re.findall(
        r'<text x="([\d.]+)" y="([\d.]+)" font-size="([\d.]+)"[^>]*>([^<]*)</text>', svg
    ):
        if float(y) > height:
            found.append((float(x), float(x) + text_ems(label) * float(size), float(y), label))
    return found


@pytest.mark.parametrize("side", [120, 160, 400])
def test_no_legend_label_runs_into_the_next_or_off_the_map(side):
    scale = side / 160
    territories = [{**t, "x": t["x"] * scale, "y": t["y"] * scale} for t in TERRITORIES]
    svg = str(svg_map({"width": side, "height": side, "territories": territories}, names=NAMES, shared=True))
    texts = legend_texts(svg, side)
    assert {label for *_, label in texts} >= {"thick outline: yours", "RA Ravens of the North", "unowned"}
    for left, right, baseline, label in texts:
        assert right <= side, f"{label!r} ends at {right:.1f}, past the map's width {side}"
        after = [other for other in texts if other[2] == baseline and other[0] > left]
        assert all(right < other[0] for other in after), f"{label!r} runs into the next entry"


def test_a_wide_map_keeps_four_entries_a_row():
    territories = [{**t, "x": t["x"] * 5, "y": t["y"] * 2} for t in TERRITORIES]
    svg = str(svg_map({"width": 800, "height": 300, "territories": territories}, names=NAMES, shared=True))
    rows = {baseline for *_, baseline, _ in legend_texts(svg, 300)}
    assert len(rows) == 2  # 5 entries: four, then one
