"""The SVG map: every territory drawn with its code and troops, text escaped, attributes checked."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from markupsafe import Markup

from gm.render.svgmap import safe_colour, svg_map, svg_region_board

from .sample_game import clash_view

SVG = "{http://www.w3.org/2000/svg}"


def parse(markup: str) -> ET.Element:
    return ET.fromstring(str(markup))


def texts(root: ET.Element) -> list[str]:
    return [t.text for t in root.iter(f"{SVG}text")]


def small_map(**territory) -> dict:
    base = {
        "code": "AAA",
        "name": "A",
        "x": 100,
        "y": 100,
        "neighbours": ["BBB"],
        "owner": "BR",
        "troops": 3,
        "core_of": None,
        "colour": "#c8553d",
    }
    other = {
        "code": "BBB",
        "name": "B",
        "x": 300,
        "y": 100,
        "neighbours": ["AAA"],
        "owner": None,
        "troops": 0,
        "core_of": None,
        "colour": "#ffffff",
    }
    return {"width": 400, "height": 200, "territories": [{**base, **territory}, other]}


def test_the_sample_map_draws_every_territory_and_border_once():
    view = clash_view()
    root = parse(svg_map(view["map"], "BR", {"BR": "Britain"}))
    territories = view["map"]["territories"]
    assert len(root.findall(f"{SVG}circle")) >= len(territories)
    pairs = {tuple(sorted((t["code"], n))) for t in territories for n in t["neighbours"]}
    assert len(root.findall(f"{SVG}line")) == len(pairs)
    labels = texts(root)
    for t in territories:
        assert t["code"] in labels
    assert "BR Britain (you)" in labels and "neutral" in labels and "unowned" in labels


def test_it_is_markup_so_autoescape_leaves_it_alone():
    assert isinstance(svg_map(small_map()), Markup)


def test_your_territories_have_the_strong_outline():
    root = parse(svg_map(small_map(), "BR"))
    circles = root.findall(f"{SVG}circle")
    widths = {c.get("cx"): float(c.get("stroke-width")) for c in circles[:2]}
    assert widths["100"] > 2 * widths["300"]


def test_a_home_territory_gets_a_dashed_ring():
    root = parse(svg_map(small_map(core_of="BR")))
    assert any(c.get("stroke-dasharray") for c in root.findall(f"{SVG}circle"))


def test_every_text_is_escaped():
    hostile = '<img src="file:///etc/hostname">&'
    markup = svg_map(small_map(code=hostile, troops=hostile, owner=hostile), you=hostile, names={hostile: hostile})
    assert "<img" not in markup
    root = parse(markup)  # still well-formed XML
    assert hostile in texts(root)


def test_a_colour_that_is_not_plain_hex_never_reaches_an_attribute():
    markup = svg_map(small_map(colour='red" onload="x'))
    assert "onload" not in markup
    assert safe_colour("url(file:///etc/passwd)") == "#cccccc"
    assert safe_colour("#abc") == "#abc"


@pytest.mark.parametrize("bad", ['1" onload="x', "nan", "inf"])
def test_coordinates_must_be_numbers(bad):
    with pytest.raises(ValueError):
        svg_map(small_map(x=bad))


def test_a_shape_is_drawn_as_its_polygon():
    root = parse(svg_map(small_map(shape=[[50, 50], [150, 50], [150, 150], [50, 150]])))
    polygons = root.findall(f"{SVG}polygon")
    assert [p.get("points") for p in polygons] == ["50,50 150,50 150,150 50,150"]


def test_hidden_troops_show_as_a_question_mark():
    assert "BR ?" in texts(parse(svg_map(small_map(troops=None))))


def test_each_seats_area_names_its_owner_under_its_code():
    """Colours alone cannot tell 32 seats apart: a seat's area says whose it is; a neutral or
    unowned one shows its troops only."""
    labels = texts(parse(svg_map(small_map(), seats=[{"code": "BR", "colour": "#c8553d"}])))
    assert "AAA" in labels and "BR 3" in labels and "0" in labels and "None 0" not in labels


def test_the_shared_map_is_drawn_once_for_the_same_view_and_again_for_another():
    """Every seat of a turn asks for the shared map of its own copy of the view (issue 32): the
    same content gives the very same drawing, made once; a view that differs in one owner, or
    other seats' names, gets its own."""
    first = svg_map(small_map(), "BR", {"BR": "Britain"}, shared=True)
    assert svg_map(small_map(), "FR", {"BR": "Britain"}, shared=True) is first  # `you` is not in it
    other = svg_map(small_map(owner="FR", colour="#3355aa"), "BR", {"BR": "Britain"}, shared=True)
    assert other is not first and "#3355aa" in other and "#3355aa" not in first
    renamed = svg_map(small_map(), "BR", {"BR": "Albion"}, shared=True)
    assert "Albion" in renamed and "Albion" not in first
    assert svg_map(small_map(), "BR", {"BR": "Britain"}) != first  # a seat's own map is not the shared one


def test_a_view_orjson_cannot_key_is_drawn_without_the_cache():
    view = small_map()
    view["extra"] = {1.5: object()}  # not JSON: no key, drawn anyway
    assert 'class="map"' in svg_map(view, None, None, shared=True)


def test_the_region_board_is_made_once_for_the_same_view_and_again_for_another():
    """Every seat's region is cut from the region board of its own copy of the view (issue 32):
    the same content gives the very same text, made once; another owner, another board."""
    first = svg_region_board(small_map())
    assert svg_region_board(small_map()) is first
    other = svg_region_board(small_map(owner="FR", colour="#3355aa"))
    assert other is not first and "#3355aa" in other and "#3355aa" not in first
