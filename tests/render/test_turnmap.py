"""The map drawn once per turn: one picture for every seat, each seat's own marks over it."""

from __future__ import annotations

import base64
import io
import xml.etree.ElementTree as ET

from PIL import Image

from gm.render import pictures, turnmap
from gm.render.svgmap import svg_map, svg_overlay

from .sample_game import clash_view

SVG = "{http://www.w3.org/2000/svg}"
NAMES = {"BR": "Britain", "FR": "France", "DE": "Germany", "RU": "Russia"}


def picture_of(figure: str) -> Image.Image:
    url = figure.split('src="', 1)[1].split('"', 1)[0]
    return Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1])))


def test_every_seat_of_a_turn_shares_one_picture_drawn_once(monkeypatch):
    drawn = []
    real = pictures._draw
    monkeypatch.setattr(pictures, "_draw", lambda svg, *size: drawn.append(svg) or real(svg, *size))
    monkeypatch.setattr(pictures, "_pictures", type(pictures._pictures)())
    figures = {seat: turnmap.map_figure(clash_view(seat, 5)["map"], seat, NAMES) for seat in NAMES}
    assert len(drawn) == 1
    urls = {f.split('src="', 1)[1].split('"', 1)[0] for f in figures.values()}
    assert len(urls) == 1
    assert len({f.split("</div>")[0].split("<svg", 1)[1] for f in figures.values()}) == 4  # own marks each
    later = turnmap.map_figure(clash_view("BR", 6)["map"], "BR", NAMES)  # troops moved: a new picture
    assert len(drawn) == 2 and later.split('src="', 1)[1].split('"')[0] not in urls


def test_the_picture_is_a_palette_png_as_wide_as_the_text_at_200_dpi():
    picture = picture_of(turnmap.map_figure(clash_view("BR", 5)["map"], "BR", NAMES))
    assert picture.mode == "P" and picture.width == round(178 / 25.4 * 200)
    assert "transparency" not in picture.info


def test_the_shared_picture_names_no_seat_and_the_overlay_marks_only_yours():
    view_map = clash_view("BR", 5)["map"]
    shared = ET.fromstring(str(svg_map(view_map, "BR", NAMES, shared=True)))
    labels = [t.text for t in shared.iter(f"{SVG}text")]
    assert "BR Britain" in labels and "BR Britain (you)" not in labels and "thick outline: yours" in labels
    widths = {float(c.get("stroke-width")) for c in shared.iter(f"{SVG}circle") if c.get("fill", "").startswith("#")}
    assert len(widths) <= 2  # territories all drawn alike (plus the legend's outline sample)
    overlay = ET.fromstring(str(svg_overlay(view_map, "BR", NAMES)))
    mine = [t for t in view_map["territories"] if t["owner"] == "BR"]
    circles = overlay.findall(f"{SVG}circle")
    assert sorted((c.get("cx"), c.get("cy")) for c in circles) == sorted((str(t["x"]), str(t["y"])) for t in mine)
    assert len(overlay.findall(f"{SVG}rect")) == 1  # the ring on BR's legend swatch
    assert overlay.get("viewBox") == shared.get("viewBox")
    assert all(c.get("fill") == "none" for c in circles)


def test_a_tall_map_is_drawn_narrower_to_fit_the_first_page():
    view_map = dict(clash_view("BR", 5)["map"], width=500, height=1000)
    figure = turnmap.map_figure(view_map, "BR", NAMES)
    width_mm = float(figure.split("width: ", 1)[1].split("mm", 1)[0])
    height_mm = float(figure.split("height: ", 1)[1].split("mm", 1)[0])
    assert height_mm <= turnmap.MAX_HEIGHT_MM + 0.1 and width_mm < pictures.TEXT_WIDTH_MM
