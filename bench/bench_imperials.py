"""Imperials speed: a 6-seat round, whole 4-seat robot games a minute, a seat's report.

    .venv/bin/python bench/bench_imperials.py [--games 100] [--rounds 60] [--reports 12]

All times are CPU time of this process (time.process_time), so other work on a shared machine
costs as little as it can.
(a) 6-seat rounds on the greater island, both modes: robot orders made first (not timed), then
    each resolve timed; median and slowest. Target: median <= 20 ms.
(b) whole 4-seat robot games on the dealt island, set-up to the winner, robot orders and the
    check of every seat's orders included, each game with its own seed; Basic and Wonders &
    Warriors alternate. Target: >= 100 games a minute on one core.
(c) a seat's report, template and PDF, board included, from the report contexts of one played
    game (4 seats, the last rounds); the board is drawn once per round and shared, as in gm.
    The floor, rendered in the same run and alternating with it: the shared Clash report of
    tests/render/sample_game.py. Target: median <= 0.6 s.
Not run by the test suite.
"""

from __future__ import annotations

import argparse
import gc
import platform
import statistics
import sys
import time
from datetime import UTC
from pathlib import Path

from gm_games.imperials import ruleset

from gm.core.model import SeatInfo
from gm.core.ruleset import TurnSeeds
from gm.render.environment import asset_dirs, base_url, make_environment, package_templates_dir, render_report_html
from gm.render.fetcher import AssetFetcher
from gm.render.hexmap import _drawing
from gm.render.pdf import html_to_pdf

CREATED = "2026-11-24T12:00:00Z"


def new_state(scenario_name: str, mode: str, seats: int, seed: int) -> dict:
    scenario = ruleset.load_scenario(ruleset.scenario_text(scenario_name), scenario_name)
    scenario = {**scenario, "options": {**scenario["options"], "mode": mode}}
    codes = ruleset.seat_codes(scenario)[:seats]
    return ruleset.new_game(scenario, [SeatInfo(c, f"Player {c}") for c in codes], TurnSeeds(seed, 0))


def robot_orders(state: dict, seed: int, turn: int, check: bool = False) -> dict:
    seeds = TurnSeeds(seed, turn)
    orders = {s: ruleset.robot_orders(state, s, seeds.rng(f"robot:{s}")) for s in state["seating"]}
    if check:
        for seat, listed in orders.items():
            assert ruleset.check_orders(state, seat, listed) == []
    return orders


def six_seat_rounds(rounds: int) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {}
    for mode in ("basic", "wonders"):
        times[mode] = []
        seed = 0
        while len(times[mode]) < rounds:
            state, turn = new_state("greater-island", mode, 6, seed), 1
            while ruleset.is_over(state) is None and len(times[mode]) < rounds:
                orders = robot_orders(state, seed, turn)
                began = time.process_time()
                result = ruleset.resolve(state, orders, TurnSeeds(seed, turn))
                if state["phase"] == "play":
                    times[mode].append(time.process_time() - began)
                state, turn = result.state, turn + 1
            seed += 1
    return times


def play_game(mode: str, seed: int) -> tuple[int, dict]:
    state, turn = new_state("island", mode, 4, seed), 1
    while ruleset.is_over(state) is None:
        state = ruleset.resolve(state, robot_orders(state, seed, turn, check=True), TurnSeeds(seed, turn)).state
        turn += 1
    return turn - 1, state


def games_per_minute(games: int) -> tuple[float, list[int]]:
    began = time.process_time()
    lengths = [play_game(("basic", "wonders")[seed % 2], 1000 + seed)[0] for seed in range(games)]
    return games * 60 / (time.process_time() - began), lengths


def report_contexts(count: int) -> list[dict]:
    """Report contexts of the last rounds of a 4-seat game, built as gm's report service does."""
    import tempfile
    from datetime import datetime

    from gm.clock import FixedClock
    from gm.home import Home, create_home
    from gm.services import games, turns
    from gm.services.reports import report_context
    from gm.store import records
    from gm.store.database import open_database

    clock = FixedClock(datetime(2026, 11, 24, 12, 0, tzinfo=UTC))
    with tempfile.TemporaryDirectory() as folder:
        home = Home(Path(folder))
        create_home(home)
        db = open_database(home.database)
        games.create_game(db, clock, "bench", "imperials", None, 5)
        for name in ("Ann", "Bob", "Cy", "Di"):
            games.join_game(db, clock, "bench", f"{name.lower()}@example.org", name)
        for _ in range(12):
            turns.run_turn(db, home, clock, "bench")
        game = records.game_by_name(db, "bench")
        seats = records.seats_of(db, game.id)
        stored = records.turns_of(db, game.id, 0)
        contexts = [
            report_context(game, ruleset, turn, seat, seats, None, before.state)
            for before, turn in zip(stored[-4:], stored[-3:])
            for seat in seats
        ]
        db.conn.close()
    return contexts[:count]


def clash_floor() -> dict:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "render"))
    import sample_game

    return sample_game.report_context(sample_game.SEATS[0][0], 5)


def render_times(count: int) -> tuple[list[float], list[float], int]:
    contexts = report_contexts(count)
    env = make_environment(None, [package_templates_dir("gm_games.imperials.templates")])
    clash_env = make_environment(None, [package_templates_dir("gm_games.clash.templates")])
    fetcher, floor_context = AssetFetcher(asset_dirs(env)), clash_floor()

    def render(environment, context) -> float:
        gc.collect()
        began = time.process_time()
        html = render_report_html(environment, context)
        pdf = html_to_pdf(html, base_url=base_url(), created=CREATED, identifier="bench", fetcher=fetcher)
        assert pdf.startswith(b"%PDF")
        return time.process_time() - began

    render(env, contexts[0])  # warm: imports, fonts
    _drawing.cache_clear()
    ours, floor = [], []
    for context in contexts:
        ours.append(render(env, context))
        floor.append(render(clash_env, floor_context))
    return ours, floor, _drawing.cache_info().misses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=60, help="6-seat rounds timed per mode (a)")
    parser.add_argument("--games", type=int, default=100, help="whole 4-seat games (b)")
    parser.add_argument("--reports", type=int, default=12, help="seat reports rendered (c)")
    args = parser.parse_args()
    print(f"python {platform.python_version()}, {platform.machine()}, {ruleset.name} {ruleset.version}; CPU time")
    for mode, times in six_seat_rounds(args.rounds).items():
        print(
            f"(a) 6-seat round, {mode}: median {statistics.median(times) * 1000:.1f} ms, slowest "
            f"{max(times) * 1000:.1f} ms (target: median <= 20 ms); {len(times)} rounds"
        )
    rate, lengths = games_per_minute(args.games)
    print(
        f"(b) whole 4-seat robot games: {rate:.0f} a minute on one core (target >= 100); "
        f"{args.games} games, {statistics.median(lengths):.0f} turns median, longest {max(lengths)}"
    )
    ours, floor, drawings = render_times(args.reports)
    print(
        f"(c) a seat's report: median {statistics.median(ours):.2f} s, slowest {max(ours):.2f} s "
        f"(target <= 0.6 s); the Clash floor in the same run: median {statistics.median(floor):.2f} s; "
        f"{len(ours)} reports, {drawings} board drawings"
    )


if __name__ == "__main__":
    main()
