"""The `gm` process's share of a seat's turn, mid-season, by function (issue 32).

    .venv/bin/python bench/bench_gm_seat.py [--turns 10] [RULESET ...]

One robot game of each ruleset named (default all five; Empires 16 seats, Conqueror 8, the
others their demo's seats) plays `--turns` - 1 turns and publishes them with a pool of two render
workers (so the workers are up and this process's caches warm, as in a run-due after its first
game); then the last turn is run and published, and this process's CPU for it is divided by the
seats. The render workers' CPU is not in it: this is the part of run-due that one process does
for every game (issue 32's target: 0.03 CPU-s a seat). Beside it, the CPU of the functions the
report is made of, a seat (they nest: render_report_html includes the map drawings).
"""

from __future__ import annotations

import argparse
import collections
import functools
import os
import platform
import tempfile
import time
from pathlib import Path
from typing import Any

from gm.clock import SystemClock
from gm.home import Home, create_home
from gm.render import turnmap
from gm.render.pool import RenderPool
from gm.rulesets import get_ruleset
from gm.services import games, publish, reports, turns
from gm.store.database import open_database

SIZES = {"empires": 16, "conqueror": 8}
RULESETS = ("empires", "conqueror", "clash", "mcempires", "imperials")
WATCHED = [
    (reports, "report_context"),
    (reports, "_json_bytes"),
    (turnmap, "svg_map"),
    (turnmap, "map_metrics"),
    (turnmap, "svg_overlay"),
    (turnmap, "region_section"),
]


def watch(spent: collections.defaultdict[str, float]) -> None:
    """Count the CPU of the WATCHED functions, and of render_report_html where turn_pages imports it."""
    from gm.render import environment

    for module, name in [*WATCHED, (environment, "render_report_html")]:
        inner = getattr(module, name)

        @functools.wraps(inner)
        def timed(*args: Any, _inner: Any = inner, _name: str = name, **kwargs: Any) -> Any:
            start = time.process_time()
            try:
                return _inner(*args, **kwargs)
            finally:
                spent[_name] += time.process_time() - start

        setattr(module, name, timed)


def one(root: Path, ruleset: str, played: int, spent: collections.defaultdict[str, float]) -> tuple[int, float, float]:
    """(seats, CPU-s of the last turn's run and publish, of its run alone) in this process."""
    home = Home(root / ruleset)
    create_home(home)
    db = open_database(home.database)
    clock = SystemClock()
    games.create_game(db, clock, "g", ruleset, None, 7)
    seats = SIZES.get(ruleset, get_ruleset(ruleset).demo_seats)
    for i in range(seats):
        games.join_game(db, clock, "g", f"p{i}@players.example.org", f"Player {i}")
    for _ in range(played - 1):
        turns.run_turn(db, home, clock, "g")
    with RenderPool(2) as pool:
        publish.publish(db, home, clock, "g", pool=pool)
        spent.clear()
        start = time.process_time()
        turns.run_turn(db, home, clock, "g")
        ran = time.process_time() - start
        publish.publish(db, home, clock, "g", pool=pool)
        whole = time.process_time() - start
    db.conn.close()
    return seats, whole, ran


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=10)
    parser.add_argument("rulesets", nargs="*", default=list(RULESETS))
    args = parser.parse_args()
    spent: collections.defaultdict[str, float] = collections.defaultdict(float)
    watch(spent)
    print(
        f"python {platform.python_version()}, {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}; "
        f"turn {args.turns}; the gm process, CPU ms a seat"
    )
    with tempfile.TemporaryDirectory() as folder:
        for ruleset in args.rulesets:
            seats, whole, ran = one(Path(folder), ruleset, args.turns, spent)
            parts = ", ".join(
                f"{name} {seconds / seats * 1000:.1f}" for name, seconds in sorted(spent.items(), key=lambda kv: -kv[1])
            )
            print(
                f"{ruleset:>10} ({seats} seats): {whole / seats * 1000:.1f} a seat (the turn's run "
                f"{ran / seats * 1000:.1f}); {parts}"
            )


if __name__ == "__main__":
    main()
