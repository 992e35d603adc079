"""Properties of Minecraft EMPIRES, whatever the seed: the parser never raises; in robot games
no group passes 6 troops, E$ never go below 0, every block has at most one owner and never is
water, cities keep their distance; the same seed plays the same game."""

from __future__ import annotations

from gm_games.mcempires import ruleset
from gm_games.mcempires.world import WATER
from hypothesis import HealthCheck, given, settings, strategies as st

from gm.core.model import SeatInfo
from gm.core.ruleset import TurnSeeds, choose_options, with_options
from gm.core.statehash import state_hash

MODES = ("original", "war-bounty", "land-game")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(max_size=60), max_size=8))
def test_the_parser_never_raises(lines):
    orders, problems = ruleset.parse_orders(list(enumerate(lines, 1)))
    assert len(orders) + len(problems) <= len(lines)
    assert all(p.message for p in problems)


def game(scenario: str, seats: int, mode: str, seed: int, **options) -> tuple[dict, list[str]]:
    loaded = ruleset.load_scenario(ruleset.scenario_text(scenario), scenario)
    loaded = with_options(loaded, choose_options(ruleset.game_options(), {"mode": mode, **options}))
    codes = ruleset.seat_codes(loaded)[:seats]
    return ruleset.new_game(loaded, [SeatInfo(c, c) for c in codes], TurnSeeds(seed, 0)), codes


def play(state: dict, codes: list[str], seed: int, rounds: int, each=None) -> dict:
    for turn in range(1, rounds + 1):
        if ruleset.is_over(state):
            break
        seeds = TurnSeeds(seed, turn)
        orders = {c: ruleset.robot_orders(state, c, seeds.rng(f"robot:{c}")) for c in codes}
        state = ruleset.resolve(state, orders, seeds).state
        if each:
            each(state)
    return state


def holds(state: dict) -> None:
    terrain = "".join(state["world"]["terrain"])
    owned = "".join(state["territory"])
    marks = {s["mark"] for s in state["seats"].values()}
    assert len(owned) == len(terrain) and set(owned) <= marks | {"."}
    assert all(owned[i] == "." for i, c in enumerate(terrain) if c in WATER)
    for seat in state["seats"].values():
        assert seat["money"] >= 0
        if not seat["alive"]:
            assert seat["mark"] not in owned
    assert all(1 <= g["troops"] <= 6 for g in state["groups"].values())
    where = {}
    for group in state["groups"].values():
        where.setdefault((group["x"], group["y"]), []).append(group["owner"])
    assert all(len(set(owners)) == len(owners) for owners in where.values())
    centres = [(c["x"], c["y"]) for c in state["cities"].values()]
    assert all(abs(a[0] - b[0]) + abs(a[1] - b[1]) >= 6 for n, a in enumerate(centres) for b in centres[n + 1 :])
    assert all(terrain[y * state["world"]["width"] + x] not in WATER for x, y in centres)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1), seats=st.integers(2, 3), mode=st.sampled_from(MODES))
def test_robot_games_keep_the_rules(seed, seats, mode):
    state, codes = game("testbed", seats, mode, seed)
    holds(state)
    play(state, codes, seed, 40, holds)


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1))
def test_the_same_seed_plays_the_same_game(seed):
    runs = []
    for _ in range(2):
        state, codes = game("frontier", 4, "original", seed)
        runs.append(state_hash(play(state, codes, seed, 25)))
    assert runs[0] == runs[1]


def test_robots_finish_a_game_with_every_optional_rule_on():
    """With declarations of war the robots declare before they attack; with closed borders they
    fight their way in. They make and accept no agreements."""
    state, codes = game(
        "frontier", 4, "original", 2, declarations=True, borders=True, alliances=True, peace=True, amphibious=True
    )
    final = play(state, codes, 2, 300, holds)
    assert ruleset.is_over(final) is not None
