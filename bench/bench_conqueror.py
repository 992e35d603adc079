"""Conqueror! speed: full 8-nation AI games per minute, and the time to resolve one 16-nation turn.

    .venv/bin/python bench/bench_conqueror.py [--games 200] [--repeat 3]

(a) plays --games whole games on the europe map with 8 AI nations (ai_fill 8, no seated player),
    new_game to the game limit, each with its own seed; every turn's AI orders are made inside
    resolve, as in a real game. Best of --repeat runs. Target: at least 100 games a minute.
(b) plays 16-nation AI games (ai_fill raised to 16) and times every resolve, AI orders included;
    prints the median and the slowest turn. Target: at most 50 ms a turn.
(c) checks one turn file of about 1 MB (the house's max_bytes) of `BUY ARD 999999` lines against
    farms, as the acknowledgement does (check_orders and order_warnings): the dearest rush-buy
    to price. Target: at most 2 s of CPU.
Not run by the test suite.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

from gm_games.conqueror import ruleset

from gm.core.model import SeatInfo
from gm.core.ruleset import TurnSeeds


def europe(ai_fill: int) -> dict:
    scenario = ruleset.load_scenario(ruleset.scenario_text("europe"), "europe")
    return dict(scenario, ai_fill=ai_fill)


def play(scenario: dict, seed: int, times: list | None = None) -> dict:
    state = ruleset.new_game(scenario, [], TurnSeeds(seed, 0))
    turn = 1
    while ruleset.is_over(state) is None:
        began = time.perf_counter()
        state = ruleset.resolve(state, {}, TurnSeeds(seed, turn)).state
        if times is not None:
            times.append(time.perf_counter() - began)
        turn += 1
    return state


def games_per_minute(games: int, repeat: int) -> tuple[float, list[float]]:
    scenario = europe(8)
    runs = []
    for run in range(repeat):
        began = time.perf_counter()
        for seed in range(games):
            play(scenario, 1000 * run + seed)
        runs.append(time.perf_counter() - began)
    return games * 60 / min(runs), runs


def sixteen_nation_turns(games: int) -> list[float]:
    scenario = europe(16)
    times: list[float] = []
    for seed in range(games):
        play(scenario, seed, times)
    return times


def farms_file_check(lines: int = 66_000) -> float:
    """CPU seconds to check a file of `lines` BUY lines of 999,999 farms each."""
    scenario = ruleset.load_scenario(ruleset.scenario_text("vale"), "vale")
    state = ruleset.new_game(scenario, [SeatInfo("AR", "A"), SeatInfo("BE", "B")], TurnSeeds(1, 0))
    text = ["PRODUCE ARD FARMS"] + ["BUY ARD 999999"] * lines
    orders, _ = ruleset.parse_orders(list(enumerate(text, 1)))
    began = time.process_time()
    ruleset.check_orders(state, "AR", orders)
    ruleset.order_warnings(state, "AR", orders)
    return time.process_time() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="8-nation games per run (a)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of (a); the best counts")
    parser.add_argument("--big-games", type=int, default=10, help="16-nation games timed (b)")
    args = parser.parse_args()
    print(f"python {platform.python_version()}, {platform.machine()}, {ruleset.name} {ruleset.version}, europe map")
    rate, runs = games_per_minute(args.games, args.repeat)
    print(
        f"(a) 8-nation AI games to the 24-turn limit: {rate:.0f} games a minute "
        f"(target >= 100); {args.games} games in " + ", ".join(f"{r:.2f} s" for r in runs)
    )
    times = sixteen_nation_turns(args.big_games)
    median, slowest = statistics.median(times) * 1000, max(times) * 1000
    print(
        f"(b) 16-nation turn, AI orders included: median {median:.1f} ms, "
        f"slowest {slowest:.1f} ms (target <= 50 ms); {len(times)} turns"
    )
    print(f"(c) a 1 MB turn file of BUY ARD 999999 (farms), checked: {farms_file_check():.2f} s CPU (target <= 2 s)")


if __name__ == "__main__":
    main()
