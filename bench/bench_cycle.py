"""Benchmark of a PBM house's deadline: N seats mail their turn files, gm run-due resolves every game and mails every report.

    .venv/bin/python bench/bench_cycle.py --seats 100          # a quick run, about 2 minutes
    .venv/bin/python bench/bench_cycle.py                      # 1,000 seats

The house is the issue 18 mix: per 1,000 seats, 40 Empires games of 16 seats, 30 Conqueror of 8
and 30 Clash of 4; a ruleset added later (mcempires, imperials) takes 100 seats of each 1,000 in
games of its demo size when it is installed. Every seat mails one valid turn file (the robot's
orders for the turn). Then, each as its own `gm` process, timed in wall time and in CPU of the
whole process tree (this process is a subreaper, so workers and the fork server are counted):
`gm inbox import` (intake), `gm mail send` (the acknowledgements, into the outbox folder), and
`gm run-due` with every game due (resolve, render, queue and send the reports into the outbox
folder). Beside it, in the same run, bare WeasyPrint on the same report HTML, one game of each
ruleset, as the floor.
"""

from __future__ import annotations

import argparse
import ctypes
import mailbox
import os
import platform
import random
import resource
import subprocess
import sys
import tempfile
import threading
import time
from datetime import timedelta
from email.message import EmailMessage
from pathlib import Path

from gm.clock import SystemClock
from gm.home import Home, create_home
from gm.rulesets import get_ruleset, installed
from gm.services import credits, cycle, games
from gm.store import records
from gm.store.database import open_database

# (ruleset, seats per game, seats of each 1,000): the mix; later rulesets join it below.
MIX = [("empires", 16, 640), ("conqueror", 8, 240), ("clash", 4, 120)]
LATER = ["mcempires", "imperials"]
LATER_SHARE = 100
GM = str(Path(sys.executable).with_name("gm"))


def house_mix(seats: int) -> list[tuple[str, int, int]]:
    """(ruleset, seats per game, games) for a house of about `seats` seats."""
    present = [name for name in LATER if name in installed()]
    scale = (1000 - LATER_SHARE * len(present)) / 1000
    shares = [(name, size, share * scale) for name, size, share in MIX]
    shares += [(name, getattr(get_ruleset(name), "demo_seats", 4), LATER_SHARE) for name in present]
    return [(name, size, max(1, round(seats * share / 1000 / size))) for name, size, share in shares]


def make_house(home: Home, seats: int, seed: int) -> tuple[list[str], Path]:
    """The games, every player seated with credits, and a Maildir of one turn file per seat."""
    create_home(home)
    settings = home.settings_file.read_text().replace('address = ""', 'address = "gm@house.example.org"', 1)
    home.settings_file.write_text(settings)
    db = open_database(home.database)
    clock = SystemClock()
    names, box = [], mailbox.Maildir(home.root.parent / "Maildir", create=True)
    for ruleset_name, size, count in house_mix(seats):
        for number in range(count):
            name = f"{ruleset_name}-{number + 1}"
            games.create_game(db, clock, name, ruleset_name, None, seed + number)
            secrets = {}
            for i in range(size):
                email = f"{name}-{i}@players.example.org"
                code, secret = games.join_game(db, clock, name, email, f"Player {i} of {name}")
                credits.buy(db, clock, email, 20, 2000, name, None)
                secrets[code] = (secret, email)
            cycle.set_schedule(db, clock, name, "weekly on Friday at 18:00 UTC")
            _mail_turn_files(db, box, name, secrets, seed)
            names.append(name)
    db.conn.close()
    return names, Path(box._path)


def _mail_turn_files(db, box: mailbox.Maildir, name: str, secrets: dict, seed: int) -> None:
    game = records.game_by_name(db, name)
    ruleset = get_ruleset(game.ruleset)
    state = games.current_state(db, game)
    for code, (secret, email) in secrets.items():
        orders = ruleset.robot_orders(state, code, random.Random(f"{seed}/{name}/{code}"))
        body = "\n".join(order.text for order in orders)
        message = EmailMessage()
        message["From"] = email
        message["To"] = "gm@house.example.org"
        message["Subject"] = f"{name} orders"
        message["Message-ID"] = f"<{name}-{code}-{game.turn}@players.example.org>"
        message.set_content(f"GAME {name}\nPLAYER {code}\nPASSWORD {secret}\nTURN {game.turn}\n{body}\nEND\n")
        box.add(message)


def make_due(home: Home) -> None:
    """Every running game's deadline a day ago, so gm run-due runs them all."""
    db = open_database(home.database)
    past = SystemClock().now() - timedelta(days=1)
    for game in records.all_games(db):
        if game.status != "over":
            cycle.set_due(db, game, past, past)
    db.conn.commit()
    db.conn.close()


class TreeMemory:
    """Samples the peak resident memory (VmHWM) of every process below `root` a few times a second."""

    def __init__(self, root: int):
        self.root, self.peaks, self.cpu, self.running = root, {}, {}, True
        self.thread = threading.Thread(target=self._sample, daemon=True)
        self.thread.start()

    def stop(self) -> dict[int, int]:
        self.running = False
        self.thread.join()
        return self.peaks

    def _sample(self) -> None:
        while self.running:
            parents = {}
            for entry in os.listdir("/proc"):
                if entry.isdigit():
                    try:
                        stat = Path(f"/proc/{entry}/stat").read_text()
                        parents[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
                    except (OSError, IndexError, ValueError):
                        continue
            for pid in parents:
                ancestor = pid
                while ancestor in parents and ancestor != self.root:
                    ancestor = parents[ancestor]
                if ancestor == self.root:
                    self._peak(pid)
            time.sleep(0.25)

    def _peak(self, pid: int) -> None:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            self.cpu[pid] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    self.peaks[pid] = max(self.peaks.get(pid, 0), int(line.split()[1]))
        except OSError:
            pass


def timed(*command: str) -> dict:
    """Run a gm command; its wall time, the CPU of its whole process tree, and peak memory."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    process = subprocess.Popen([GM, *command], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    memory = TreeMemory(process.pid)
    output, _ = process.communicate()
    wall = time.perf_counter() - start
    _reap_orphans()
    peaks = memory.stop()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if process.returncode != 0:
        raise SystemExit(f"gm {' '.join(command)} failed ({process.returncode}):\n{output[-3000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    others = [kb for pid, kb in peaks.items() if pid != process.pid]
    return {
        "wall": wall,
        "cpu": cpu,
        "main_cpu": memory.cpu.get(process.pid, 0.0),
        "main_mb": peaks.get(process.pid, 0) / 1024,
        "others_mb": max(others, default=0) / 1024,
        "processes": len(peaks),
        "output": output,
    }


def _reap_orphans() -> None:
    """Wait for what the command left running (a fork server outlives its parent by a moment),
    so its CPU is counted: as a subreaper, this process inherits the orphans."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            time.sleep(0.05)


def floor(home: Home, names: list[str]) -> dict[str, float]:
    """CPU seconds per report of bare WeasyPrint on gm's report HTML: one game of each ruleset."""
    import weasyprint

    from gm.render import base_url
    from gm.services.reports import turn_pages

    db = open_database(home.database)
    per_report = {}
    for ruleset_name in dict.fromkeys(name.rsplit("-", 1)[0] for name in names):
        name = f"{ruleset_name}-1"
        game = records.game_by_name(db, name)
        pages = turn_pages(db, home, name, [game.turn - 1])
        seat_jobs = pages.jobs[: len(pages.rows)]
        start = time.process_time()
        for job in seat_jobs:
            weasyprint.HTML(string=job.html, base_url=base_url()).write_pdf()
        per_report[ruleset_name] = (time.process_time() - start) / len(seat_jobs)
    db.conn.close()
    return per_report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", type=int, default=1000, help="seats in the house (default 1000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", type=Path, help="build the house in this folder and keep it")
    args = parser.parse_args()
    ctypes.CDLL(None).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER: orphans' CPU counts too
    with tempfile.TemporaryDirectory(prefix="gm-bench-cycle-") as folder:
        root = args.keep or Path(folder)
        home = Home(root / "house")
        start = time.perf_counter()
        names, maildir = make_house(home, args.seats, args.seed)
        mix = house_mix(args.seats)
        seats = sum(size * count for _, size, count in mix)
        print(
            f"python {platform.python_version()}, {os.cpu_count()} CPUs, load average "
            f"{os.getloadavg()[0]:.1f}; {seats} seats in {len(names)} games: "
            + ", ".join(f"{count} {name} of {size}" for name, size, count in mix)
            + f" (house built in {time.perf_counter() - start:.0f} s)"
        )
        steps = [
            ("intake", ["inbox", "import", str(maildir)]),
            ("acknowledgements", ["mail", "send"]),
            ("run-due", ["run-due"]),
        ]
        results = {}
        for label, command in steps:
            if label == "run-due":
                make_due(home)
            results[label] = result = timed(*command, "--home", str(home.root))
            print(
                f"{label:>16}: wall {result['wall']:7.1f} s, CPU {result['cpu']:7.1f} s "
                f"({result['cpu'] / seats:.3f} CPU-s per seat; the gm process itself about "
                f"{result['main_cpu']:.1f} s); peak RSS gm {result['main_mb']:.0f} MB, "
                f"largest other process {result['others_mb']:.0f} MB ({result['processes'] - 1} others)"
            )
        reports = len(list((home.reports).rglob("*.pdf")))
        mails = len(list(home.outbox.rglob("*.eml")))
        print(
            f"{reports} report PDFs written, {mails} mails in the outbox folder; load average {os.getloadavg()[0]:.1f}"
        )
        bare = floor(home, names)
        weighted = sum(bare[name] * size * count for name, size, count in mix) / seats
        print(
            "bare WeasyPrint on the same report HTML, CPU-s per report: "
            + ", ".join(f"{name} {seconds:.3f}" for name, seconds in bare.items())
            + f"; {weighted:.3f} per seat in this mix, against run-due's "
            f"{results['run-due']['cpu'] / seats:.3f}"
        )


if __name__ == "__main__":
    main()
