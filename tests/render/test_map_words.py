"""Every map of a report says in words what it shows the seat (gm.render.maptext): a tagged
report's figures need a text, and a screen reader reads it in the picture's place."""

from __future__ import annotations

import re

import pytest

from gm.render import maptext
from gm.render.hexmap import corner_number
from gm.rulesets import get_ruleset, installed
from gm.testing.reports import report_html

VIEW_MAP = {
    "width": 100,
    "height": 100,
    "territories": [
        {"code": "LON", "name": "London", "x": 10, "y": 10, "owner": "EN", "troops": 3},
        {"code": "PAR", "name": "Paris", "x": 30, "y": 20, "owner": "FR", "troops": 2},
        {"code": "BRE", "name": "Brest", "x": 20, "y": 30, "owner": None, "troops": 0},
        {"code": "ROM", "name": "Rome", "x": 90, "y": 90, "owner": "IT", "troops": 5},
    ],
}
NAMES = {"EN": "England", "FR": "France", "IT": "Italy"}


def test_a_region_names_each_of_its_places_with_holder_and_troops():
    words = maptext.territories(VIEW_MAP, "EN", NAMES, (0, 0, 50, 50), "England and its neighbours")
    assert words == (
        "England and its neighbours: 3 places. Yours (1): LON London with 3 troops. "
        "France (FR): 1, PAR Paris with 2 troops. nobody: 1, BRE Brest with 0 troops."
    )
    assert "ROM" not in words  # outside the region, and not drawn there


def test_a_whole_board_counts_each_holders_places_and_names_the_seats_own():
    # A nation without a player's row (Conqueror's AI nations) is named from the view's seats.
    names = {code: name for code, name in NAMES.items() if code != "IT"}
    words = maptext.territories(
        VIEW_MAP, "FR", names, title="Map of the whole game", seats=[{"code": "IT", "nation": "Italy"}]
    )
    assert words == (
        "Map of the whole game: 4 places. Yours (1): PAR Paris with 2 troops. England (EN): 1. Italy (IT): 1. nobody: 1."
    )


def test_a_block_world_names_each_empires_cities_and_groups_by_block_the_seats_first():
    world = {
        "width": 37,
        "height": 37,
        "marks": [
            {"x": 9, "y": 12, "shape": "capital", "label": "BL1", "tag": "BL"},
            {"x": 28, "y": 8, "shape": "capital", "label": "RE1", "tag": "RE"},
            {"x": 28, "y": 9, "shape": "group", "label": "4", "note": "RE"},
            {"x": 2, "y": 30, "shape": "city", "label": "BL2", "tag": "BL"},
        ],
    }
    seats = [{"code": "BL", "nation": "Blue"}, {"code": "RE", "nation": "Red"}]
    words = maptext.grid(world, {"x0": 5, "x1": 37, "y0": 0, "y1": 20}, seats, "RE", "Map of your region")
    assert words == (
        "Map of your region: blocks 5 to 36 across, 0 to 19 down. "
        "Yours: capital RE1 at 28,8; a group of 4 troops at 28,9. Blue (BL): capital BL1 at 9,12."
    )


def test_an_island_names_its_tiles_the_robber_and_every_piece_by_vertex():
    board = {
        "hexes": [
            {"col": 2, "row": 0, "label": "A", "number": 6, "caption": "wool"},
            {"col": 4, "row": 0, "label": "B", "number": 11, "caption": "wheat"},
            {"col": 3, "row": 1, "label": "C", "caption": "desert"},
        ],
        "corners": [{"at": [2, 0, 1], "text": "9"}, {"at": [2, 0, 0], "text": "10"}, {"at": [4, 0, 4], "text": "10"}],
        "pieces": [{"at": [2, 0, 1], "shape": "village", "seat": "BLUE", "text": "9"}],
        "lines": [{"from": [2, 0, 1], "to": [2, 0, 0], "seat": "BLUE"}],
        "marks": [{"col": 3, "row": 1, "shape": "robber"}],
    }
    words = maptext.island(board, "RED", {"BLUE": "Blue (BLUE)"}, corner_number(board))
    assert words == (
        "The island: 3 tiles. Tiles: A wool 6, B wheat 11, C desert. The robber is on tile C. "
        "Blue (BLUE): a village at 9; road 9-10."
    )


@pytest.mark.parametrize("name", sorted(installed()))
def test_every_picture_of_a_report_has_its_words(name):
    """Each <img> has a text that says more than "map", and each SVG drawn over one has a title."""
    html = report_html(get_ruleset(name), seats=4)
    images = re.findall(r"<img\b[^>]*>", html)
    assert images
    for image in images:
        alt = re.search(r'alt="([^"]*)"', image)
        assert alt and len(alt[1]) > 40, image[:200]
    for svg in re.findall(r"<svg\b[^>]*>(.{0,400})", html, flags=re.S):
        assert svg.lstrip().startswith("<title>"), svg[:120]
