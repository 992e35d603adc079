"""Imperials' order form gives examples true for its reader (issue 30): an edge of this island the
seat could build on, a PLAY of a card it holds naming another seat, never a false one; where
nothing fits, it says why. tests/games/test_form_examples.py checks every example of every
ruleset's forms over robot games; these are the cases the issue named."""

from __future__ import annotations

import copy

from gm_games.imperials.turn import board_geometry

from gm.core.model import SeatInfo
from gm.core.ruleset import TurnSeeds
from gm.rulesets import installed
from gm.testing.suite import example_problems, form_examples

ruleset = installed()["imperials"]


def round_game(mode: str = "basic", seed: int = 3, turns: int = 3) -> dict:
    """A game of the island after its set-up and a round or two of robot turns."""
    scenario = ruleset.load_scenario(ruleset.scenario_text("island"), "island")
    scenario = {**scenario, "options": {**scenario["options"], "mode": mode}}
    codes = ruleset.seat_codes(scenario)
    state = ruleset.new_game(scenario, [SeatInfo(c, c) for c in codes], TurnSeeds(seed, 0))
    for turn in range(1, turns + 1):
        seeds = TurnSeeds(seed, turn)
        robots = {s: ruleset.robot_orders(state, s, seeds.rng(s)) for s in state["seating"]}
        state = ruleset.resolve(state, robots, seeds).state
    assert state["phase"] == "play"
    return state


def holding(state: dict, seat: str, *cards: str) -> dict:
    held = copy.deepcopy(state)
    held["seats"][seat]["cards"] = [{"card": c, "round": 1, "bought": False} for c in cards]
    return held


def test_the_issues_examples_are_gone_and_every_example_passes_the_check_for_its_reader():
    state = holding(round_game(), "BLUE", "warrior")
    for seat in state["seating"]:
        lines = ruleset.order_form(state, seat)
        examples = form_examples(ruleset, lines)
        assert "ROAD 12-13" not in examples and "PLAY WARRIOR H BLUE" not in examples
        assert any(e.startswith("ROAD ") for e in examples)
        assert example_problems(ruleset, state, seat, 4, lines) == []
    [play] = [e for e in form_examples(ruleset, ruleset.order_form(state, "BLUE")) if e.startswith("PLAY")]
    assert play.startswith("PLAY WARRIOR ") and "BLUE" not in play.split()


def test_a_road_example_is_a_free_edge_of_this_island_at_the_seats_own_pieces():
    state = round_game()
    for seat in state["seating"]:
        [road] = [e for e in form_examples(ruleset, ruleset.order_form(state, seat)) if e.startswith("ROAD ")]
        edge = road.split()[1]
        mine = {int(v) for v, b in state["buildings"].items() if b["owner"] == seat}
        mine |= {int(n) for e, owner in state["roads"].items() if owner == seat for n in e.split("-")}
        assert edge in board_geometry(state).edge_ends and edge not in state["roads"]
        assert {int(n) for n in edge.split("-")} & mine


def test_only_the_cards_the_seat_holds_are_played_in_its_examples():
    state = round_game()
    bare = holding(state, "RED")
    assert not [e for e in form_examples(ruleset, ruleset.order_form(bare, "RED")) if e.startswith("PLAY")]
    assert "PLAY (you hold no action card)" in " ".join(ruleset.order_form(bare, "RED"))
    held = holding(state, "RED", "monopoly", "plenty", "point")
    plays = [e for e in form_examples(ruleset, ruleset.order_form(held, "RED")) if e.startswith("PLAY")]
    assert [p.split()[1] for p in plays] == ["MONOPOLY", "PLENTY"]
    assert "#   Victory Point: counts while you hold it" in ruleset.order_form(held, "RED")


def test_where_nothing_fits_the_form_says_why_in_the_checks_words():
    state = copy.deepcopy(round_game(turns=4))
    geo = board_geometry(state)
    [seat] = [s for s in state["seating"] if _free_corners(state, s)][:1]
    corner = _free_corners(state, seat)[0]
    assert f"VILLAGE {corner}" in form_examples(ruleset, ruleset.order_form(state, seat))
    # The seat's villages made five, away from its free corner: no VILLAGE example now, and
    # the check's reason instead (its corner is still listed: the limit is what stops it).
    taken = {int(v) for v in state["buildings"]} | {corner, *geo.vertex_neighbours[corner]}
    while len([b for b in state["buildings"].values() if b["owner"] == seat]) < 5:
        vertex = next(v for v in range(1, geo.vertex_count + 1) if v not in taken)
        state["buildings"][str(vertex)] = {"owner": seat, "kind": "village", "fence": False, "wonder": None}
        taken |= {vertex, *geo.vertex_neighbours[vertex]}
    form = ruleset.order_form(state, seat)
    assert not [e for e in form_examples(ruleset, form) if e.startswith("VILLAGE ")]
    text = " ".join(line.lstrip("# ") for line in form)
    assert "VILLAGE (you have 5 villages on the board, the most a player may have)" in text


def _free_corners(state: dict, seat: str) -> list[int]:
    [line] = [line for line in ruleset.order_form(state, seat) if line.startswith("# Free corners your roads")]
    listed = line.partition("(for VILLAGE): ")[2]
    return [] if listed == "none yet" else [int(v) for v in listed.split(", ")]


def test_wonders_examples_name_the_seats_own_towns_and_warriors():
    state = round_game("wonders", turns=6)
    for seat in state["seating"]:
        lines = ruleset.order_form(state, seat)
        assert example_problems(ruleset, state, seat, 7, lines) == []
        for example in form_examples(ruleset, lines):
            verb, *words = example.split()
            if verb in ("FENCE", "ACTIVATE", "UPGRADE"):
                placed = state["buildings"] if verb == "FENCE" else state["warriors"]
                assert placed[words[0]]["owner"] == seat


def test_the_set_up_example_is_the_first_rich_corner_with_a_road_from_it():
    scenario = ruleset.load_scenario(ruleset.scenario_text("island"), "island")
    state = ruleset.new_game(scenario, [SeatInfo(c, c) for c in ruleset.seat_codes(scenario)], TurnSeeds(3, 0))
    form = ruleset.order_form(state, "RED")
    [settle] = form_examples(ruleset, form)
    [rich] = [line for line in form if line.startswith("# Rich corners now: ")]
    vertex = rich.removeprefix("# Rich corners now: ").split()[0]
    assert settle.split()[1] == vertex and vertex in settle.split()[2].split("-")
