"""A seat's region picture is a part cut from one board raster a turn (issue 32): the same region
as the seat's own drawing showed, one board drawing for every seat whose board is the same, and
what is the seat's own (outlines, arrows) drawn over it as an SVG."""

from __future__ import annotations

import base64
import io
import re

import pytest
from PIL import Image, ImageChops, ImageStat

from gm.core.arrows import Arrow
from gm.render import hexregion, pictures, regionmap, turnmap
from gm.render.hexmap import hex_svg
from gm.render.raster import PNGSurface, Tree
from gm.render.svgmap import svg_region_board

from . import ruleset_report


@pytest.fixture(scope="module")
def empires():
    """Turn 1 of a robot Empires game: the view of its first seat and the seats holding land."""
    view = ruleset_report.report_context("empires")["view"]
    names = {s["code"]: s["nation"] for s in view["seats"]}
    holders = list(dict.fromkeys(t["owner"] for t in view["map"]["territories"] if t["owner"] in names))
    return view, names, holders


@pytest.fixture(autouse=True)
def fresh(monkeypatch):
    """Each test starts with no picture or board raster kept by the process."""
    monkeypatch.setattr(pictures, "_pictures", type(pictures._pictures)())
    monkeypatch.setattr(pictures, "_boards", {})


def png(url: str) -> Image.Image:
    return Image.open(io.BytesIO(base64.b64decode(url.removeprefix(pictures.PNG_DATA_URL)))).convert("RGB")


def drawn_alone(svg: str, shown: tuple[float, float, float, float], size: tuple[int, int]) -> Image.Image:
    """The SVG drawn by CairoSVG framed on `shown` only, at `size`: the region as each seat's
    picture was drawn before."""
    framed = re.sub(r'viewBox="[^"]*"', 'viewBox="{} {} {} {}"'.format(*shown), svg, count=1)
    framed = re.sub(r'(<svg\b[^>]*?) width="[^"]*" height="[^"]*"', r"\1", framed, count=1)
    out = io.BytesIO()
    PNGSurface(
        Tree(bytestring=framed.encode()), out, 96, output_width=size[0], output_height=size[1], background_color="#fff"
    ).finish()
    return Image.open(io.BytesIO(out.getvalue())).convert("RGB")


def assert_alike(cut: Image.Image, alone: Image.Image) -> None:
    """The same picture but for a palette's rounding and edges a fraction of a pixel apart."""
    assert cut.size == alone.size
    difference = ImageChops.difference(cut, alone).convert("L")
    assert max(ImageStat.Stat(difference).mean) < 4.0  # of 255, over the whole picture
    far = sum(difference.point(lambda v: 255 if v > 64 else 0).histogram()[255:])
    assert far / (cut.width * cut.height) < 0.01


def test_a_graph_region_is_the_part_of_the_board_its_seat_drew_before(empires):
    view, names, holders = empires
    board = svg_region_board(view["map"], view["seats"])
    found = regionmap.region_box(view["map"], holders[0], 0.294)
    assert found is not None
    (left, top, right, bottom), scale = found
    url, wide, high, shown = pictures.map_crop(
        board, (left, top, right - left, bottom - top), regionmap.finest_scale(view["map"])
    )
    cut = png(url)
    assert cut.size == (wide, high)
    assert abs(shown[0] - left) < 1 and abs(shown[2] - (right - left)) < 1  # whole pixels: under a unit off
    # The raster's own resolution: under the cap, all the most enlarged region needs; Empires' board
    # is capped, and its regions print at 0.87 of 200 dpi, no coarser.
    finest = regionmap.finest_scale(view["map"])
    assert abs(wide - (right - left) * pictures.board_scale(board, finest)) <= 1
    assert wide >= pictures._pixels((right - left) * scale) * 0.85
    assert_alike(cut, drawn_alone(board, shown, cut.size))


def test_a_hex_region_is_the_part_of_the_board_its_seat_drew_before():
    context = ruleset_report.report_context("imperials")
    board, seat = context["view"]["board"], context["seat"]
    svg = hex_svg(board)
    frame = [float(v) for v in hexregion._VIEWBOX.search(svg)[1].split()]
    box = hexregion.region_box(hexregion._points(board, seat), frame)
    assert box is not None
    url, wide, high, shown = pictures.map_crop(svg, box, hexregion.FINEST_SCALE)
    assert wide >= pictures._pixels(pictures.TEXT_WIDTH_MM) * 0.99  # under the cap: 200 dpi or more
    assert_alike(png(url), drawn_alone(svg, shown, (wide, high)))


def test_seats_of_a_turn_share_one_board_drawing_and_each_gets_its_own_part(monkeypatch, empires):
    view, names, holders = empires
    boards = []
    real = PNGSurface
    monkeypatch.setattr("gm.render.raster.PNGSurface", lambda tree, *a, **k: boards.append(a) or real(tree, *a, **k))
    with pictures.deferred() as named:
        sections = [str(turnmap.map_sections(view["map"], seat, names, [], view["seats"])) for seat in holders[:3]]
    parts = [p for p in named.values() if p.crop is not None]
    assert len(parts) == 3 and len({p.svg for p in parts}) == 1 and len({p.crop.box for p in parts}) == 3
    assert all(p.reference in section for p, section in zip(parts, sections, strict=True))
    urls = [pictures.draw(p) for p in parts]
    assert len(boards) == 1 and len(set(urls)) == 3  # one board raster, three parts of it
    # The same part whatever was cut before it: a seat's picture does not depend on the others.
    pictures._boards.clear()
    pictures._pictures.clear()
    assert pictures.draw(parts[2]) == urls[2]


def test_the_overlay_carries_the_seats_own_outlines_and_arrows_only(empires):
    view, names, holders = empires
    you, other = holders[0], holders[1]
    mine = [t for t in view["map"]["territories"] if t["owner"] == you]
    theirs = {t["code"] for t in view["map"]["territories"] if t["owner"] == other}
    step = next((t["code"], n) for t in mine for n in t["neighbours"])
    moves = [Arrow("move", you, step, count=7)]
    with pictures.deferred() as named:
        section = str(regionmap.region_section(view["map"], you, names, moves, view["seats"], 0.294))
        str(regionmap.region_section(view["map"], other, names, [], view["seats"], 0.294))
    overlay = re.search(r'<svg[^>]*class="map-overlay".*?</svg>', section, re.S)[0]
    outline = 'fill="none" stroke="#1d1d1b"'
    rings = re.findall(
        rf'<circle cx="([0-9.]+)" cy="([0-9.]+)" r="[0-9.]+" ({outline} stroke-width="[0-9.]+"/>)', overlay
    )
    assert {(x, y) for x, y, _ in rings} == {(str(t["x"]), str(t["y"])) for t in mine}  # its own, no one else's
    outline = rings[0][2]  # a seat's strong outline, as drawn
    assert ">7</text>" in overlay and overlay.count("<polyline") + overlay.count("<path") >= 1
    assert not any(f">{code}</text>" in overlay for code in theirs)  # the places are in the picture
    boards = {p.svg for p in named.values() if p.crop is not None}
    assert len(boards) == 1 and outline not in next(iter(boards))  # the shared board: nobody's outline


def test_a_board_raster_is_never_larger_than_its_cap():
    board = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1000 800"><rect width="1000" height="800"/></svg>'
    wide, high = pictures.raster_size(board, pictures.board_scale(board, 50.0))
    assert wide * high <= 6_000_000 * 1.001  # written out: a raised cap fails here too
    assert pictures.board_scale(board, 2.0) == 2.0  # under the cap: what the finest part needs


def test_a_board_raster_one_worker_wrote_is_read_by_the_next_not_drawn_again(monkeypatch, empires, tmp_path):
    view, names, holders = empires
    with pictures.deferred() as named:
        for seat in holders[:2]:
            turnmap.map_sections(view["map"], seat, names, [], view["seats"])
    parts = [p for p in named.values() if p.crop is not None]
    alone = [pictures.draw(p) for p in parts]  # drawn in this process, no folder
    boards = []
    real = PNGSurface
    monkeypatch.setattr("gm.render.raster.PNGSurface", lambda tree, *a, **k: boards.append(a) or real(tree, *a, **k))
    pictures._boards.clear()
    first = pictures.draw(parts[0], tmp_path)  # the first worker: draws it and writes it
    (written,) = tmp_path.glob("*.board")
    pictures._boards.clear()  # the next worker: nothing in its memory
    second = pictures.draw(parts[1], tmp_path)
    assert len(boards) == 1 and [first, second] == alone  # read, not drawn: the same pictures
    written.write_bytes(written.read_bytes()[:-1])  # not whole: drawn again, not misread
    pictures._boards.clear()
    assert pictures.draw(parts[1], tmp_path) == alone[1] and len(boards) == 2


def test_a_folder_of_board_rasters_keeps_the_newest_few(tmp_path):
    small = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 30"><rect width="{}" height="9"/></svg>'
    for width in range(1, 8):
        pictures.draw(pictures.Picture("x", small.format(width), 0.0, crop=pictures.Crop((0, 0, 4, 3), 1.0)), tmp_path)
    assert len(list(tmp_path.glob("*.board"))) == 4  # _KEEP_RASTERS written out (docs/limits.md)
    assert not list(tmp_path.glob("*.part"))


def test_a_folder_that_cannot_take_the_raster_costs_only_the_sharing(empires, tmp_path):
    view, names, holders = empires
    with pictures.deferred() as named:
        turnmap.map_sections(view["map"], holders[0], names, [], view["seats"])
    (part,) = [p for p in named.values() if p.crop is not None]
    alone = pictures.draw(part)
    pictures._boards.clear()
    gone = tmp_path / "gone"  # the pool's folder, removed as the pool closed
    assert pictures.draw(part, gone) == alone and not gone.exists()


def test_a_seat_whose_board_differs_never_gets_anothers_raster(empires, tmp_path):
    """D-ALL-5: a board raster is shared only by boards whose SVG is the same. A seat whose view
    of the board differs (an owner it may not see, say) gets a raster of its own, in one process
    and through the pool's folder alike, and its part shows its own view."""
    view, names, holders = empires
    with pictures.deferred() as named:
        turnmap.map_sections(view["map"], holders[0], names, [], view["seats"])
    (seen,) = [p for p in named.values() if p.crop is not None]
    hidden = re.sub(r'fill="#[0-9a-fA-F]{6}"', 'fill="#808080"', seen.svg)  # every colour kept from this seat
    assert hidden != seen.svg
    other = pictures.Picture("gm-picture:other", hidden, 0.0, crop=seen.crop)
    first = pictures.draw(seen, tmp_path)
    pictures._boards.clear()  # another worker: only the folder to go by
    theirs = pictures.draw(other, tmp_path)
    assert len(list(tmp_path.glob("*.board"))) == 2 and theirs != first
    pictures._boards.clear()
    pictures._pictures.clear()
    assert theirs == pictures.draw(other)  # what its own board gives, drawn alone
