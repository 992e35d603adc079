"""Benchmark of one seat's report in every ruleset: CPU of gm's PDF step against bare WeasyPrint on the same HTML.

    .venv/bin/python bench/bench_report_cpu.py                 # one game per ruleset, 3 turns, 4 rounds
    .venv/bin/python bench/bench_report_cpu.py --rounds 8 --reports 4

A throw-away home gets one game of each installed ruleset at the size bench_cycle.py plays it
(Empires 16 seats, Conqueror 8, Clash 4, the others their demo size), robots play `--turns`
turns (not rendered), and the report HTML of the last turn is made as gm run-due makes it. Then,
in one process and alternating report by report so that the load of a shared machine hits both
alike, the CPU time (time.process_time) of:

- **gm**: what a render worker does with a job once its map pictures are drawn
  (`gm.render.worker.Renderer.write`: the shared picture cache, the style sheets kept per
  process, the PDF written to a file);
- **bare**: `weasyprint.HTML(string=html).write_pdf()` on the same HTML, the floor
  bench_cycle.py also measures (bench_cycle.floor_html, bare_pdf).

Both get the HTML with its `gm-picture:` references replaced by the pictures a worker draws
(gm.render.worker.drawn, the same PNG bytes the report embeds), drawn once before the clock
starts: both PDFs have the maps, and neither side's time counts drawing them.

Each side's garbage is collected on its own clock (no gc.collect() between them), as in a worker
that renders report after report.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import tempfile
import time
from pathlib import Path

import weasyprint

from gm.clock import SystemClock
from gm.home import Home, create_home
from gm.render.worker import Renderer, drawn
from gm.rulesets import get_ruleset, installed
from gm.services import games, reports, turns
from gm.store import records
from gm.store.database import open_database

SIZES = {"empires": 16, "conqueror": 8, "clash": 4}


def report_jobs(root: Path, played: int) -> dict[str, tuple[list, tuple[str, ...]]]:
    """ruleset -> (the seats' RenderJobs of the last turn, pictures drawn; the asset folders), one game each."""
    home = Home(root / "home")
    create_home(home)
    db = open_database(home.database)
    clock = SystemClock()
    found = {}
    for name in sorted(installed()):
        game = f"{name}-1"
        games.create_game(db, clock, game, name, None, 7)
        for i in range(SIZES.get(name, getattr(get_ruleset(name), "demo_seats", 4))):
            games.join_game(db, clock, game, f"{game}-{i}@players.example.org", f"Player {i} of {game}")
        for _ in range(played):
            if records.game_by_name(db, game).status != "over":
                turns.run_turn(db, home, clock, game)
        pages = reports.turn_pages(db, home, game)
        found[name] = ([drawn(job) for job in pages.jobs[: len(pages.rows)]], tuple(str(d) for d in pages.asset_dirs))
    db.conn.close()
    return found


def alternate(jobs: list, dirs: tuple[str, ...], rounds: int, out: Path) -> tuple[list[float], list[float]]:
    """CPU seconds per report of gm's worker and of bare WeasyPrint, alternating, both orders."""
    renderer, gm_times, bare_times = Renderer(), [], []

    def gm(job):
        start = time.process_time()
        renderer.write(job.__class__(job.html, job.base_url, job.created, job.identifier, out, job.images), dirs)
        gm_times.append(time.process_time() - start)

    def bare(job):
        start = time.process_time()
        weasyprint.HTML(string=job.html, base_url=job.base_url).write_pdf()
        bare_times.append(time.process_time() - start)

    gm(jobs[0]), bare(jobs[0])  # warm both: fonts, the picture, the sheets
    gm_times.clear(), bare_times.clear()
    for round_ in range(rounds):
        for job in jobs:
            first, second = (gm, bare) if round_ % 2 == 0 else (bare, gm)
            first(job), second(job)
    return gm_times, bare_times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=3, help="turns the robots play first (default 3)")
    parser.add_argument("--rounds", type=int, default=4, help="times each report is rendered by each side")
    parser.add_argument("--reports", type=int, default=3, help="seats' reports per ruleset (default 3)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="gm-bench-report-") as folder:
        found = report_jobs(Path(folder), args.turns)
        print(
            f"python {platform.python_version()}, weasyprint {weasyprint.__version__}, {os.cpu_count()} CPUs, "
            f"load average {os.getloadavg()[0]:.1f}; turn {args.turns} of one game per ruleset, "
            f"{args.reports} reports each, {args.rounds} rounds; CPU per report, median"
        )
        for name, (jobs, dirs) in found.items():
            gm_times, bare_times = alternate(jobs[: args.reports], dirs, args.rounds, Path(folder) / "report.pdf")
            gm_ms, bare_ms = statistics.median(gm_times) * 1000, statistics.median(bare_times) * 1000
            print(
                f"{name:>10}: gm {gm_ms:5.0f} ms, bare WeasyPrint {bare_ms:5.0f} ms, gm/bare {gm_ms / bare_ms:.2f} "
                f"(HTML {len(jobs[0].html) // 1000} KB)"
            )
        print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
