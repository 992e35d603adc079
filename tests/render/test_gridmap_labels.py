"""A city's code and its label stay inside the map, off the numbers along its edges (a Minecraft
EMPIRES city on the top rows wrote its code over the column numbers)."""

from __future__ import annotations

from PIL import ImageChops

from gm.render.gridmap import draw, geometry

WORLD = {"width": 30, "height": 30, "terrain": ["." * 30] * 30, "palette": {".": "#a9cc7e"}}


def _city(x: int, y: int, **text: str) -> dict:
    return {"x": x, "y": y, "shape": "city", "colour": "#e6194b", **text}


def _margins(world: dict) -> list:
    picture = draw(world)
    scale, margin = geometry(world["width"], world["height"])
    width, height = picture.size
    inner_right, inner_bottom = margin + world["width"] * scale, margin + world["height"] * scale
    return [
        picture.crop((0, 0, width, margin)),  # the column numbers above
        picture.crop((inner_right, 0, width, height)),  # the row numbers on the right
        picture.crop((0, inner_bottom, width, height)),
        picture.crop((0, 0, margin, height)),
    ]


def _same(a: list, b: list) -> bool:
    return all(ImageChops.difference(p, q).getbbox() is None for p, q in zip(a, b))


def test_a_city_on_the_top_row_writes_its_code_inside_the_map():
    bare = _margins({**WORLD, "marks": [_city(12, 0)]})
    tagged = _margins({**WORLD, "marks": [_city(12, 0, tag="OR")]})
    assert _same(bare, tagged)


def test_a_city_on_the_right_edge_writes_its_label_inside_the_map():
    bare = _margins({**WORLD, "marks": [_city(29, 14)]})
    labelled = _margins({**WORLD, "marks": [_city(29, 14, label="OR1")]})
    assert _same(bare, labelled)


def test_a_city_in_the_middle_writes_its_code_above_and_its_label_right():
    # the picture changes above the city and right of it, where it always wrote them
    scale, margin = geometry(30, 30)
    plain = draw({**WORLD, "marks": [_city(15, 15)]})
    both = draw({**WORLD, "marks": [_city(15, 15, tag="OR", label="OR1")]})
    left, top, right, bottom = ImageChops.difference(plain, both).getbbox()
    cx, cy = margin + 15.5 * scale, margin + 15.5 * scale
    assert top < cy - scale and right > cx + scale


BIG = {"width": 45, "height": 45, "terrain": ["." * 45] * 45, "palette": {".": "#a9cc7e"}}  # 22 px a block


def _group(**text: str) -> dict:
    return {"x": 20, "y": 20, "shape": "group", "colour": "#e6194b", **text}


def test_the_whole_world_leaves_a_groups_troops_to_the_enlarged_map():
    """A group's troops were 9 px inside its square on the whole world, about 3 pt on the page:
    the whole world leaves them out (its legend says where they are); a region draws them."""
    assert (
        ImageChops.difference(
            draw({**BIG, "marks": [_group()]}), draw({**BIG, "marks": [_group(label="12")]})
        ).getbbox()
        is None
    )
    crop = {"x0": 5, "y0": 5, "x1": 35, "y1": 35}
    plain, labelled = draw({**BIG, "marks": [_group()]}, crop), draw({**BIG, "marks": [_group(label="12")]}, crop)
    assert ImageChops.difference(plain, labelled).getbbox() is not None


def test_a_city_on_the_whole_world_writes_its_label_as_large_as_its_code():
    """At 22 px a block a city's label was 9 px tall, 3.6 pt on the page; it is a code's 13 px now."""
    city = {"x": 20, "y": 20, "shape": "city", "colour": "#e6194b"}
    plain = draw({**BIG, "marks": [city]})
    left, top, right, bottom = ImageChops.difference(
        plain, draw({**BIG, "marks": [{**city, "label": "OR1"}]})
    ).getbbox()
    assert bottom - top >= 12 and right - left >= 24, (left, top, right, bottom)
