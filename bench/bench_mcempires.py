"""Minecraft EMPIRES speed: a 16-empire round on a 160 x 160 world, whole 4-robot games a minute on
a 64 x 64 world, and one seat's report (map included) with the render workers' peak memory.

    .venv/bin/python bench/bench_mcempires.py [--rounds 40] [--games 100] [--reports 16]

(a) plays a 16-robot game on the generated 160 x 160 world ("world" scenario) and times every
    resolve (robot orders are made beforehand and not timed); median and slowest. Target: a
    median of at most 100 ms.
(b) plays --games whole 4-robot games on a generated 64 x 64 world, new_game to the end (robot
    orders and resolve), each with its own seed, in this one process. Target: at least 100 games
    a minute on one core.
(c) renders one seat's report of round 20 (or the last of --rounds) of the 160 x 160 game, its
    context made as the report tests make theirs (tests/render/ruleset_report.py): the template
    (drawing both maps, the cache emptied first) and the PDF, in this process; then --reports
    PDFs of that round through render_pdfs with 2 workers and their peak RSS. Targets: at most
    1.0 s a report, at most 150 MB a worker.
Times are CPU time of this process (time.process_time), since the machine is shared; wall time
is shown beside it. The test suite runs it once, small, only to see that it runs to its end
(tests/games/mcempires/test_mcempires_bench.py); its numbers are read here, never asserted.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gm_games.mcempires import ruleset  # noqa: E402

from gm.core.model import Event, SeatInfo  # noqa: E402
from gm.core.ruleset import TurnSeeds  # noqa: E402
from gm.testing.reports import context_of  # noqa: E402

CREATED = "2026-11-21T19:00:00Z"  # the report tests' date (tests/render/ruleset_report.py)


def scenario(size: int) -> dict:
    loaded = ruleset.load_scenario(ruleset.scenario_text("world"), "world")
    return {**loaded, "world": {**loaded["world"], "size": size}}


def start(size: int, seats: int, seed: int) -> tuple[dict, list[str]]:
    loaded = scenario(size)
    codes = ruleset.seat_codes(loaded)[:seats]
    return ruleset.new_game(loaded, [SeatInfo(c, f"Player {c}") for c in codes], TurnSeeds(seed, 0)), codes


def robot_round(state: dict, codes: list[str], seed: int, turn: int) -> dict:
    seeds = TurnSeeds(seed, turn)
    return {c: ruleset.robot_orders(state, c, seeds.rng(f"robot:{c}")) for c in codes}


Played = tuple[dict, dict, tuple[Event, ...], int]  # (state before, state after, events, round)


def big_rounds(rounds: int, seed: int = 7) -> tuple[list[float], list[float], Played]:
    """(CPU seconds of each resolve, wall seconds of each, round 20 (or the last) as played)."""
    state, codes = start(160, 16, seed)
    cpu, wall = [], []
    kept: Played = (state, state, (), 0)
    for turn in range(1, rounds + 1):
        orders = robot_round(state, codes, seed, turn)
        began, clock = time.process_time(), time.perf_counter()
        result = ruleset.resolve(state, orders, TurnSeeds(seed, turn))
        cpu.append(time.process_time() - began)
        wall.append(time.perf_counter() - clock)
        if turn <= 20:
            kept = (state, result.state, result.events, turn)
        state = result.state
        if ruleset.is_over(state):
            break
    return cpu, wall, kept


def whole_games(games: int) -> tuple[float, float, list[int]]:
    """(CPU seconds, wall seconds, rounds of each game) for `games` 4-robot games on 64 x 64."""
    lengths = []
    began, clock = time.process_time(), time.perf_counter()
    for seed in range(games):
        state, codes = start(64, 4, seed)
        turn = 0
        while ruleset.is_over(state) is None and turn < 500:
            turn += 1
            state = ruleset.resolve(state, robot_round(state, codes, seed, turn), TurnSeeds(seed, turn)).state
        lengths.append(turn)
    return time.process_time() - began, time.perf_counter() - clock, lengths


def report(played: Played, reports: int) -> tuple[float, float, float, list[int]]:
    """(template CPU s, PDF CPU s, PDF wall s, peak RSS KiB of each worker)."""
    from gm.render import RenderJob, asset_dirs, base_url, gridmap, html_to_pdf, make_environment
    from gm.render.environment import package_templates_dir, render_report_html
    from gm.render.fetcher import AssetFetcher
    from gm.render.pool import render_pdfs

    env = make_environment(None, [package_templates_dir(ruleset.templates_package)])
    fetcher = AssetFetcher(asset_dirs(env))
    before, state, events, number = played
    seats = state["seating"]

    def context(seat: str) -> dict:
        # Made as the report tests make theirs (score table, events and all), so the bench keeps
        # up with what report.html reads.
        return context_of(ruleset, before, state, events, seat, number, list(seats))

    html_to_pdf(
        render_report_html(env, context(seats[1])),
        base_url=base_url(),
        created=CREATED,
        identifier="warm",
        fetcher=fetcher,
    )  # WeasyPrint's first document loads its fonts
    gridmap._cache.clear()
    began = time.process_time()
    html = render_report_html(env, context(seats[0]))
    template = time.process_time() - began
    began, clock = time.process_time(), time.perf_counter()
    html_to_pdf(html, base_url=base_url(), created=CREATED, identifier="bench", fetcher=fetcher)
    pdf, wall = time.process_time() - began, time.perf_counter() - clock
    with tempfile.TemporaryDirectory() as folder:
        jobs = [
            RenderJob(
                render_report_html(env, context(seats[n % len(seats)])),
                base_url(),
                CREATED,
                f"bench/{n}",
                Path(folder) / f"{n}.pdf",
            )
            for n in range(reports)
        ]
        results = render_pdfs(jobs, 2, asset_dirs=asset_dirs(env))
    peaks: dict[int, int] = {}
    for result in results:
        peaks[result.pid] = max(peaks.get(result.pid, 0), result.peak_rss_kb)
    return template, pdf, wall, sorted(peaks.values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=40, help="rounds of the 16-empire game (a)")
    parser.add_argument("--games", type=int, default=100, help="4-empire 64 x 64 games (b)")
    parser.add_argument("--reports", type=int, default=16, help="reports through the workers (c)")
    args = parser.parse_args()
    print(f"python {platform.python_version()}, {platform.machine()}, {ruleset.name} {ruleset.version}")
    cpu, wall, kept = big_rounds(args.rounds)
    print(
        f"(a) 16 empires, 160 x 160, resolve of a round: median {statistics.median(cpu) * 1000:.0f} ms "
        f"CPU (target <= 100 ms), slowest {max(cpu) * 1000:.0f} ms; wall median "
        f"{statistics.median(wall) * 1000:.0f} ms; {len(cpu)} rounds"
    )
    spent, clock, lengths = whole_games(args.games)
    print(
        f"(b) 4 robots, 64 x 64, whole games: {args.games * 60 / spent:.0f} games a minute of CPU "
        f"(target >= 100); {args.games} games in {spent:.1f} s CPU, {clock:.1f} s wall; rounds "
        f"median {statistics.median(lengths):.0f}, longest {max(lengths)}"
    )
    template, pdf, pdf_wall, peaks = report(kept, args.reports)
    print(
        f"(c) one seat's report of round {kept[3]}, 160 x 160: template with both maps {template * 1000:.0f} ms "
        f"CPU, PDF {pdf * 1000:.0f} ms CPU ({pdf_wall * 1000:.0f} ms wall), together "
        f"{(template + pdf) * 1000:.0f} ms (target <= 1000 ms); peak RSS of the "
        f"{len(peaks)} workers after {args.reports} reports: "
        + ", ".join(f"{p // 1024} MB" for p in peaks)
        + " (target <= 150 MB)"
    )


if __name__ == "__main__":
    main()
