"""Minecraft EMPIRES' view, report and map: what a seat may see, the world drawn once and shared,
the enlarged region, and a report that renders with both maps."""

from __future__ import annotations

import base64
import io
import json

from gm_games.mcempires import ruleset
from gm_games.mcempires.view import PALETTE, world_drawing
from PIL import Image

from gm.core.model import SeatInfo
from gm.core.ruleset import TurnSeeds
from gm.render import gridmap
from gm.render.environment import make_environment, package_templates_dir


def started(seats=("RE", "BL", "YE"), scenario="testbed") -> dict:
    loaded = ruleset.load_scenario(ruleset.scenario_text(scenario), scenario)
    state = ruleset.new_game(loaded, [SeatInfo(c, f"Player {c}") for c in seats], TurnSeeds(1, 0))
    return ruleset.resolve(state, {}, TurnSeeds(1, 1)).state


def test_a_seat_sees_its_own_standing_orders_and_no_one_elses():
    state = started()
    state["standing"] = {"RE": ["DEFEND ALL 1 RETREAT N"], "BL": ["DESTROY ALL"]}
    red = ruleset.view(state, "RE")
    assert red["you"]["standing"] == ["DEFEND ALL 1 RETREAT N"]
    assert "DESTROY ALL" not in json.dumps(red)
    assert "DEFEND ALL 1" not in json.dumps(ruleset.view(state, "BL"))


def test_proposals_are_seen_by_the_two_empires_only():
    state = started()
    state["proposals"] = [{"from": "RE", "to": "BL", "kind": "ally", "terms": "", "round": 1}]
    assert ruleset.view(state, "RE")["proposals"] == ruleset.view(state, "BL")["proposals"] != []
    assert ruleset.view(state, "YE")["proposals"] == []


def test_the_hidden_variant_changes_only_what_one_seat_knows():
    from random import Random

    state = started()
    other = ruleset.hidden_variant(state, "RE", Random(1))
    assert other["standing"]["RE"] != state["standing"].get("RE")
    secret = ("standing", "seats")
    assert {k: v for k, v in other.items() if k not in secret} == {k: v for k, v in state.items() if k not in secret}
    # the site gm suggests for the capital is in RE's own order form only
    assert other["seats"]["RE"]["site"] != state["seats"]["RE"]["site"]
    assert other["seats"] == {**state["seats"], "RE": {**state["seats"]["RE"], "site": other["seats"]["RE"]["site"]}}
    assert ruleset.view(other, "BL") == ruleset.view(state, "BL")
    assert ruleset.view(other, "RE") != ruleset.view(state, "RE")
    assert ruleset.order_form(other, "BL") == ruleset.order_form(state, "BL")


def test_every_seat_gets_the_same_world_drawing_and_its_own_region():
    state = started(seats=("RE", "BL"), scenario="valley")
    views = [ruleset.view(state, code) for code in ("RE", "BL")]
    assert views[0]["world"] == views[1]["world"] == world_drawing(state)
    red, blue = views[0]["region"], views[1]["region"]
    assert red != blue and red["x1"] - red["x0"] == 30 and red["y1"] - red["y0"] == 30
    x, y = state["seats"]["RE"]["site"]
    assert red["x0"] <= x < red["x1"] and red["y0"] <= y < red["y1"]
    whole = ruleset.view(started(), "RE")["region"]  # a world smaller than a region: all of it
    assert whole == {"x0": 0, "x1": 20, "y0": 0, "y1": 14}


def test_routine_events_are_private_and_battles_public():
    state = started()
    state["groups"] = {
        "G1": {"owner": "RE", "x": 8, "y": 6, "troops": 3},
        "G2": {"owner": "BL", "x": 9, "y": 6, "troops": 2},
    }
    orders, _ = ruleset.parse_orders([(1, "ATTACK G1 G2"), (2, "LAND 5,1")])
    result = ruleset.resolve(state, {"RE": orders}, TurnSeeds(1, 2))
    kinds = {e.kind: e.seats for e in result.events}
    assert kinds["combat"] is None and kinds["war"] is None
    assert kinds["land"] == ("RE",) and kinds["income"] in (("RE",), ("BL",), ("YE",))


def png(uri: str) -> Image.Image:
    assert uri.startswith("data:image/png;base64,")
    return Image.open(io.BytesIO(base64.b64decode(uri.split(",", 1)[1])))


def test_the_world_map_is_drawn_once_and_shared(monkeypatch):
    state = started()
    drawn = []
    real = gridmap.draw_png
    monkeypatch.setattr(gridmap, "draw_png", lambda data, crop=None: drawn.append(1) or real(data, crop))
    gridmap._cache.clear()
    first = gridmap.grid_map(ruleset.view(state, "RE")["world"])
    again = gridmap.grid_map(ruleset.view(state, "BL")["world"])
    assert first is again and drawn == [1]
    scale, margin = gridmap.geometry(20, 14)
    assert png(first).size == (20 * scale + 2 * margin, 14 * scale + 2 * margin)


def test_the_map_shows_terrain_and_territory():
    state = started(seats=("RE", "BL"))
    image = gridmap.draw(world_drawing(state)).convert("RGB")
    scale, margin = gridmap.geometry(20, 14)

    def colour(x: int, y: int) -> tuple:  # a pixel inside block x,y, clear of grid and borders
        return image.getpixel((margin + x * scale + scale // 2 + 2, margin + y * scale + scale // 2 + 2))

    def rgb(text: str) -> tuple:
        return tuple(int(text[k : k + 2], 16) for k in (1, 3, 5))

    assert colour(0, 0) == rgb(PALETTE["~"]) and colour(8, 12) == rgb(PALETTE["~"])
    assert colour(12, 4) == rgb(PALETTE["*"]) and colour(8, 5) == rgb(PALETTE["."])
    red = colour(2, 1)  # Red's territory: grass tinted red
    assert red != rgb(PALETTE["."]) and red[0] > red[1] and red[0] > red[2]


def test_a_crop_enlarges_the_region():
    state = started(seats=("RE", "BL"), scenario="valley")
    view = ruleset.view(state, "RE")
    whole, part = png(gridmap.grid_map(view["world"])), png(gridmap.grid_map(view["world"], view["region"]))
    region = view["region"]
    assert (region["x1"] - region["x0"]) < view["world"]["width"]
    blocks_whole = whole.size[0] / view["world"]["width"]
    blocks_part = part.size[0] / (region["x1"] - region["x0"])
    assert blocks_part > 1.5 * blocks_whole


def test_the_report_shows_both_maps_and_escapes_names():
    state = started(seats=("RE", "BL"))
    state["seats"]["RE"]["name"] = "<img src=x>"
    env = make_environment(None, [package_templates_dir("gm_games.mcempires.templates")])
    assert env.globals["grid_map"] is gridmap.grid_map
    context = {
        "game": {"name": "g", "title": "t", "ruleset": "mcempires"},
        "turn": 1,
        "turn_label": "Round 1",
        "next_label": "Round 2",
        "seat": "RE",
        "player": "Ann",
        "deadline": None,
        "created": "2026-11-24T12:00:00Z",
        "view": ruleset.view(state, "RE"),
        "events": [],
        "scores": [],
        "score_title": {"title": "Cities held", "column": "Cities"},
        "order_form": "",
        "outcome": None,
    }
    html = env.get_template("report.html").render(context)
    assert html.count('src="data:image/png;base64,') == 2
    assert "<img src=x>" not in html and "&lt;img src=x&gt;" in html


def test_a_state_of_version_1_0_still_gives_its_views_and_forms():
    """Reports of a game made with version 1.0 are drawn again from its stored states, which
    lack what 1.1 keeps (who bought a treasury, a city restored or quiet after an occupation, an
    empire's fate and its all-troops bounty): what is missing takes its default."""
    state = started()
    for turn in range(1, 4):
        seeds = TurnSeeds(1, turn)
        orders = {s: ruleset.robot_orders(state, s, seeds.rng(f"robot:{s}")) for s in state["seating"]}
        state = ruleset.resolve(state, orders, seeds).state
    old = json.loads(json.dumps(state))
    for city in old["cities"].values():
        for key in ("treasury_by", "restored", "spawns_from"):
            del city[key]
    for seat in old["seats"].values():
        del seat["routed"], seat["fate"]
        seat["treasuries_bought"] = 0
    old["seats"]["YE"].update(alive=False, fell=2)
    for seat in old["seating"]:
        view = ruleset.view(old, seat)
        assert view["you"]["lost"] == [] and view["you"]["fate"] == (None if seat != "YE" else "capitulated")
        assert ruleset.order_form(old, seat)
    assert [s["fate"] for s in ruleset.view(old, "RE")["seats"]] == [None, None, "capitulated"]


def test_the_order_form_says_what_a_city_has_in_words_not_letters():
    """Issue 30: `RE1 9,13 (capital T)` left a new player guessing what T was (a treasury)."""
    state = started()
    form = "\n".join(ruleset.order_form(state, "RE"))
    capital = state["seats"]["RE"]["capital"]
    city = state["cities"][capital]
    assert f"#   {capital} {city['x']},{city['y']} (capital, treasury)" in form and "(capital T)" not in form
    city.update(transport=True, naval=True, bases=[1, 2])
    form = "\n".join(ruleset.order_form(state, "RE"))
    assert f"{capital} {city['x']},{city['y']} (capital, treasury, transport, naval base, 2 military bases)" in form


def test_the_order_form_says_the_income_comes_before_the_orders_it_prices():
    """looks7: a form said "Red has 11 E$; income next turn +7" and then "a treasury costs 20 E$
    and you have 18 E$": the check counts the income the round pays first, the form did not say so."""
    state = started()
    state["seats"]["RE"]["money"] = 0
    lines = ruleset.order_form(state, "RE")
    income = int(lines[0].split("income next turn ")[1].rstrip("."))
    assert income > 0 and lines[1] == "# The income comes at the start of your turn, before your orders run."
    assert f"you have {income} E$" in " ".join(lines)


def test_the_order_form_gives_examples_from_the_empires_own_groups_and_land():
    state = started()
    lines = ruleset.order_form(state, "RE")
    at = lines.index("# For example, now:")
    examples = lines[at + 1].removeprefix("#   ").split("  ")
    mine = [g for g, group in state["groups"].items() if group["owner"] == "RE"]
    assert examples[0].split()[:2] == ["MOVE", min(mine, key=lambda g: int(g[1:]))]
    for example in examples:
        orders, problems = ruleset.parse_orders([(1, example)])
        assert problems == [] and ruleset.check_orders(state, "RE", orders) == []
    # What costs more than the empire has is said, in the check's words, not offered.
    state["seats"]["RE"]["money"] = 0
    text = " ".join(ruleset.order_form(state, "RE"))
    assert "BASE (a military base costs 20 E$ and you have" in text
