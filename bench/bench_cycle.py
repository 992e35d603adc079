"""Benchmark of a PBM house's deadline: N seats mail their turn files, gm run-due resolves every game and mails every report.

    .venv/bin/python bench/bench_cycle.py --seats 100          # a quick run, about 2 minutes
    .venv/bin/python bench/bench_cycle.py                      # 1,000 seats
    .venv/bin/python bench/bench_cycle.py --seats 50 --turn 10 --by-ruleset   # mid-season, each ruleset apart

The house is the issue 18 mix: per 1,000 seats, 40 Empires games of 16 seats (`--empires-seats
32`: 20 of 32, the Europe map's most), 30 Conqueror of 8 and 30 Clash of 4; a ruleset added later (mcempires, imperials) takes 100 seats of each 1,000 in
games of its demo size when it is installed. Every seat mails one valid turn file (the robot's
orders for the turn). Then, each as its own `gm` process, timed in wall time and in CPU of the
whole process tree (this process is a subreaper, so workers and the fork server are counted):
`gm inbox import` (intake), `gm mail send` (the acknowledgements, into the outbox folder), and
`gm run-due` with every game due (resolve, render, queue and send the reports into the outbox
folder). Beside it, in the same run, the floor: bare WeasyPrint on the very HTML each seat's PDF
came from, its map pictures drawn as a render worker draws them (the same PNG bytes the report
embeds; drawing them is not timed, laying out and writing the PDF is). A CPU second is not a
fixed amount of work on a shared machine, so the pace is probed too: bare WeasyPrint on the same
few reports before the intake, after the run-due and after the floor; the bench prints how far it
moved and the floor at the run-due's pace (`pace`).

With `--turn N` every game is mid-season: robots play turns 1 to N-1 first, as players by mail
would (turn files with press, some refused for a bad order and sent again or not, some never
sent), those turns marked published without their reports, and the mailed turn files of turn N
are made the same way. `--by-ruleset` copies the house before run-due and runs it once more per
ruleset on the copy, only that ruleset's games due, for each ruleset's CPU a seat.

A mid-season house of 1,000 seats takes long to build (about 20 minutes on a quiet machine):
`--keep FOLDER --build-only` builds it and stops, and `--built FOLDER` runs on a copy of it, as
often as needed (the folder is left as it was built):

    .venv/bin/python bench/bench_cycle.py --turn 10 --keep /tmp/house-1000 --build-only
    .venv/bin/python bench/bench_cycle.py --built /tmp/house-1000 --floor-games 2
"""

from __future__ import annotations

import argparse
import ctypes
import json
import mailbox
import os
import platform
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from datetime import timedelta
from email.message import EmailMessage
from pathlib import Path

import weasyprint

from gm.clock import SystemClock
from gm.home import Home, create_home
from gm.render import stages as render_stages
from gm.render.worker import RenderJob, drawn
from gm.rulesets import get_ruleset, installed
from gm.services import credits, cycle, games, turnfiles, turns
from gm.services.reports import turn_pages
from gm.store import records
from gm.store.database import open_database

# (ruleset, seats per game, seats of each 1,000): the mix; later rulesets join it below.
MIX = [("empires", 16, 640), ("conqueror", 8, 240), ("clash", 4, 120)]
LATER = ["mcempires", "imperials"]
LATER_SHARE = 100
GM = str(Path(sys.executable).with_name("gm"))


def house_mix(seats: int, empires_seats: int = 16) -> list[tuple[str, int, int]]:
    """(ruleset, seats per game, games) for a house of about `seats` seats, its Empires games of
    `empires_seats` (their share of the house the same)."""
    present = [name for name in LATER if name in installed()]
    scale = (1000 - LATER_SHARE * len(present)) / 1000
    sized = [(name, empires_seats if name == "empires" else size, share) for name, size, share in MIX]
    shares = [(name, size, share * scale) for name, size, share in sized]
    shares += [(name, getattr(get_ruleset(name), "demo_seats", 4), LATER_SHARE) for name in present]
    return [(name, size, max(1, round(seats * share / 1000 / size))) for name, size, share in shares]


# How the seats of a mid-season house answer a turn, per 100 (a real house's mail, roughly): no
# turn file at all; a file refused for one bad order and left so (the game's NMR policy plays the
# seat); refused, then sent again put right; the rest valid. A file carries press PRESS_IN times in 100.
MISSED, FAILED, FIXED, PRESS_IN = 8, 7, 7, 35
BAD_ORDER = "ATTACK THE MOON WITH 99 ARMIES"
PRESS_LINES = [
    "Shall we keep our border quiet this season?",
    "I will not move against you if you leave the north to me.",
    "Your last move cost me dearly. Explain it, or expect an answer.",
    "Agreed. Let us see how the others take it.",
    "Who is behind the attack on the coast? Not me.",
]


def make_house(home: Home, seats: int, seed: int, turn: int = 1, empires_seats: int = 16) -> tuple[list[str], Path]:
    """The games, every player seated with credits, robots' turns played by mail to turn `turn`,
    and a Maildir of the turn files of that turn."""
    create_home(home)
    settings = home.settings_file.read_text().replace('address = ""', 'address = "gm@house.example.org"', 1)
    home.settings_file.write_text(settings)
    db = open_database(home.database)
    clock = SystemClock()
    names, box = [], mailbox.Maildir(home.root.parent / "Maildir", create=True)
    for ruleset_name, size, count in house_mix(seats, empires_seats):
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
            play_to(db, home, name, secrets, seed, turn)
            _mail_turn_files(db, box, name, secrets, seed, turn > 1)
            names.append(name)
    db.conn.close()
    return names, Path(box._path)


def play_to(db, home: Home, name: str, secrets: dict, seed: int, turn: int) -> None:
    """Turns 1 to `turn` - 1 of the game, each seat's turn files submitted as intake submits them,
    then the turn run; the turns marked published without their reports (this bench times turn
    `turn`'s cycle only)."""
    clock = SystemClock()
    while (game := records.game_by_name(db, name)).turn < turn and game.status != "over":
        for code, (secret, email) in secrets.items():
            for number, text in enumerate(turn_files(db, name, code, secret, seed, True)):
                source = f"bench:{name}:{code}:{game.turn}:{number}"
                turnfiles.submit(db, home, clock, text.encode(), "mail", source, sender=email)
        turns.run_turn(db, home, clock, name)
        game = records.game_by_name(db, name)
        with db.conn:
            records.mark_published(db, game.id, records.unpublished_turns(db, game.id), clock.now().isoformat())


def turn_files(db, name: str, code: str, secret: str, seed: int, mid_season: bool) -> list[str]:
    """What one seat sends for the turn being collected: one valid file of the robot's orders on
    turn 1 (or without `mid_season`); later, as MISSED, FAILED, FIXED and PRESS_IN say."""
    game = records.game_by_name(db, name)
    state = games.current_state(db, game)
    rng = random.Random(f"{seed}/{name}/{code}/{game.turn}")
    orders = [order.text for order in get_ruleset(game.ruleset).robot_orders(state, code, rng)]
    head = f"GAME {name}\nPLAYER {code}\nPASSWORD {secret}\nTURN {game.turn}\n"
    if not mid_season:
        return [head + "".join(f"{line}\n" for line in orders) + "END\n"]
    roll = rng.randrange(100)
    if roll < MISSED:
        return []
    press = []
    if rng.randrange(100) < PRESS_IN:
        others = [seat.code for seat in records.seats_of(db, game.id) if seat.code != code]
        to = "ALL" if rng.random() < 0.3 else rng.choice(others)
        press = [f"PRESS TO {to}", *rng.sample(PRESS_LINES, rng.randint(1, 3)), "ENDPRESS"]
    good = head + "".join(f"{line}\n" for line in [*press, *orders]) + "END\n"
    bad = head + "".join(f"{line}\n" for line in [*orders, BAD_ORDER]) + "END\n"
    if roll < MISSED + FAILED:
        return [bad]
    if roll < MISSED + FAILED + FIXED:
        return [bad, good]
    return [good]


def _mail_turn_files(db, box: mailbox.Maildir, name: str, secrets: dict, seed: int, mid_season: bool) -> None:
    game = records.game_by_name(db, name)
    if game.status == "over":
        return
    for code, (secret, email) in secrets.items():
        for number, text in enumerate(turn_files(db, name, code, secret, seed, mid_season)):
            message = EmailMessage()
            message["From"] = email
            message["To"] = "gm@house.example.org"
            message["Subject"] = f"{name} orders"
            message["Message-ID"] = f"<{name}-{code}-{game.turn}-{number}@players.example.org>"
            message.set_content(text)
            box.add(message)


def make_due(home: Home, ruleset: str | None = None) -> None:
    """Every running game's deadline (of `ruleset` only, if given) a day ago, so gm run-due runs them."""
    db = open_database(home.database)
    past = SystemClock().now() - timedelta(days=1)
    for game in records.all_games(db):
        if game.status != "over" and ruleset in (None, game.ruleset):
            cycle.set_due(db, game, past, past)
    db.conn.commit()
    db.conn.close()


class TreeMemory:
    """Samples the peak resident memory (VmHWM) of every process below `root` a few times a second,
    and the parent of each (`forked`: those whose parent is not `root` itself, the render workers
    the fork server forks)."""

    def __init__(self, root: int):
        self.root, self.peaks, self.cpu, self.running = root, {}, {}, True
        self.forked: set[int] = set()
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
                    if pid != self.root and parents[pid] != self.root:
                        self.forked.add(pid)
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
    """Run a gm command; its wall time, the CPU of its whole process tree, peak memory, and
    what its render pools counted of their workers' CPU, stage by stage (gm.render.stages)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with tempfile.TemporaryDirectory(prefix="gm-bench-stages-") as folder:
        sums = Path(folder) / "stages.jsonl"
        start = time.perf_counter()
        process = subprocess.Popen(
            [GM, *command],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env={**os.environ, render_stages.ENV: str(sums)},
        )
        memory = TreeMemory(process.pid)
        output, _ = process.communicate()
        wall = time.perf_counter() - start
        _reap_orphans()
        peaks = memory.stop()
        stages, jobs, started = read_stages(sums)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if process.returncode != 0:
        raise SystemExit(f"gm {' '.join(command)} failed ({process.returncode}):\n{output[-3000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    others = [kb for pid, kb in peaks.items() if pid != process.pid]
    workers = [kb for pid, kb in peaks.items() if pid in memory.forked]
    return {
        "wall": wall,
        "cpu": cpu,
        "main_cpu": memory.cpu.get(process.pid, 0.0),
        "main_mb": peaks.get(process.pid, 0) / 1024,
        "others_mb": max(others, default=0) / 1024,
        "workers_mb": max(workers, default=0) / 1024,
        "workers": len(workers),
        "processes": len(peaks),
        "output": output,
        "stages": stages,
        "jobs": jobs,
        "workers_started": started,
    }


def read_stages(sums: Path) -> tuple[dict[str, float], int, int]:
    """The stages' CPU seconds that a command's render pools wrote (GM_RENDER_STAGES), summed
    over its pools, with the jobs they count and the workers started; nothing if none wrote."""
    seconds: dict[str, float] = {}
    jobs = workers = 0
    lines = sums.read_text().splitlines() if sums.exists() else []
    for line in lines:
        pool = json.loads(line)
        render_stages.add_to(seconds, pool["seconds"])
        jobs, workers = jobs + pool["jobs"], workers + pool["workers"]
    return seconds, jobs, workers


# How the stages read against the issue's question: the seats' own pages (WeasyPrint's layout and
# drawing of what is the seat's alone: the wall), then gm's parts (gm.render.stages).
STAGE_GROUPS = [
    ("own pages (the wall)", ("layout", "drawing")),
    ("turn's pages", ("turn_pages",)),
    ("overlay", ("overlay",)),
    ("pictures", ("pictures",)),
    ("kit", ("kit",)),
    ("worker's job handling", ("read", "store", "rest")),
    ("worker start, answer, cleanup", ("start", "between")),
]


def accounts(result: dict) -> dict[str, float]:
    """The run's CPU seconds by where they went: each stage the workers counted, the `gm` process,
    and what the tree's CPU holds that neither counts (`not in a stage`: the fork server with its
    imports, each worker's exit, the last job's cleanup, fork and page faults before a worker's
    clock starts)."""
    spent = {name: result["stages"].get(name, 0.0) for name in render_stages.STAGES}
    spent["gm process"] = result["main_cpu"]
    spent["not in a stage"] = result["cpu"] - result["main_cpu"] - sum(result["stages"].values())
    return spent


def stage_lines(result: dict, seats: int, floor_seat: float) -> list[str]:
    """The run's CPU by stage, each in CPU-s a seat and as a share of the floor a seat."""
    spent = accounts(result)

    def part(seconds: float) -> str:
        return f"{seconds / seats:.3f} ({seconds / seats / floor_seat:.3f})"

    lines = [
        f"{'by stage':>16}: CPU-s a seat (of the floor) over {result['jobs']} reports rendered by "
        f"{result['workers_started']} workers: whole run-due {part(result['cpu'])}"
    ]
    for label, names in STAGE_GROUPS:
        detail = ", ".join(f"{name} {part(spent[name])}" for name in names) if len(names) > 1 else ""
        total = part(sum(spent[name] for name in names))
        lines.append(f"{'':>18}{label}: {total}" + (f": {detail}" if detail else ""))
    lines.append(f"{'':>18}the gm process: {part(spent['gm process'])}")
    lines.append(f"{'':>18}not in a stage (fork server, workers' exits): {part(spent['not in a stage'])}")
    return lines


def subreaper() -> None:
    """Make this process the reaper of its orphans (PR_SET_CHILD_SUBREAPER), so that timed counts
    their CPU too: the fork server outlives the `gm` that started it, and with it its workers."""
    ctypes.CDLL(None).prctl(36, 1, 0, 0, 0)


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


def floor_html(job: RenderJob) -> str:
    """The HTML a seat's PDF is made from, its map pictures drawn as a render worker draws them:
    each `gm-picture:` reference replaced by the data: URL of the very PNG the report embeds."""
    return drawn(job).html


def bare_pdf(html: str, base_url: str) -> bytes:
    """The floor: bare WeasyPrint, its default fetcher and a new font configuration each time."""
    return weasyprint.HTML(string=html, base_url=base_url).write_pdf()


def floor(home: Home, names: list[str], games_each: int | None = None) -> dict[str, tuple[float, int]]:
    """ruleset -> (CPU seconds, reports) of bare WeasyPrint on the last resolved turn's seat
    reports of every game (of the first `games_each` games of each ruleset, if given). Drawing the
    pictures is not timed: they are the worker's work, shared by the seats of a turn."""
    db = open_database(home.database)
    spent: dict[str, tuple[float, int]] = {}
    for name in names:
        ruleset_name, number = name.rsplit("-", 1)
        if games_each is not None and int(number) > games_each:
            continue
        pages = turn_pages(db, home, name)  # the last resolved turn: the one run-due ran
        seat_jobs = [(floor_html(job), job.base_url) for job in pages.jobs[: len(pages.rows)]]
        start = time.process_time()
        for html, base_url in seat_jobs:
            bare_pdf(html, base_url)
        seconds, reports = spent.get(ruleset_name, (0.0, 0))
        spent[ruleset_name] = (seconds + time.process_time() - start, reports + len(seat_jobs))
    db.conn.close()
    return spent


PROBE_REPORTS = 4  # the pace probe: bare WeasyPrint on this many reports of the house's first game


def probe_html(home: Home, name: str) -> list[tuple[str, str]]:
    """(HTML, base URL) of the first PROBE_REPORTS seat reports of the game's last resolved turn,
    pictures drawn: the same pages each time the pace is probed (pace)."""
    db = open_database(home.database)
    pages = turn_pages(db, home, name)
    db.conn.close()
    return [(floor_html(job), job.base_url) for job in pages.jobs[: min(PROBE_REPORTS, len(pages.rows))]]


def pace(pages: list[tuple[str, str]]) -> float:
    """CPU seconds of bare WeasyPrint on the probe's pages: the machine's pace at this moment.
    A CPU second is not a fixed amount of work on a shared machine (a sibling hyperthread busy, a
    cache shared, the clock's speed): the same 76 reports measured 1.31 to 1.80 CPU-s a seat on
    one built house (bench/README.md). The probe, taken before the intake, after the run-due and
    after the floor (once before them all, not counted: the first reports of a process pay
    WeasyPrint's start, a fifth to a third more), says how far the pace moved between the run-due and
    its floor."""
    start = time.process_time()
    for html, base_url in pages:
        bare_pdf(html, base_url)
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", type=int, default=1000, help="seats in the house (default 1000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--turn", type=int, default=1, help="the turn run-due runs, robots playing the ones before")
    parser.add_argument("--by-ruleset", action="store_true", help="run-due again on a copy, one ruleset at a time")
    parser.add_argument("--floor-games", type=int, help="floor on this many games of each ruleset (default all)")
    parser.add_argument("--keep", type=Path, help="build the house in this folder and keep it")
    parser.add_argument(
        "--empires-seats", type=int, default=16, help="seats of each Empires game (default 16; the map has 32)"
    )
    parser.add_argument("--build-only", action="store_true", help="with --keep: build the house there and stop")
    parser.add_argument("--built", type=Path, help="run on a copy of a house built with --keep FOLDER --build-only")
    args = parser.parse_args()
    if args.build_only and not args.keep:
        parser.error("--build-only needs --keep FOLDER, the folder to build the house in")
    if args.built and not (args.built / "house").is_dir():
        parser.error(f"{args.built} holds no house: build one with --keep {args.built} --build-only")
    subreaper()
    with tempfile.TemporaryDirectory(prefix="gm-bench-cycle-") as folder:
        root = args.keep or Path(folder)
        home = Home(root / "house")
        start = time.perf_counter()
        if args.built:
            shutil.copytree(args.built, root, symlinks=True, dirs_exist_ok=True)
            all_names, maildir, made = game_names(home), root / "Maildir", f"copied from {args.built}"
        else:
            all_names, maildir = make_house(home, args.seats, args.seed, args.turn, args.empires_seats)
            made = f"built in {time.perf_counter() - start:.0f} s"
        names, seats_of, turn_now = running_games(home, all_names)
        seats = sum(seats_of.values())
        print(
            f"python {platform.python_version()}, weasyprint {weasyprint.__version__}, {os.cpu_count()} CPUs, "
            f"load average {os.getloadavg()[0]:.1f}; {seats} seats in {len(names)} running games "
            f"({len(all_names) - len(names)} over before turn {min(turn_now.values())}): "
            + ", ".join(
                f"{len(of)} {r} of {seats_of[of[0]]}"
                for r in dict.fromkeys(n.rsplit("-", 1)[0] for n in names)
                if (of := [n for n in names if n.startswith(r + "-")])
            )
            + f"; turns {min(turn_now.values())}-{max(turn_now.values())} being collected"
            + f" (house {made})"
        )
        if args.build_only:
            print(f"built in {root}; run on a copy of it with --built {root}")
            return
        probe = probe_html(home, names[0])
        pace(probe)  # not counted: a process's first reports pay WeasyPrint's start (fonts, style sheets)
        paces = [pace(probe)]
        results = {}
        for label, command in [("intake", ["inbox", "import", str(maildir)]), ("acknowledgements", ["mail", "send"])]:
            results[label] = _show(label, timed(*command, "--home", str(home.root)), seats)
        apart = Home(root / "apart")
        if args.by_ruleset:
            shutil.copytree(home.root, apart.root, symlinks=True)
        make_due(home)
        results["run-due"] = _show("run-due", timed("run-due", "--home", str(home.root)), seats)
        reports = len(list((home.reports).rglob("*.pdf")))
        mails = len(list(home.outbox.rglob("*.eml")))
        print(
            f"{reports} report PDFs written, {mails} mails in the outbox folder; load average {os.getloadavg()[0]:.1f}"
        )
        paces.append(pace(probe))
        by_ruleset = {}
        for ruleset_name in dict.fromkeys(name.rsplit("-", 1)[0] for name in names) if args.by_ruleset else ():
            make_due(apart, ruleset_name)
            ruleset_seats = sum(n for name, n in seats_of.items() if name.startswith(f"{ruleset_name}-"))
            by_ruleset[ruleset_name] = _show(
                f"{ruleset_name} alone", timed("run-due", "--home", str(apart.root)), ruleset_seats
            )
        bare = floor(home, names, args.floor_games)
        paces.append(pace(probe))
        print("the floor, bare WeasyPrint on the reports' HTML as sent (maps drawn), CPU-s per report:")
        for ruleset_name, (seconds, count) in bare.items():
            ruleset_seats = sum(n for name, n in seats_of.items() if name.startswith(f"{ruleset_name}-"))
            line = f"{ruleset_name:>16}: floor {seconds / count:.3f} ({count} reports)"
            if ruleset_name in by_ruleset:
                alone = by_ruleset[ruleset_name]["cpu"] / ruleset_seats
                line += f"; run-due alone {alone:.3f} a seat, {alone / (seconds / count):.2f} of its floor"
            print(line)
        # Each ruleset's floor a report counted for each of its seats: with --floor-games the
        # sample's mix of rulesets is not the house's (2 games each, where most seats are Empires').
        floor_seat = (
            sum(
                seconds / count * sum(n for name, n in seats_of.items() if name.startswith(f"{ruleset_name}-"))
                for ruleset_name, (seconds, count) in bare.items()
            )
            / seats
        )
        floor_reports = sum(count for _, count in bare.values())
        whole = results["run-due"]["cpu"] / seats
        print(
            f"{'whole house':>16}: floor {floor_seat:.3f} a seat (each ruleset's a report, by its seats; "
            f"{floor_reports} reports rendered); run-due {whole:.3f} a seat, {whole / floor_seat:.2f} of the floor; "
            f"the gm process {results['run-due']['main_cpu'] / seats:.3f} a seat "
            f"({results['run-due']['main_cpu'] / seats / floor_seat:.3f} of the floor: the same on a machine twice as fast)"
        )
        print("\n".join(stage_lines(results["run-due"], seats, floor_seat)))
        # The run-due ran between the first two probes, the floor between the last two: the
        # floor at the run-due's pace is the floor times the ratio of their means.
        at_pace = floor_seat * (paces[0] + paces[1]) / (paces[1] + paces[2])
        moved = max(paces) / min(paces) - 1
        print(
            f"{'the pace':>16}: {len(probe)} reports of {names[0]} (its last turn before run-due) took "
            + ", ".join(f"{p:.2f}" for p in paces)
            + f" CPU-s before the intake, after the run-due and after the floor (moved {moved:.0%}); "
            f"the floor at the run-due's pace {at_pace:.3f} a seat: run-due {whole / at_pace:.2f} of it, "
            f"the gm process {results['run-due']['main_cpu'] / seats / at_pace:.3f}"
            + ("; the pace moved by more than a tenth: no ratio here is better than that" if moved > 0.1 else "")
        )


def game_names(home: Home) -> list[str]:
    """Every game of a house, in the order it was made."""
    db = open_database(home.database)
    names = [game.name for game in sorted(records.all_games(db), key=lambda game: game.id)]
    db.conn.close()
    return names


def running_games(home: Home, names: list[str]) -> tuple[list[str], dict[str, int], dict[str, int]]:
    """The games still running (the ones run-due will run), their seats, and the turn each collects."""
    db = open_database(home.database)
    running, seats, turn_now = [], {}, {}
    for name in names:
        game = records.game_by_name(db, name)
        if game.status != "over":
            running.append(name)
            seats[name] = len(records.seats_of(db, game.id))
            turn_now[name] = game.turn
    db.conn.close()
    return running, seats, turn_now


def _show(label: str, result: dict, seats: int) -> dict:
    print(
        f"{label:>16}: wall {result['wall']:7.1f} s, CPU {result['cpu']:7.1f} s "
        f"({result['cpu'] / seats:.3f} CPU-s per seat; the gm process itself about "
        f"{result['main_cpu']:.1f} s); peak RSS gm {result['main_mb']:.0f} MB, "
        f"largest other process {result['others_mb']:.0f} MB ({result['processes'] - 1} others; "
        f"largest of the {result['workers']} forked below another, the render workers, {result['workers_mb']:.0f} MB)"
    )
    return result


if __name__ == "__main__":
    main()
