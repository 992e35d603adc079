"""An arrow's count and the places an arrow crosses stay readable (an Empires attack across a sea
hid the sea's code: "E③")."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from gm.core.arrows import Arrow
from gm.render.arrows import svg_arrows
from gm.render.svgmap import svg_region_overlay

_RECT = re.compile(r'<rect x="([-\d.]+)" y="([-\d.]+)" width="([\d.]+)" height="([\d.]+)" rx=')
SVG = "{http://www.w3.org/2000/svg}"


def _count_box(lines: list[str]) -> tuple[float, float, float, float]:
    (box,) = [tuple(map(float, m.groups())) for line in lines if (m := _RECT.match(line))]
    return box  # type: ignore[return-value]


def _covers(box: tuple[float, float, float, float], point: tuple[float, float], half: float) -> bool:
    x, y, w, h = box
    return x < point[0] + half and point[0] - half < x + w and y < point[1] + half and point[1] - half < y + h


# An arrow from (0, 0) down to (0, 100): its middle's left (as it goes) is +x, at (~5, 50).
PLACES = {"A": (0.0, 0.0), "B": (0.0, 100.0)}
ARROW = Arrow(kind="attack", seat="EN", path=("A", "B"), count=3, taken=True)


def _draw(labels: list[tuple[float, float]]) -> list[str]:
    return svg_arrows([ARROW], PLACES.get, 10.0, {"EN": "#ee6666"}, counts=True, inset=10.0, labels=labels)


def test_a_count_sits_beside_the_middle_of_its_arrow_where_nothing_is_written():
    box = _count_box(_draw([]))
    assert _covers(box, (5.0, 50.0), 1.0)


def test_a_count_moves_off_a_place_code_written_beside_the_middle_of_its_arrow():
    label = (8.0, 50.0)  # a sea's code just where the count would go
    assert _covers(_count_box(_draw([])), label, 6.2)
    moved = _count_box(_draw([label]))
    assert not _covers(moved, label, 6.2)
    # still beside its arrow: within the arrow's length, near its shaft
    x, y, w, h = moved
    assert 0.0 <= y and y + h <= 100.0 and abs(x + w / 2) < 12.0


def _region(arrows: list[Arrow]) -> ET.Element:
    territories = [
        {"code": "LON", "x": 0, "y": 0, "owner": "EN", "colour": "#ee6666", "troops": 1},
        {"code": "ECH", "x": 2, "y": 30, "owner": "sea", "colour": "#b8d4ea"},
        {"code": "COT", "x": 0, "y": 60, "owner": "EN", "colour": "#ee6666", "troops": 2},
        {"code": "ROU", "x": 40, "y": 30, "owner": "FR", "colour": "#88aa55", "troops": 3},
    ]
    view_map = {"width": 60, "height": 80, "territories": territories}
    return ET.fromstring(str(svg_region_overlay(view_map, "EN", (-10, -10, 60, 80), arrows)))


def _written(overlay: ET.Element) -> list[str]:
    return [t.text or "" for t in overlay.iter(f"{SVG}text")]


def test_a_place_an_arrow_crosses_has_its_code_written_again_over_the_arrow():
    overlay = _region([Arrow(kind="attack", seat="EN", path=("LON", "COT"), count=3, taken=True)])
    written = _written(overlay)
    # the sea crossed, on a plate of its own colour; not the arrow's ends, not a place beside it
    assert "ECH" in written
    assert not {"LON", "COT", "ROU"} & set(written)
    assert any(r.get("fill") == "#b8d4ea" for r in overlay.iter(f"{SVG}rect"))


def test_no_arrow_no_code_written_again():
    assert "ECH" not in _written(_region([]))
