"""`gm turn run` of one 4-seat Clash game, turn after turn: wall time as a GM waits for it (issue 18: 3 s).

    .venv/bin/python bench/bench_turn_run.py [--turns 10] [--against OTHER_CHECKOUT]

Makes a home (`gm init`), a robot game (`gm game new c1 --ruleset clash --seed 7 --robots 4`)
and times `gm turn run c1 --now` (resolve, four report PDFs from two render workers, mails
queued) as a separate process, as the GM runs it, with the `gm` command beside this Python. A
game that ends is followed by a new one. With --against, every turn is run twice, alternately by
this checkout and by another (its gm, games and templates put first on PYTHONPATH), each in a
game of its own, so that the machine's drift falls on both alike. Run it on an idle machine:
the target is wall time. The `.pyc` files are written by a first untimed turn of each.
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

GM = Path(sys.executable).parent / "gm"
GAME_TURNS = 25  # a Clash robot game lasts 30 rounds or fewer; a new one before it ends


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=10, help="timed turns (of each version with --against)")
    parser.add_argument("--against", type=Path, help="another checkout of gm to alternate with")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="gm-bench-turn-run-") as folder:
        versions = {"this": _Version(Path(folder) / "this", None)}
        if args.against is not None:
            versions["against"] = _Version(Path(folder) / "against", _path_of(args.against.resolve(), Path(folder)))
        for version in versions.values():
            version.turn()  # .pyc files written, the fork server's modules read once
        times: dict[str, list[float]] = {name: [] for name in versions}
        for _ in range(args.turns):
            for name, version in versions.items():
                times[name].append(version.turn())
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}")
    for name, walls in times.items():
        print(
            f"{name:8s} gm turn run, 4-seat Clash: median {statistics.median(walls):.2f} s wall, "
            f"{sum(w <= 3.0 for w in walls)} of {len(walls)} within 3 s; " + " ".join(f"{w:.2f}" for w in walls)
        )


class _Version:
    """A home and a game for one version of gm (env: its PYTHONPATH, None for this checkout)."""

    def __init__(self, home: Path, python_path: str | None):
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
