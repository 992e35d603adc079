"""`gm turn run` of one 4-seat Clash game, turn after turn: wall time as a GM waits for it (issue 18: 3 s).

    .venv/bin/python bench/bench_turn_run.py [--turns 10] [--against OTHER_CHECKOUT]

Makes a home (`gm init`), a robot game (`gm game new c1 --ruleset clash --seed 7 --robots 4`)
and times `gm turn run c1 --now` (resolve, four report PDFs from two render workers, mails
queued) as a separate process, as the GM runs it, with the `gm` command beside this Python. A
game that ends is followed by a new one. With --against, every turn is run twice, alternately by
this checkout and by another (its gm, games and templates put first on PYTHONPATH), each in a
game of its own, so that the machine's drift falls on both alike. The `.pyc` files are written
by a first untimed turn of each. Issue 18's 3 s is a wall time: take it on an idle machine.

The floor (issue 32), in the same run, alternating with this checkout's turns: after each timed
`gm turn run`, the same turn's four seat reports' HTML as sent (their maps drawn as a render
worker draws them, untimed, here: bench_cycle.py's floor_html) is written to files, and a fresh
Python process (this one's interpreter) imports WeasyPrint, renders the four one after the
other with bare WeasyPrint (bench_cycle.py's bare_pdf: default fetcher, untagged), writes the
PDFs and exits, timed as a subprocess wall as the gm one is. The ratio gm / floor per turn, and
its median, is the issue's measure (target 1.2 or less, on any load): both see the same load.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from gm.home import Home
from gm.render.worker import drawn
from gm.services.reports import turn_pages
from gm.store.database import open_database

GM = Path(sys.executable).parent / "gm"
GAME_TURNS = 25  # a Clash robot game lasts 30 rounds or fewer; a new one before it ends
# The floor's process: import WeasyPrint, render each HTML file given (bare, one after the other),
# write its PDF beside it, exit. argv: base URL, then the HTML files.
FLOOR = """
import sys
from pathlib import Path
import weasyprint
for name in sys.argv[2:]:
    html = Path(name).read_text(encoding="utf-8")
    Path(name).with_suffix(".pdf").write_bytes(weasyprint.HTML(string=html, base_url=sys.argv[1]).write_pdf())
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=10, help="timed turns (of each version with --against)")
    parser.add_argument("--against", type=Path, help="another checkout of gm to alternate with")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="gm-bench-turn-run-") as folder:
        versions = {"this": _Version(Path(folder) / "this", None)}
        if args.against is not None:
            versions["against"] = _Version(Path(folder) / "against", _path_of(args.against.resolve(), Path(folder)))
        this = versions["this"]
        for version in versions.values():
            version.turn()  # .pyc files written, the fork server's modules read once
        this.floor()  # WeasyPrint's .pyc files read once, as gm's were
        loads = [os.getloadavg()[0]]
        times: dict[str, list[float]] = {name: [] for name in versions}
        floors: list[float] = []
        for _ in range(args.turns):
            for name, version in versions.items():
                times[name].append(version.turn())
                if version is this:
                    floors.append(this.floor())  # the turn just run, right after it
            loads.append(os.getloadavg()[0])
    print(
        f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average {min(loads):.1f}-{max(loads):.1f} "
        "(1-minute, taken turn by turn)"
    )
    for name, walls in times.items():
        print(
            f"{name:8s} gm turn run, 4-seat Clash: median {statistics.median(walls):.2f} s wall, "
            f"{sum(w <= 3.0 for w in walls)} of {len(walls)} within 3 s; " + " ".join(f"{w:.2f}" for w in walls)
        )
    print(
        f"{'floor':8s} one bare process (import WeasyPrint, the same 4 reports as sent, maps drawn): "
        f"median {statistics.median(floors):.2f} s wall; " + " ".join(f"{w:.2f}" for w in floors)
    )
    ratios = [gm / floor for gm, floor in zip(times["this"], floors)]
    print(
        f"gm turn run / floor, turn by turn: {' '.join(f'{r:.2f}' for r in ratios)}; "
        f"median {statistics.median(ratios):.2f} (target <= 1.2)"
    )


class _Version:
    """A home and a game for one version of gm (env: its PYTHONPATH, None for this checkout)."""

    def __init__(self, home: Path, python_path: str | None):
        self.home = Home(home)
        self.env = {**os.environ, "GM_HOME": str(home)}
        self.env.pop("PYTHONDONTWRITEBYTECODE", None)
        if python_path is not None:
            self.env["PYTHONPATH"] = python_path
        self.games = 0
        self.played = GAME_TURNS
        self._gm("init")

    def turn(self) -> float:
        if self.played >= GAME_TURNS:
            self.games += 1
            self._gm("game", "new", self.game, "--ruleset", "clash", "--seed", "7", "--robots", "4")
            self.played = 0
        started = time.perf_counter()
        self._gm("turn", "run", self.game, "--now")
        self.played += 1
        return time.perf_counter() - started

    def floor(self) -> float:
        """Wall seconds of a fresh process rendering the last turn's four seat reports as sent."""
        db = open_database(self.home.database)
        pages = turn_pages(db, self.home, self.game)  # the last resolved turn: the one just run
        db.conn.close()
        seat_jobs = [drawn(job) for job in pages.jobs[: len(pages.rows)]]
        folder = self.home.root / "floor"
        folder.mkdir(exist_ok=True)
        files = []
        for number, job in enumerate(seat_jobs):
            files.append(folder / f"{number}.html")
            files[-1].write_text(job.html, encoding="utf-8")
        base_urls = {job.base_url for job in seat_jobs}
        assert len(base_urls) == 1, base_urls
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", FLOOR, base_urls.pop(), *map(str, files)], env=self.env, check=True)
        return time.perf_counter() - started

    @property
    def game(self) -> str:
        return f"c{self.games}"

    def _gm(self, *argv: str) -> None:
        subprocess.run([str(GM), *argv], env=self.env, check=True, stdout=subprocess.DEVNULL)


def _path_of(checkout: Path, folder: Path) -> str:
    """A PYTHONPATH entry that imports the other checkout's gm, games and templates by the names an
    install gives them (pyproject.toml's package-dir)."""
    links = folder / "against-path"
    links.mkdir()
    for name, source in (("gm", "gm"), ("gm_games", "games"), ("gm_templates", "templates")):
        (links / name).symlink_to(checkout / source)
    return str(links)


if __name__ == "__main__":
    main()
