"""Readable maps at any size: the page a whole board goes on, each seat's enlarged region, marks
that keep 32 seats apart, and this turn's arrows, only those the seat may see."""

from __future__ import annotations

import itertools
import math
import tempfile
from datetime import UTC, datetime
from pathlib import Path

import pytest

from gm.clock import FixedClock
from gm.core.arrows import arrows
from gm.core.model import Event
from gm.home import Home, create_home
from gm.render import pictures, regionmap, turnmap
from gm.render.marks import CLOSE, _lab, hatches
from gm.rulesets import installed, template_dirs
from gm.services import games, turns
from gm.services.reports import report_context
from gm.store import records
from gm.store.database import open_database

from . import ruleset_report

CLOCK = FixedClock(datetime(2026, 11, 21, 12, 0, tzinfo=UTC))
GRAPH_MAPS = ("clash", "conqueror", "empires")


@pytest.fixture(scope="module")
def contexts():
    """Turn 1 of a robot game of each ruleset with a graph map, seen by its first seat."""
    return {name: ruleset_report.report_context(name) for name in GRAPH_MAPS}


def label_pt(view_map, seats, sheet_mm):
    width, _, radius = turnmap.map_metrics(view_map, seats)
    return radius * turnmap.CODE_SIZE * sheet_mm / width / (25.4 / 72)


@pytest.mark.parametrize("name, page", [("clash", ""), ("conqueror", ""), ("empires", "map-a3")])
def test_a_whole_board_goes_where_its_codes_print_large_enough(contexts, name, page):
    """Clash's 35 and Conqueror's 75 places read on the first page; Empires' 215 areas need A3."""
    view = contexts[name]["view"]
    sheet, figure_mm = turnmap.sheet_for(view["map"], view["seats"])
    assert sheet.page == page
    assert label_pt(view["map"], view["seats"], figure_mm) >= turnmap.MIN_LABEL_PT


def test_a_board_too_large_for_a4_is_on_the_largest_sheet_when_nothing_is_large_enough():
    crowded = {
        "width": 1000,
        "height": 1000,
        "territories": [
            {
                "code": f"T{i}",
                "x": 10 + (i % 90) * 11,
                "y": 10 + (i // 90) * 11,
                "neighbours": [],
                "owner": None,
                "colour": "#cccccc",
                "troops": 1,
            }
            for i in range(900)
        ],
    }
    sheet, _ = turnmap.sheet_for(crowded)
    assert sheet.page == "map-a3"  # square: A3 upright gives the most room


def test_the_region_holds_the_seats_areas_and_their_neighbours_enlarged(contexts):
    view = contexts["empires"]["view"]
    _, figure_mm = turnmap.sheet_for(view["map"], view["seats"])
    board_scale = figure_mm / view["map"]["width"]
    (left, top, right, bottom), scale = regionmap.region_box(view["map"], view["seat"], board_scale)
    mine = [t for t in view["map"]["territories"] if t["owner"] == view["seat"]]
    wanted = {t["code"] for t in mine} | {n for t in mine for n in t["neighbours"]}
    assert mine and all(
        left <= t["x"] <= right and top <= t["y"] <= bottom for t in view["map"]["territories"] if t["code"] in wanted
    )
    assert scale >= board_scale * regionmap.MIN_GAIN
    assert (right - left) * scale <= pictures.TEXT_WIDTH_MM + 0.01 and (
        bottom - top
    ) * scale <= regionmap.REGION_HEIGHT_MM + 0.01


def test_a_seat_holding_nothing_or_spread_over_the_board_gets_no_region_map(contexts):
    view = contexts["empires"]["view"]
    assert regionmap.region_box(view["map"], "XX", 0.2) is None
    assert regionmap.region_box(view["map"], view["seat"], 0.2) is not None
    assert regionmap.region_box(view["map"], view["seat"], 10.0) is None  # no gain over the board


def test_the_board_is_drawn_once_a_turn_and_each_region_cut_from_one_raster(monkeypatch, contexts):
    """The board stays one picture for every seat (issue 18); a region is a part of the seat's
    own cut from one raster of the board a turn (issue 32), never the board drawn per seat."""
    drawn, rasters = [], []
    real, real_board = pictures._draw, pictures._board
    monkeypatch.setattr(pictures, "_draw", lambda svg, *size: drawn.append(svg) or real(svg, *size))
    monkeypatch.setattr(pictures, "_board", lambda svg, *rest: rasters.append(svg) or real_board(svg, *rest))
    monkeypatch.setattr(pictures, "_pictures", type(pictures._pictures)())
    monkeypatch.setattr(pictures, "_boards", {})
    view = contexts["empires"]["view"]
    names = {s["code"]: s["nation"] for s in view["seats"]}
    seats = list(dict.fromkeys(t["owner"] for t in view["map"]["territories"] if t["owner"] in names))[:3]
    for seat in seats:
        turnmap.map_sections(view["map"], seat, names, [], view["seats"])
        turnmap.board_sheet(view["map"], seat, names, [], view["seats"])
    boards = [svg for svg in drawn if 'class="map"' in svg]
    assert len(boards) == 1 and len(drawn) == 1  # no region drawn on its own
    assert len(rasters) == len(seats) == 3 and len(set(rasters)) == 1  # three parts of one board
    assert len(pictures._boards) == 1 and len(pictures._pictures) == 1  # the whole map; parts are cut afresh


def test_the_whole_board_sits_on_its_own_a3_page_and_the_region_on_the_first(contexts):
    view = contexts["empires"]["view"]
    names = {s["code"]: s["nation"] for s in view["seats"]}
    first = str(turnmap.map_sections(view["map"], view["seat"], names, [], view["seats"]))
    sheet = str(turnmap.board_sheet(view["map"], view["seat"], names, [], view["seats"]))
    assert "map-region" in first and "map-sheet" not in first
    assert 'class="map map-sheet map-a3"' in sheet and "The whole map" in sheet
    flow = contexts["clash"]["view"]
    assert str(turnmap.board_sheet(flow["map"], flow["seat"], {}, [], flow["seats"])) == ""


def test_a_seat_without_a_region_map_is_told_the_whole_map_is_at_the_end(contexts, monkeypatch):
    # looks7 saw England's turn-9 report of a 12-country Europe open on its events with no map:
    # its areas spread over the board, so no region, and the board was on page 9 of 9, unsaid.
    view = contexts["empires"]["view"]
    names = {s["code"]: s["nation"] for s in view["seats"]}
    gone = str(turnmap.map_sections(view["map"], "XX", names, [], view["seats"]))  # holds nothing
    monkeypatch.setattr(regionmap, "MIN_GAIN", 100.0)  # spread: the region gains nothing on the board
    spread = str(turnmap.map_sections(view["map"], view["seat"], names, [], view["seats"]))
    for first in (gone, spread):
        assert "map-region" not in first and "on a page of its own at the end of this report" in first
    monkeypatch.undo()
    assert "at the end of this report" not in str(
        turnmap.map_sections(view["map"], view["seat"], names, [], view["seats"])
    )
    flow = contexts["clash"]["view"]  # its board is on the first page: nothing to point to
    assert "at the end of this report" not in str(turnmap.map_sections(flow["map"], "XX", {}, [], flow["seats"]))


def test_colours_that_look_alike_never_share_a_hatching():
    """Empires' 32 colours, some a hair apart: each close pair is told apart by a hatching, a
    seat like neutral or sea too, and those two keep their plain colour."""
    from gm.rulesets import get_ruleset

    ruleset = get_ruleset("empires")
    scenario = ruleset.load_scenario(ruleset.scenario_text("europe"), "europe")
    seats = [(c["code"], c["colour"]) for c in scenario["countries"]]
    chosen = {"neutral": 0, "sea": 0, **hatches(seats, ["#9aa38f", "#b9d3e8"])}
    everyone = [("neutral", "#9aa38f"), ("sea", "#b9d3e8"), *seats]
    close = [
        (a, b) for (a, ca), (b, cb) in itertools.combinations(everyone, 2) if math.dist(_lab(ca), _lab(cb)) < CLOSE
    ]
    assert len(close) >= 10  # the palette really has look-alikes
    assert all(chosen[a] != chosen[b] for a, b in close)
    assert hatches(seats[:3]) == {code: 0 for code, _ in seats[:3]}  # distinct colours need none
    assert hatches([("XX", "#cfc8b8")], ["#cfc8b8"]) == {"XX": 1}


def test_a_seat_keeps_its_hatching_whoever_holds_land():
    from gm.render.svgmap import _Board

    seats = [{"code": "AA", "colour": "#8969ea"}, {"code": "BB", "colour": "#7969ea"}]
    area = {"code": "X1", "x": 10, "y": 10, "neighbours": [], "troops": 1}
    both = {
        "width": 100,
        "height": 100,
        "territories": [
            dict(area, owner="AA", colour="#8969ea"),
            dict(area, code="X2", x=60, owner="BB", colour="#7969ea"),
        ],
    }
    only_b = {"width": 100, "height": 100, "territories": [dict(area, code="X2", x=60, owner="BB", colour="#7969ea")]}
    assert _Board(both, seats).hatch("BB").startswith("url(#hatch-")
    assert _Board(only_b, seats).hatch("BB").startswith("url(#hatch-")
    assert _Board(both, seats).hatch("AA") is None  # the first of the two keeps its plain colour


def empires_game(folder: str):
    home = Home(Path(folder))
    create_home(home)
    db = open_database(home.database)
    games.create_game(db, CLOCK, "e", "empires", None, 5)
    for i in range(6):
        games.join_game(db, CLOCK, "e", f"p{i}@example.org", f"Player {i}")
    turns.run_turn(db, home, CLOCK, "e")
    return db


def test_a_seats_maps_draw_only_the_moves_and_attacks_it_may_see():
    """Empires' moves are the mover's and its battles the two sides' own: each seat's report
    draws an arrow for each it may see and none of the others'."""
    from gm.render.environment import make_environment, render_report_html

    with tempfile.TemporaryDirectory() as folder:
        db = empires_game(folder)
        game = records.game_by_name(db, "e")
        ruleset, _ = games.game_ruleset(game)
        seats = records.seats_of(db, game.id)
        before, turn = records.turns_of(db, game.id, 0)[-2:]
        env = make_environment(None, template_dirs(installed()["empires"]))
        everything = arrows(e.to_json() for e in map(Event.from_json, turn.events))
        assert everything  # the robots moved and attacked
        hidden_somewhere = False
        for seat in seats:
            context = report_context(game, ruleset, turn, seat, seats, None, before.state)
            mine = arrows(context["events"])
            hidden_somewhere |= len(mine) < len(everything)
            assert all(a.seat == seat.code or seat.code in _sides(a, turn.events) for a in mine)
            html = render_report_html(env, {**context, "credits": None})
            sheet = html.split('class="map map-sheet', 1)[1]  # the board's overlay: arrows as SVG
            assert sheet.count("<polyline") == 2 * len(mine)  # an edge and a fill per arrow
        assert hidden_somewhere
        db.conn.close()


def _sides(arrow, events) -> set:
    for data in (e["data"] for e in events):
        if data.get("attacker") == arrow.seat and (data.get("from"), data.get("to")) == arrow.path[:2]:
            return {data.get("attacker"), data.get("defender")}
    return {arrow.seat}


def test_a_hex_board_shows_the_seats_part_of_the_island_enlarged():
    from gm.render import hexregion
    from gm.render.hexmap import corner_point

    context = ruleset_report.report_context("imperials")
    board, seat = context["view"]["board"], context["seat"]
    section = str(hexregion.hex_region(board, seat))
    assert section.count('<img class="map-picture" src="data:image/png;base64,') == 1
    assert str(hexregion.hex_region(board, "NOBODY")) == ""
    mine = [corner_point(p["at"]) for p in board["pieces"] if p["seat"] == seat]
    frame = [float(v) for v in hexregion._VIEWBOX.search(hexregion.hex_svg(board))[1].split()]
    left, top, width, height = hexregion.region_box(mine, frame)
    assert mine and all(left <= x <= left + width and top <= y <= top + height for x, y in mine)
    assert hexregion.region_box(mine, [frame[0], frame[1], 1.0, 1.0]) is None  # a board smaller than the region


def test_the_enlarged_island_cuts_no_port_label_at_its_edge():
    """looks11 saw "2:1 brick" cut in half at the left edge of Blue's enlarged part of the island.
    Each seat's part takes a port's label in whole or leaves it out, moved rather than grown where
    it can be (its scale kept), with room round the seat's pieces."""
    from gm.render import hexregion
    from gm.render.hexmap import SIZE, hex_svg, port_labels

    board = ruleset_report.report_context("imperials")["view"]["board"]
    frame = [float(v) for v in hexregion._VIEWBOX.search(hex_svg(board))[1].split()]
    labels = port_labels(board)
    assert len(labels) == len(board["ports"]) > 0
    cut_before = 0
    for seat in sorted({p["seat"] for p in board["pieces"]}):
        points = hexregion._points(board, seat)
        before, box = hexregion.region_box(points, frame), hexregion.region_box(points, frame, labels)
        if before is None:
            continue
        cut_before += sum(hexregion._cuts(before, label) for label in labels)
        assert not any(hexregion._cuts(box, label) for label in labels), seat
        assert box[2:] == before[2:]  # moved, not grown
        left, top, width, height = box
        assert all(
            left + SIZE <= x <= left + width - SIZE and top + SIZE <= y <= top + height - SIZE for x, y in points
        )
    assert cut_before  # the sample's board has a part that cut one


def test_a_grid_map_draws_the_seats_arrows_over_the_shared_picture_and_leaves_out_the_rest():
    from gm.render.gridmap import grid_figure, grid_map

    world = {"width": 20, "height": 20, "terrain": ["." * 20] * 20, "palette": {".": "#a9cc7e"}}
    events = [
        {"kind": "move", "data": {"seat": "RE", "group": "RE1", "troops": 3, "path": ["2,2", "3,2", "5,4"]}},
        {"kind": "combat", "data": {"attacker": "BL", "from": "15,15", "to": "16,15", "attacking": 2}},
    ]
    seats = [{"code": "RE", "colour": "#e6194b"}, {"code": "BL", "colour": "#2f55d4"}]
    whole = str(grid_figure(world, None, events, seats, "the world"))
    part = str(grid_figure(world, {"x0": 0, "y0": 0, "x1": 10, "y1": 10}, events, seats, "your region"))
    assert grid_map(world) in whole  # the picture every seat shares, unchanged
    assert whole.count("<polyline") == 4 and 'fill="#e6194b"' in whole and 'fill="#2f55d4"' in whole
    assert part.count("<polyline") == 2 and "#2f55d4" not in part  # the combat lies outside the crop
    assert ">3</text>" in part  # the region map writes the troops that went
    assert "<svg" not in str(grid_figure(world, None, [], seats, "quiet"))
