"""Benchmark: resolving one 16-seat Empires turn on the default map (target: 50 ms or less).

    .venv/bin/python bench/bench_empires.py [--warm-up 6] [--repeat 50] [--seed 1]

A 16-seat game on `europe` is played by robots for --warm-up turns, so the timed turn is a
mid-game one (armies on the borders, battles, a full order list for every seat). That turn's
robot orders are then resolved --repeat times; resolve is pure, so every repeat does the same
work. Printed: the median and fastest resolve, and, for scale, the robots' orders for all seats
and what a turn run adds around resolve (canonical JSON and the state hash).
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import statistics
import time

from gm_games.empires import ruleset

from gm.core.model import SeatInfo
from gm.core.ruleset import TurnSeeds
from gm.core.statehash import state_hash

SEATS = 16
TARGET_MS = 50.0


def timed(function, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        function()
        times.append((time.perf_counter() - start) * 1000)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--warm-up", type=int, default=6, help="robot turns before the timed one")
    parser.add_argument("--repeat", type=int, default=50, help="how many times to resolve it")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    scenario = ruleset.load_scenario(ruleset.scenario_text("europe"), "europe")
    codes = ruleset.seat_codes(scenario)[:SEATS]
    state = ruleset.new_game(scenario, [SeatInfo(c, f"Player {c}") for c in codes], TurnSeeds(args.seed, 0))
    for turn in range(1, args.warm_up + 2):
        seeds = TurnSeeds(args.seed, turn)
        orders = {s: ruleset.robot_orders(state, s, seeds.rng(f"robot:{s}")) for s in state["seating"]}
        if turn <= args.warm_up:
            state = ruleset.resolve(state, orders, seeds).state
    robots = timed(
        lambda: {s: ruleset.robot_orders(state, s, seeds.rng(f"robot:{s}")) for s in state["seating"]},
        max(5, args.repeat // 5),
    )
    resolve = timed(lambda: ruleset.resolve(state, orders, seeds), args.repeat)
    result = ruleset.resolve(state, orders, seeds)
    around = timed(
        lambda: (
            json.dumps(result.state, sort_keys=True),
            state_hash(result.state),
            json.dumps([e.to_json() for e in result.events], sort_keys=True),
        ),
        args.repeat,
    )
    land = sum(1 for a in scenario["areas"] if a["land"])
    actions = sum(len(o) for o in orders.values())
    battles = sum(1 for e in result.events if e.kind == "battle")
    print(
        f"python {platform.python_version()}, europe: {land} land areas, {len(scenario['areas']) - land} seas; "
        f"{SEATS} seats, turn {seeds.turn}: {actions} actions, {battles} battles, {len(result.events)} events"
    )
    median = statistics.median(resolve)
    verdict = "met" if median <= TARGET_MS else "MISSED"
    print(
        f"resolve, median of {args.repeat}: {median:.1f} ms, fastest {min(resolve):.1f} ms "
        f"(target <= {TARGET_MS:.0f} ms: {verdict})"
    )
    print(
        f"robot orders for all {SEATS} seats, median: {statistics.median(robots):.1f} ms; "
        f"state JSON + hash + events JSON, median: {statistics.median(around):.1f} ms"
    )


if __name__ == "__main__":
    main()
