"""The seat's latest map and standings, and a page per past turn, from that seat's stored reports."""

from __future__ import annotations

import io
import json
import re

import pytest
from PIL import Image

from gm.render.gridmap import geometry
from gm.render.seat_arrows import draw_turn_map
from gm.render.seat_maps import draw_seat_map, seat_maps
from gm.rulesets import installed
from gm.services.seat_turns import TurnReport
from tests.conftest import played_home, use_home
from tests.render.ruleset_report import report_context


@pytest.fixture(scope="module")
def two_turns(made, tmp_path_factory):
    """The game's home after turns 1 and 2 were run and published (robots for everybody), paid
    for (tests/web/test_held.py has the reports held for credits): played once for the module."""
    turn = ("turn", "run", "g1", "--now")
    buy = ("credits", "buy", "ann@example.org", "2", "--paid", "5")
    return played_home(made, tmp_path_factory.mktemp("two-turns") / "home", buy, turn, turn)


@pytest.fixture
def after_two_turns(two_turns, home, game, request):
    """BR signed in to g1 after turns 1 and 2 (two_turns, copied into this test's home)."""
    use_home(two_turns, home)
    return request.getfixturevalue("signed_in")


def report_json(home, turn: int, seat: str):
    return home / "reports" / "g1" / str(turn) / f"{seat}.json"


def test_the_seat_page_shows_the_latest_map_and_standings(after_two_turns, home):
    page = after_two_turns.get("/").text
    latest = re.search(r'<section class="card" id="latest">(.*?)</section>', page, re.S)[1]
    report = json.loads(report_json(home, 2, "BR").read_text())
    assert f"Your latest report · Turn 2: {report['turn_label']}" in latest
    assert '<img src="/turn/2/map.svg" alt="The map after turn 2"' in latest
    rows = re.findall(r"<tr(?: class=\"you\")?><td class=\"num\">", latest)
    assert len(rows) == 4 and latest.count('<tr class="you">') == 1
    assert f"<h3>{report['score_title']['title']}</h3>" in latest
    assert '<a href="/turn/1">Turn 1</a>' in page and '<a href="/turn/2">Turn 2</a>' in page


def test_a_page_per_turn_with_its_events_and_the_way_to_the_others(after_two_turns, home):
    report = json.loads(report_json(home, 1, "BR").read_text())
    page = after_two_turns.get("/turn/1")
    assert page.status_code == 200
    assert f"Turn 1: {report['turn_label']}" in page.text
    for event in report["events"]:
        assert str(event["data"]["text"]).replace("'", "&#39;") in page.text
    assert '<a href="/turn/2" rel="next">Turn 2 →</a>' in page.text and 'rel="prev"' not in page.text
    assert '<a href="/reports/g1/BR/1.pdf">PDF</a>' in page.text
    assert 'rel="prev"' in after_two_turns.get("/turn/2").text


def test_the_turn_is_read_from_the_seats_own_report_and_nothing_else(after_two_turns, home):
    # What BR's stored report says is what BR's page shows, escaped; another seat's says nothing to BR.
    path = report_json(home, 1, "BR")
    report = json.loads(path.read_text())
    report["events"].append({"kind": "note", "data": {"text": "A <script>marker</script> in BR's own report"}})
    path.write_text(json.dumps(report))
    other = report_json(home, 1, "RU")
    theirs = json.loads(other.read_text())
    theirs["events"].append({"kind": "note", "data": {"text": "only RU may read this"}})
    other.write_text(json.dumps(theirs))
    page = after_two_turns.get("/turn/1").text
    assert "A &lt;script&gt;marker&lt;/script&gt; in BR&#39;s own report" in page and "<script>marker" not in page
    assert "only RU may read this" not in page


def test_the_maps_are_drawn_from_the_seats_own_report(after_two_turns, home):
    path = report_json(home, 1, "BR")
    report = json.loads(path.read_text())
    report["view"]["map"]["territories"][0]["code"] = "ZQX"  # as if BR's report said so
    path.write_text(json.dumps(report))
    mine = after_two_turns.get("/turn/1/map.svg")
    assert mine.status_code == 200 and mine.mimetype == "image/svg+xml"
    names = {row["seat"]: row["nation"] for row in report["scores"]}
    drawn = draw_turn_map(report["view"], "BR", names, "map.svg", report["events"])
    assert mine.data == drawn and b">ZQX</text>" in mine.data
    assert (
        mine.headers["Cache-Control"] == "no-store" and "default-src 'none'" in mine.headers["Content-Security-Policy"]
    )


@pytest.mark.parametrize(
    "url", ["/turn/3", "/turn/0", "/turn/1/world.png", "/turn/1/map.png", "/turn/1/..%2f..%2fgm.db", "/turn/9/map.svg"]
)
def test_what_is_not_there_is_not_found(after_two_turns, url):
    assert after_two_turns.get(url).status_code == 404


def test_a_report_whose_file_is_gone_is_not_found_and_the_seat_page_still_works(after_two_turns, home):
    report_json(home, 2, "BR").unlink()
    assert after_two_turns.get("/turn/2").status_code == 404
    page = after_two_turns.get("/")
    assert page.status_code == 200 and 'id="latest"' not in page.text and '<a href="/turn/1">' in page.text


def test_nobody_signed_in_sees_no_turn(two_turns, home, game, request):
    use_home(two_turns, home)
    stranger = request.getfixturevalue("app").test_client()
    assert stranger.get("/turn/1").status_code == 403 and stranger.get("/turn/1/map.svg").status_code == 403


def test_before_the_first_turn_there_is_no_map_yet(signed_in):
    page = signed_in.get("/").text
    assert 'id="latest"' not in page and "No reports yet" in page


@pytest.mark.parametrize("name", sorted(installed()))
def test_every_rulesets_maps_are_drawn_for_the_portal(name):
    context = report_context(name)
    maps = seat_maps(context["view"])
    if name in ("clash", "conqueror", "empires", "imperials", "mcempires"):
        assert maps, f"{name}'s view holds no map the portal can draw"
    names = {row["seat"]: row["nation"] for row in context["scores"]}
    for found in maps:
        magic = b"<svg" if found.media_type == "image/svg+xml" else b"\x89PNG"
        for picture in (
            draw_seat_map(context["view"], context["seat"], names, found.file),
            draw_turn_map(context["view"], context["seat"], names, found.file, context["events"]),
        ):
            assert picture.startswith(magic), (name, found.file)
    assert draw_seat_map(context["view"], context["seat"], names, "nothing.svg") is None
    if "map.svg" not in {m.file for m in maps}:  # a map the view does not hold: none, with or without arrows
        assert draw_turn_map(context["view"], context["seat"], names, "map.svg", context["events"]) is None


def test_a_grid_worlds_pictures_carry_the_turns_arrows_as_its_report_draws_them():
    """Minecraft EMPIRES' robots build before they march, so the turn's events are made here, on a
    real view: a move of the seat's from the middle of its region, 6 blocks east."""
    context = report_context("mcempires")
    view, seat = context["view"], context["seat"]
    region = view["region"]
    x, y = (region["x0"] + region["x1"]) // 2, (region["y0"] + region["y1"]) // 2
    events = [{"kind": "move", "data": {"seat": seat, "from": f"{x},{y}", "to": f"{x + 6},{y}", "troops": 5}}]
    colour = next(s["colour"] for s in view["seats"] if s["code"] == seat)
    for file, (x0, y0, cols, rows) in {
        "world.png": (0, 0, view["world"]["width"], view["world"]["height"]),
        "region.png": (region["x0"], region["y0"], region["x1"] - region["x0"], region["y1"] - region["y0"]),
    }.items():
        plain = Image.open(io.BytesIO(draw_seat_map(view, seat, {}, file))).convert("RGB")
        arrowed = Image.open(io.BytesIO(draw_turn_map(view, seat, {}, file, events))).convert("RGB")
        assert arrowed.size == plain.size
        scale, margin = geometry(cols, rows)
        # Halfway along the shaft, the arrow's fill: the colour of the seat that moved.
        middle = (margin + (x + 3.5 - x0) * scale, margin + (y + 0.5 - y0) * scale)
        assert arrowed.getpixel(middle) == Image.new("RGB", (1, 1), colour).getpixel((0, 0)), file
        assert plain.getpixel(middle) != arrowed.getpixel(middle)
        assert draw_turn_map(view, seat, {}, file, []) == draw_seat_map(view, seat, {}, file)  # no moves: as before


@pytest.mark.parametrize(
    ("label", "heading"),
    [
        ("Round 13 of 30", "Turn 13: Round 13 of 30"),
        ("Turn 13 of 24: spring 859", "Turn 13 of 24: spring 859"),
        ("turn 13", "Turn 13"),
        ("", "Turn 13"),
        ("Turn 130 of 200", "Turn 13: Turn 130 of 200"),
    ],
)
def test_a_turn_heading_names_the_turn_once(label, heading):
    """Conqueror's label "Turn 1 of 24: spring 859" made the portal's heading "Turn 1: Turn 1 of 24: ..."."""
    turn = TurnReport(turn=13, label=label, created="", report={}, maps=(), newer=None, older=None)
    assert turn.heading() == heading
