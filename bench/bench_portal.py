"""Load test of the player portal: sign-in + upload + check cycles per second, and latency, on loopback.

    .venv/bin/python bench/bench_portal.py [--mode both|closed|open] [--rate 200] [--players 50]
        [--seconds 20] [--workers N] [--threads 2] [--load-processes 1]

It makes a throw-away GM home (13 clash games, 52 seats), starts `gm serve --workers N` (default:
one per CPU) on a free loopback port, and runs `--players` concurrent players for `--seconds`
(after a 3 s warm-up that is not counted), in a load process of its own: each player an asyncio
task on one keep-alive connection, so the load generator costs little next to the server. One
cycle is what a browser does for a new session: GET / (cookie and CSRF token), POST /sign-in with
game, seat and secret, GET / (the seat page the 303 leads to, with the new session's token), POST
/orders with a turn file upload and action=submit, whose answer is the page showing the check.
Targets: >= 200 cycles/s with 50 concurrent players, p99 cycle latency <= 200 ms.

It measures in two ways, by default both, one after the other, each on a new home and server with its
own warm-up and its own CPU accounting (gm serve, load generator, everything else on the machine):

- closed loop (`--mode closed`, or `--rate 0`): each player starts its next cycle the moment its
  last one ends, no think time. This is the saturation throughput: the most cycles/s the server
  does. Its latency is not the service time but the queue: by Little's law, mean latency = players
  in the system / throughput, so 50 players at 200 cycles/s have a MEAN of 250 ms whatever the
  server does, and a p99 target cannot be judged here.
- open loop (`--mode open --rate R`, R = 200 by default, the target): cycles arrive at a constant
  total rate, as with wrk2 or k6's constant-arrival-rate executor. After a closed-loop warm-up
  (it fills the workers' caches: the first sign-in of each seat on each worker pays a 40 ms scrypt
  check) and a half-second lull, cycle k is due at start + k / R (one schedule shared by all
  players); a free player takes the next due cycle,
  waits for its due time and runs it, and its latency counts from the SCHEDULED start, not from
  when it actually began. If every player is busy when a cycle is due, the cycle waits and the
  wait is in its latency, so a server that falls behind shows it (no coordinated omission). This
  answers "does it sustain R cycles/s, and with what p99". Cycles due in the window are all
  counted, also those that finish after it (they may run up to 10 s longer; any still unfinished
  then count as slower than that).

At the end it times the steps one at a time in-process to show what a cycle costs.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import math
import multiprocessing
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from gm.clock import SystemClock
from gm.home import Home, create_home
from gm.services import games
from gm.store.database import open_database

_CSRF = re.compile(rb'name="csrf" value="([^"]+)"')
WARM_UP = 3.0  # s before each measured window, not counted
DRAIN = 10.0  # s after the window that cycles still running (or, open loop, still waiting) may take to finish
LULL = 0.5  # s between an open loop's closed-loop warm-up and its schedule, for the players to finish
LATE = 0.010  # s: an open-loop cycle that starts later than this after its due time is reported as late


def make_home(where: Path, players: int) -> list[tuple[str, str, str]]:
    home = Home(where)
    create_home(home)
    db = open_database(home.database)
    seats = []
    for g in range((players + 3) // 4):
        name = f"load-{g}"
        games.create_game(db, SystemClock(), name, "clash", None, g + 1)
        for p in range(4):
            code, secret = games.join_game(db, SystemClock(), name, f"p{g}-{p}@bench.invalid", f"Player {g}-{p}")
            seats.append((name, code, secret))
    return seats[:players]


class Player:
    """One player on one keep-alive connection (HTTP/1.1 over asyncio streams), with its own cookie.

    A browser's whole cycle for a new session, each answer checked: GET / (the sign-in page: a
    new session cookie and its CSRF token), POST /sign-in (303), GET / (the seat page, with the
    signed-in session's new token), POST /orders with a multipart upload and action=submit, whose
    answer must be the seat page saying the orders were submitted."""

    def __init__(self, port: int, seat: tuple[str, str, str]):
        self.port, (self.game, self.code, self.secret) = port, seat
        self.reader = self.writer = None
        self.cookie = ""

    async def request(
        self, method: str, path: str, body: bytes = b"", content_type: str = "", expect: int = 200
    ) -> bytes:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        head = [
            f"{method} {path} HTTP/1.1",
            f"Host: 127.0.0.1:{self.port}",
            "User-Agent: bench_portal",
            "Accept: text/html",
        ]
        if self.cookie:
            head.append(f"Cookie: {self.cookie}")
        if method == "POST":
            head += [f"Content-Type: {content_type}", f"Content-Length: {len(body)}"]
        self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body)
        status_line, *lines = (await self.reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
        status = int(status_line.split(" ", 2)[1])
        length, close = None, False
        for line in lines:
            name, _, value = line.partition(":")
            name, value = name.strip().lower(), value.strip()
            if name == "content-length":
                length = int(value)
            elif name == "set-cookie" and value.startswith("gm_session="):
                self.cookie = value.split(";", 1)[0]
            elif name == "transfer-encoding":
                raise RuntimeError(f"{method} {path}: unexpected Transfer-Encoding {value}")
            elif name == "connection" and value.lower() == "close":
                close = True
        if length is None:
            raise RuntimeError(f"{method} {path}: no Content-Length")
        data = await self.reader.readexactly(length)
        if close:
            self.close()
        if status != expect:
            raise RuntimeError(f"{method} {path}: {status}, expected {expect}")
        return data

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def cycle(self, n: int) -> None:
        self.cookie = ""
        token = _CSRF.search(await self.request("GET", "/"))[1].decode()
        form = urlencode({"csrf": token, "game": self.game, "seat": self.code, "secret": self.secret}).encode()
        await self.request("POST", "/sign-in", form, "application/x-www-form-urlencoded", expect=303)
        # Signing in starts a new session with a new token: the seat page (where the 303 leads) has it.
        page = await self.request("GET", "/")
        if f"You are <strong>{self.code}</strong>".encode() not in page:
            raise RuntimeError("the sign-in did not lead to the seat page")
        token = _CSRF.search(page)[1].decode()
        orders = (
            f"GAME {self.game}\nPLAYER {self.code}\nPASSWORD {self.secret}\nTURN 1\n"
            f"CLAIM ENG SCO WAL  # cycle {n}\nEND\n"
        ).encode()
        boundary = "----bench" + uuid.uuid4().hex  # a new one every time, as browsers do
        body = b"".join(
            [
                f'--{boundary}\r\nContent-Disposition: form-data; name="csrf"\r\n\r\n{token}\r\n'.encode(),
                f'--{boundary}\r\nContent-Disposition: form-data; name="action"\r\n\r\nsubmit\r\n'.encode(),
                f'--{boundary}\r\nContent-Disposition: form-data; name="turn_file"; filename="orders.txt"\r\n'
                f"Content-Type: text/plain\r\n\r\n".encode(),
                orders,
                f"\r\n--{boundary}--\r\n".encode(),
            ]
        )
        page = await self.request("POST", "/orders", body, f"multipart/form-data; boundary={boundary}")
        if b"<h2>Submitted</h2>" not in page or f"# cycle {n}".encode() not in page:
            raise RuntimeError("the upload was not accepted")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(home: Path, threads: int, workers: int) -> tuple[subprocess.Popen, int]:
    port = free_port()
    gm = Path(sys.executable).with_name("gm")
    process = subprocess.Popen(
        [
            str(gm),
            "serve",
            "--home",
            str(home),
            "--port",
            str(port),
            "--threads",
            str(threads),
            "--workers",
            str(workers),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(600):  # up to 30 s on a busy machine
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return process, port
        except OSError:
            time.sleep(0.05)
    process.kill()
    raise SystemExit("gm serve did not start")


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU seconds used so far by these processes (Linux /proc; 0 elsewhere)."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def machine_cpu_seconds() -> float:
    """CPU seconds all CPUs have been busy (Linux /proc/stat; 0 elsewhere)."""
    try:
        fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except OSError:
        return 0.0
    idle = fields[3] + fields[4]  # idle, iowait
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def server_pids(pid: int) -> list[int]:
    """gm serve and its worker processes."""
    found = [pid]
    for child in (
        Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        if Path(f"/proc/{pid}/task/{pid}/children").exists()
        else []
    ):
        found.append(int(child))
    return found


class Schedule:
    """When the next cycle a free player takes is due (time.monotonic()), or None once the run is over.

    Closed loop (rate 0): due now, so a player starts its next cycle the moment its last one ends;
    none once `stop` is past. Open loop: until `warm_until`, a closed-loop warm-up (it fills each
    worker's caches, such as the scrypt checks of every seat's first sign-in, which would otherwise
    leave a backlog for the window to inherit); then, after a lull in which the players finish,
    cycle j of one schedule at `rate` cycles/s in all (over every player and load process) is due
    at epoch + j / rate; this load process's share is j = first, first + step, ...; none due at or
    after `stop`, but those due before it are still run however late they start."""

    def __init__(self, rate: float, epoch: float, stop: float, first: int = 0, step: int = 1, warm_until: float = 0.0):
        self.rate, self.epoch, self.stop, self.first, self.step = rate, epoch, stop, first, step
        self.warm_until = warm_until
        self.next = first

    def due(self, j: int) -> float:
        return self.epoch + j / self.rate

    def take(self) -> float | None:
        now = time.monotonic()
        if not self.rate or now < self.warm_until:
            return now if now < self.stop else None
        due = self.due(self.next)
        if due >= self.stop:
            return None
        self.next += self.step
        return due

    def count(self, start: float) -> int:
        """How many cycles of this share are due in [start, stop) (0 in a closed loop)."""
        if not self.rate:
            return 0
        last = math.ceil((self.stop - self.epoch) * self.rate) + 1
        return sum(start <= self.due(j) < self.stop for j in range(self.first, last, self.step))


class Cycle(NamedTuple):
    """One finished cycle (time.monotonic() seconds): due, taken by a free player, began, ended."""

    due: float
    taken: float
    began: float
    ended: float


async def play(
    port: int,
    seat: tuple[str, str, str],
    index: int,
    schedule: Schedule,
    cycles: list[Cycle],
    errors: list[tuple[float, str]],
) -> None:
    """One player: takes the next due cycle while there is one, waits until it is due, runs it."""
    player, n = Player(port, seat), 0
    try:
        while (due := schedule.take()) is not None:
            taken = time.monotonic()
            if due > taken:
                await asyncio.sleep(due - taken)
            began = time.monotonic()
            try:
                await player.cycle(index * 1_000_000 + n)
            except (RuntimeError, OSError, TypeError, ValueError, asyncio.IncompleteReadError) as exc:
                errors.append((due, repr(exc)))
                player.close()
                player = Player(port, seat)
                continue
            n += 1
            cycles.append(Cycle(due, taken, began, time.monotonic()))
    finally:
        player.close()


def load_process(port: int, seats: list, schedule: Schedule, start: float, out) -> None:
    """Runs in its own process: one asyncio player per seat on `schedule`, cut off DRAIN seconds
    after its stop. Sends (finished cycles, errors with their due time, cycles of its share due in
    [start, stop), its CPU seconds in [start, stop))."""

    async def main():
        cycles, errors, cpu = [], [], []

        async def mark():
            await asyncio.sleep(max(0.0, start - time.monotonic()))
            cpu.append(time.process_time())
            await asyncio.sleep(max(0.0, schedule.stop - time.monotonic()))
            cpu.append(time.process_time())

        marker = asyncio.create_task(mark())
        players = [asyncio.create_task(play(port, seat, i, schedule, cycles, errors)) for i, seat in seats]
        done, cut_off = await asyncio.wait(players, timeout=schedule.stop + DRAIN - time.monotonic())
        for task in cut_off:
            task.cancel()
        await asyncio.gather(*cut_off, return_exceptions=True)
        for task in done:
            task.result()  # a player that failed unexpectedly fails the run
        await marker
        return cycles, errors, schedule.count(start), cpu[1] - cpu[0]

    out.send(asyncio.run(main()))
    out.close()


@dataclass
class Run:
    """What one measured window gave. Latencies are sorted, in seconds: closed loop, of the cycles
    that began and ended in the window, from their start; open loop, of every cycle due in the
    window (also those finished after it), from its due time, inf for any unfinished DRAIN s on."""

    rate: float  # cycles/s scheduled; 0 = closed loop
    seconds: float
    latencies: list[float]
    done: int  # cycles finished in the window: closed loop, begun in it too; open loop, whenever due
    within: int  # open loop: cycles due in the window and finished by its end
    scheduled: int  # open loop: cycles due in the window
    late: int  # open loop: cycles that began more than LATE after their due time ...
    busy: int  # ... of which, no player was free when they fell due
    errors: list[str]  # every failed cycle, warm-up included
    load_cpu: float  # CPU seconds in the window: load generator, gm serve, every process on the machine
    server_cpu: float
    machine_cpu: float


def load(port: int, seats: list, rate: float, seconds: float, processes: int, server: int) -> Run:
    """One warm-up and measured window at `rate` (0 = closed loop), players spread over `processes`."""
    context = multiprocessing.get_context("fork")
    start = time.monotonic() + WARM_UP + 0.5
    stop = start + seconds
    numbered = list(enumerate(seats))
    pipes, workers = [], []
    for k in range(processes):
        mine, theirs = context.Pipe(duplex=False)
        schedule = Schedule(rate, start, stop, first=k, step=processes, warm_until=start - LULL)
        worker = context.Process(target=load_process, args=(port, numbered[k::processes], schedule, start, theirs))
        worker.start()
        pipes.append(mine)
        workers.append(worker)
    time.sleep(max(0.0, start - time.monotonic()))
    pids = server_pids(server)  # the workers are running by now
    server_before, machine_before = cpu_seconds(pids), machine_cpu_seconds()
    time.sleep(max(0.0, stop - time.monotonic()))
    server_cpu, machine_cpu = cpu_seconds(pids) - server_before, machine_cpu_seconds() - machine_before
    cycles, errors, scheduled, load_cpu = [], [], 0, 0.0
    for pipe, worker in zip(pipes, workers):
        got, failed, due, cpu = pipe.recv()
        cycles += got
        errors += failed
        scheduled += due
        load_cpu += cpu
        worker.join()
    counted = [c for c in cycles if start <= c.due < stop and (rate or c.ended <= stop)]
    unfinished = scheduled - len(counted) - sum(start <= due < stop for due, _ in errors) if rate else 0
    return Run(
        rate,
        seconds,
        sorted([c.ended - c.due for c in counted] + [math.inf] * unfinished),
        done=sum(start <= c.ended <= stop for c in cycles) if rate else len(counted),
        within=sum(c.ended <= stop for c in counted),
        scheduled=scheduled,
        late=sum(c.began - c.due > LATE for c in counted),
        busy=sum(c.taken - c.due > LATE for c in counted),
        errors=[message for _, message in errors],
        load_cpu=load_cpu,
        server_cpu=server_cpu,
        machine_cpu=machine_cpu,
    )


def step_costs(home: Path, seat: tuple[str, str, str], repeat: int = 30) -> dict[str, float]:
    """Median milliseconds of each step of a cycle, one at a time, in this process."""
    from gm.seat_secrets import check_secret
    from gm.store import records
    from gm.web.app import create_app

    app = create_app(Home(home))
    client = app.test_client()
    game, code, secret = seat
    db = open_database(home / "gm.db")
    stored = records.seat_by_code(db, records.game_by_name(db, game), code).secret_hash
    times: dict[str, list[float]] = {
        k: []
        for k in (
            "scrypt check (uncached)",
            "GET / sign-in page",
            "POST /sign-in (secret remembered)",
            "GET / seat page",
            "POST /orders upload + submit + page",
        )
    }
    for n in range(repeat):
        began = time.perf_counter()
        check_secret(secret, stored)
        times["scrypt check (uncached)"].append(time.perf_counter() - began)
        client = app.test_client()
        orders = f"GAME {game}\nPLAYER {code}\nPASSWORD {secret}\nTURN 1\nCLAIM ENG # step {n}\nEND\n"
        steps = [
            ("GET / sign-in page", "GET", "/", {}),
            ("POST /sign-in (secret remembered)", "POST", "/sign-in", {"game": game, "seat": code, "secret": secret}),
            ("GET / seat page", "GET", "/", {}),
            (
                "POST /orders upload + submit + page",
                "POST",
                "/orders",
                {"action": "submit", "turn_file": (io.BytesIO(orders.encode()), "orders.txt", "text/plain")},
            ),
        ]
        for label, method, url, form in steps:
            if method == "POST":
                form = {**form, "csrf": _CSRF.search(client.get("/").data)[1].decode()}
            began = time.perf_counter()
            answer = client.open(url, method=method, data=form or None)
            times[label].append(time.perf_counter() - began)
            if answer.status_code >= 400 or url == "/orders" and b"<h2>Submitted</h2>" not in answer.data:
                raise SystemExit(f"{label}: {answer.status_code}, not what a cycle gets")
    return {k: statistics.median(v) * 1000 for k, v in times.items()}


def milliseconds(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms" if seconds < math.inf else f"> {DRAIN:.0f} s (unfinished)"


def report(run: Run, players: int) -> None:
    """Prints one run: what it measures, its cycles, latency and CPU."""
    done, latencies, seconds = run.done, run.latencies, run.seconds
    errors = f"errors {len(run.errors)}" + (f" (first: {run.errors[0]})" if run.errors else "")
    if not run.rate:
        print(
            f"-- closed loop (saturation): each of the {players} players starts its next cycle the moment its last "
            f"one ends, no think time.\n   It measures the most cycles/s the server does. Its latency is queueing, "
            f"not service: by Little's law, mean latency = {players} players / throughput"
            + (
                f" = {players / done * seconds * 1000:.0f} ms here (measured mean of the cycles counted: "
                f"{statistics.fmean(latencies) * 1000:.0f} ms)"
                if done
                else ""
            )
            + ", so judge p99 on the open loop."
        )
        print(f"cycles: {done} in {seconds:.0f} s = {done / seconds:.1f} cycles/s (target >= 200); {errors}")
        label = "cycle latency"
    else:
        print(
            f"-- open loop at {run.rate:g} cycles/s: cycles fall due on one fixed schedule that the {players} "
            f"players share, latency counted from each cycle's scheduled start.\n   It measures whether the server "
            f"sustains that rate and with what latency: a cycle due while every player is busy waits, and the wait "
            f"counts (no coordinated omission)."
        )
        finished = sum(x < math.inf for x in latencies)
        print(
            f"cycles: {done} finished in {seconds:.0f} s = {done / seconds:.1f} cycles/s achieved (target "
            f"{run.rate:g}); of the {run.scheduled} due in the window, {run.within} finished in it and {finished} "
            f"in all; {errors}"
        )
        print(
            f"started > {LATE * 1000:.0f} ms after their due time: {run.late} of {finished}, "
            f"{run.busy} of them because no player was free when due"
        )
        label = "latency from scheduled start"
    if latencies:
        p50, p99 = latencies[len(latencies) // 2], latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
        print(
            f"{label}: p50 {milliseconds(p50)}, p99 {milliseconds(p99)}, max {milliseconds(latencies[-1])} "
            f"(target p99 <= 200 ms)"
        )
    else:
        print(f"{label}: no cycle counted")
    if run.server_cpu:
        per = 1000 / max(1, done)
        print(
            f"CPU in the measured window: gm serve {run.server_cpu:.1f} s ({run.server_cpu / seconds:.0%} "
            f"of one CPU, {run.server_cpu * per:.1f} ms a cycle); load generator {run.load_cpu:.1f} s "
            f"({run.load_cpu / seconds:.0%} of one CPU, {run.load_cpu * per:.1f} ms a cycle); "
            f"everything else on the machine {max(0.0, run.machine_cpu - run.server_cpu - run.load_cpu):.1f} s"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--mode",
        choices=("both", "closed", "open"),
        default="both",
        help="closed loop (saturation), open loop at --rate, or both one after the other (default)",
    )
    parser.add_argument(
        "--rate",
        type=float,
        default=200,
        help="open loop: cycles/s over all players, 1-2000 (default 200, the target); 0: closed loop only",
    )
    parser.add_argument("--players", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20, help="measured, per run")
    parser.add_argument("--threads", type=int, default=2, help="gm serve --threads (per worker; 2 as gm serve)")
    parser.add_argument("--workers", type=int, default=0, help="gm serve --workers (default: one per CPU)")
    parser.add_argument(
        "--load-processes",
        type=int,
        default=1,
        help="processes the players are spread over (asyncio, one connection each)",
    )
    args = parser.parse_args()
    if not (
        1 <= args.players <= 200
        and 1 <= args.seconds <= 120
        and 0 <= args.workers <= 16
        and 1 <= args.load_processes <= 8
        and (args.rate == 0 or 1 <= args.rate <= 2000)
    ):
        raise SystemExit(
            "keep it bounded: 1-200 players, 1-120 seconds, 0-16 workers, 1-8 load processes, "
            "rate 1-2000 (or 0: closed loop only)"
        )
    if args.mode == "open" and not args.rate:
        raise SystemExit("--mode open needs --rate 1-2000")
    rates = {"closed": [0], "open": [args.rate], "both": [0, args.rate]}[args.mode]
    rates = list(dict.fromkeys(rates))  # --rate 0: the closed loop once
    workers = args.workers or len(os.sched_getaffinity(0))
    runs = []
    for rate in rates:  # each run on a new home and server, so neither inherits the other's submissions
        with tempfile.TemporaryDirectory() as folder:
            home = Path(folder) / "home"
            seats = make_home(home, args.players)
            process, port = start_server(home, args.threads, workers)
            try:
                runs.append(load(port, seats, rate, args.seconds, args.load_processes, process.pid))
            finally:
                process.terminate()
                process.wait(timeout=20)
            costs = step_costs(home, seats[0])  # the last run's home, after its load
    print(
        f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f} at the end; "
        f"{args.players} players in {args.load_processes} load process(es); gm serve --workers {workers} "
        f"--threads {args.threads}; {args.seconds:.0f} s measured after a {WARM_UP:.0f} s warm-up"
        + (" (each run)" if len(runs) > 1 else "")
        + ", loopback"
    )
    for run in runs:
        report(run, args.players)
    print("one step at a time, in-process (median ms):")
    for label, ms in costs.items():
        print(f"  {label:<38} {ms:7.1f}")


if __name__ == "__main__":
    main()
