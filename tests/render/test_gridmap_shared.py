"""A grid world's maps (gm/render/gridmap.py, Minecraft EMPIRES) as a turn's reports are made
(issue 32): what every seat shares is drawn once, what differs between seats is not shared, and
every picture is byte for byte the one drawn for the seat alone."""

from __future__ import annotations

import copy
import functools
import json

import pytest

from gm.render import gridmap

from . import ruleset_report


@functools.cache
def _contexts() -> list[dict]:
    """Every seat's report context of a Minecraft EMPIRES game robots played 3 turns of."""
    return ruleset_report.report_contexts("mcempires", turns=3)


@pytest.fixture
def fresh(monkeypatch):
    """Empty drawing caches, and a count of every drawing and of every tinted world made."""
    monkeypatch.setattr(gridmap, "_cache", type(gridmap._cache)())
    monkeypatch.setattr(gridmap, "_bases", type(gridmap._bases)())
    counts = {"draw": 0, "tinted": 0}

    def counted(name):
        real = getattr(gridmap, name)

        def call(*args, **kwargs):
            counts[name.strip("_")] += 1
            return real(*args, **kwargs)

        monkeypatch.setattr(gridmap, name, call)

    counted("draw")
    counted("_tinted")
    return counts


def _world_and_regions() -> tuple[dict, list[dict]]:
    views = [c["view"] for c in _contexts()]
    worlds = {json.dumps(v["world"], sort_keys=True) for v in views}
    assert len(worlds) == 1 and len(views) >= 3  # the seats do see the same world
    return views[0]["world"], [v["region"] for v in views if v["region"]]


def test_seats_with_the_same_world_share_one_drawing_of_it(fresh):
    world, regions = _world_and_regions()
    assert len({json.dumps(r, sort_keys=True) for r in regions}) >= 2  # each seat its own crop
    first = gridmap.grid_map(world)
    again = gridmap.grid_map(copy.deepcopy(world))  # another seat's view: equal, not the same object
    assert first == again and fresh["draw"] == 1
    for region in regions:
        gridmap.grid_map(world, region)
    # every region is drawn (its own), all from the one tinted world
    assert fresh["draw"] == 1 + len({json.dumps(r, sort_keys=True) for r in regions})
    assert fresh["tinted"] == 1


def test_seats_whose_world_differs_do_not_share_a_drawing(fresh):
    world, regions = _world_and_regions()
    other = copy.deepcopy(world)
    row = other["territory"][0]
    other["territory"][0] = ("R" if row[0] != "R" else "B") + row[1:]  # one block changes hands
    seen = gridmap.grid_map(world)
    changed = gridmap.grid_map(other)
    assert seen != changed and fresh["draw"] == 2 and fresh["tinted"] == 2
    gridmap.grid_map(other, regions[0])
    gridmap.grid_map(world, regions[0])
    assert fresh["draw"] == 4 and fresh["tinted"] == 2


def test_a_shared_drawing_is_byte_for_byte_the_seats_own(fresh):
    world, regions = _world_and_regions()
    for crop in [None, *regions]:
        gridmap.grid_map(world, crop)  # the caches warm with every drawing of the turn
    for crop in [None, *regions]:
        shared = gridmap.draw_png(world, crop)
        gridmap._bases.clear()
        alone = gridmap.draw_png(world, crop)  # as if this seat's picture were the first drawn
        assert shared == alone


def test_a_font_is_loaded_once_a_size(monkeypatch):
    loads = []
    real = gridmap.ImageFont.load_default
    monkeypatch.setattr(gridmap, "_fonts", {})
    monkeypatch.setattr(gridmap.ImageFont, "load_default", lambda size=None: loads.append(size) or real(size=size))
    world, regions = _world_and_regions()
    gridmap.draw(world, regions[0])
    gridmap.draw(world, regions[0])
    assert loads and len(loads) == len(set(loads))


def test_the_tinted_worlds_kept_are_at_most_base_size(fresh):
    world, _ = _world_and_regions()
    for n in range(gridmap.BASE_SIZE + 2):
        other = copy.deepcopy(world)
        other["terrain"] = ["." * n + row[n:] for row in world["terrain"]]  # another world each time
        gridmap.draw(other)
    assert len(gridmap._bases) == gridmap.BASE_SIZE and fresh["tinted"] == gridmap.BASE_SIZE + 2
