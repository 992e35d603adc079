"""Load test of the player portal: sign-in + upload + check cycles per second, and latency, on loopback.

    .venv/bin/python bench/bench_portal.py [--players 50] [--seconds 20] [--workers N] [--threads 8]

It makes a throw-away GM home (13 clash games, 52 seats), starts `gm serve --workers N` (default:
one per CPU) on a free loopback port, and runs `--players` concurrent players for `--seconds`
(after a 3 s warm-up that is not counted), in a load process of its own: each player an asyncio
task on one keep-alive connection, so the load generator costs little next to the server. One cycle is what a browser does for a new session: GET / (cookie and CSRF
token), POST /sign-in with game, seat and secret, GET / (the seat page the 303 leads to, with the
new session's token), POST /orders with a turn file upload and action=submit, whose answer is the
page showing the check. Then it times the steps one at a time in-process to show
what a cycle costs. Targets: >= 200 cycles/s, p99 cycle latency <= 200 ms.
"""
from __future__ import annotations

import argparse
import asyncio
import io
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
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from gm.clock import SystemClock
from gm.home import Home, create_home
from gm.services import games
from gm.store.database import open_database

_CSRF = re.compile(rb'name="csrf" value="([^"]+)"')


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

    async def request(self, method: str, path: str, body: bytes = b"", content_type: str = "",
                      expect: int = 200) -> bytes:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        head = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{self.port}", "User-Agent: bench_portal",
                "Accept: text/html"]
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
        orders = (f"GAME {self.game}\nPLAYER {self.code}\nPASSWORD {self.secret}\nTURN 1\n"
                  f"CLAIM ENG SCO WAL  # cycle {n}\nEND\n").encode()
        boundary = "----bench" + uuid.uuid4().hex  # a new one every time, as browsers do
        body = b"".join([
            f"--{boundary}\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\n{token}\r\n".encode(),
            f"--{boundary}\r\nContent-Disposition: form-data; name=\"action\"\r\n\r\nsubmit\r\n".encode(),
            f"--{boundary}\r\nContent-Disposition: form-data; name=\"turn_file\"; filename=\"orders.txt\"\r\n"
            f"Content-Type: text/plain\r\n\r\n".encode(), orders, f"\r\n--{boundary}--\r\n".encode()])
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
    process = subprocess.Popen([str(gm), "serve", "--home", str(home), "--port", str(port), "--threads", str(threads),
                                "--workers", str(workers)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
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
    for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split() if \
            Path(f"/proc/{pid}/task/{pid}/children").exists() else []:
        found.append(int(child))
    return found


def load_process(port: int, seats: list, start: float, stop: float, out) -> None:
    """Runs in its own process: one asyncio player per seat until `stop`; cycles that began after
    `start` and ended by `stop` are counted. Sends (latencies, errors, CPU seconds in the window)."""

    async def run(seat, index, latencies, errors):
        player, n = Player(port, seat), 0
        while time.monotonic() < stop:
            began = time.monotonic()
            try:
                await player.cycle(index * 1_000_000 + n)
            except (RuntimeError, OSError, TypeError, ValueError, asyncio.IncompleteReadError) as exc:
                errors.append(repr(exc))
                player.close()
                player = Player(port, seat)
                continue
            n += 1
            ended = time.monotonic()
            if began >= start and ended <= stop:
                latencies.append(ended - began)
        player.close()

    async def main():
        latencies, errors = [], []
        cpu = []

        async def mark():
            await asyncio.sleep(max(0.0, start - time.monotonic()))
            cpu.append(time.process_time())
            await asyncio.sleep(max(0.0, stop - time.monotonic()))
            cpu.append(time.process_time())

        await asyncio.gather(mark(), *(run(seat, i, latencies, errors) for i, seat in seats))
        return latencies, errors, cpu[1] - cpu[0]

    out.send(asyncio.run(main()))
    out.close()


def load(port: int, seats: list, warm_up: float, seconds: float, processes: int,
         server: int) -> tuple[list[float], list[str], float, float, float]:
    """(cycle latencies counted, errors, load generator CPU s, server CPU s, every process's CPU s)
    over the measured window."""
    context = multiprocessing.get_context("fork")
    start = time.monotonic() + warm_up + 0.5
    stop = start + seconds
    numbered = list(enumerate(seats))
    pipes, workers = [], []
    for k in range(processes):
        mine, theirs = context.Pipe(duplex=False)
        worker = context.Process(target=load_process, args=(port, numbered[k::processes], start, stop, theirs))
        worker.start()
        pipes.append(mine)
        workers.append(worker)
    time.sleep(max(0.0, start - time.monotonic()))
    pids = server_pids(server)  # the workers are running by now
    server_before, machine_before = cpu_seconds(pids), machine_cpu_seconds()
    time.sleep(max(0.0, stop - time.monotonic()))
    server_cpu, machine_cpu = cpu_seconds(pids) - server_before, machine_cpu_seconds() - machine_before
    latencies, errors, load_cpu = [], [], 0.0
    for pipe, worker in zip(pipes, workers):
        got, failed, cpu = pipe.recv()
        latencies += got
        errors += failed
        load_cpu += cpu
        worker.join()
    return latencies, errors, load_cpu, server_cpu, machine_cpu


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
    times: dict[str, list[float]] = {k: [] for k in ("scrypt check (uncached)", "GET / sign-in page",
                                                      "POST /sign-in (secret remembered)", "GET / seat page",
                                                      "POST /orders upload + submit + page")}
    for n in range(repeat):
        began = time.perf_counter()
        check_secret(secret, stored)
        times["scrypt check (uncached)"].append(time.perf_counter() - began)
        client = app.test_client()
        orders = f"GAME {game}\nPLAYER {code}\nPASSWORD {secret}\nTURN 1\nCLAIM ENG # step {n}\nEND\n"
        steps = [("GET / sign-in page", "GET", "/", {}),
                 ("POST /sign-in (secret remembered)", "POST", "/sign-in", {"game": game, "seat": code, "secret": secret}),
                 ("GET / seat page", "GET", "/", {}),
                 ("POST /orders upload + submit + page", "POST", "/orders",
                  {"action": "submit", "turn_file": (io.BytesIO(orders.encode()), "orders.txt", "text/plain")})]
        for label, method, url, form in steps:
            if method == "POST":
                form = {**form, "csrf": _CSRF.search(client.get("/").data)[1].decode()}
            began = time.perf_counter()
            answer = client.open(url, method=method, data=form or None)
            times[label].append(time.perf_counter() - began)
            if answer.status_code >= 400 or url == "/orders" and b"<h2>Submitted</h2>" not in answer.data:
                raise SystemExit(f"{label}: {answer.status_code}, not what a cycle gets")
    return {k: statistics.median(v) * 1000 for k, v in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--threads", type=int, default=8, help="gm serve --threads (per worker)")
    parser.add_argument("--workers", type=int, default=0, help="gm serve --workers (default: one per CPU)")
    parser.add_argument("--load-processes", type=int, default=1,
                        help="processes the players are spread over (asyncio, one connection each)")
    args = parser.parse_args()
    if not (1 <= args.players <= 200 and 1 <= args.seconds <= 120 and 0 <= args.workers <= 16
            and 1 <= args.load_processes <= 8):
        raise SystemExit("keep it bounded: 1-200 players, 1-120 seconds, 0-16 workers, 1-8 load processes")
    workers = args.workers or len(os.sched_getaffinity(0))
    with tempfile.TemporaryDirectory() as folder:
        home = Path(folder) / "home"
        seats = make_home(home, args.players)
        process, port = start_server(home, args.threads, workers)
        try:
            latencies, errors, load_cpu, server_cpu, machine_cpu = load(port, seats, 3.0, args.seconds, args.load_processes,
                                                           process.pid)
        finally:
            process.terminate()
            process.wait(timeout=20)
        costs = step_costs(home, seats[0])
    latencies.sort()
    seconds = args.seconds
    rate = len(latencies) / seconds
    p50 = latencies[len(latencies) // 2] * 1000
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f} at the end; "
          f"{args.players} players in {args.load_processes} load process(es); gm serve --workers {workers} "
          f"--threads {args.threads}; {seconds:.0f} s measured after a 3 s warm-up, loopback")
    print(f"cycles: {len(latencies)} in {seconds:.0f} s = {rate:.1f} cycles/s (target >= 200); errors {len(errors)}"
          + (f" (first: {errors[0]})" if errors else ""))
    print(f"cycle latency: p50 {p50:.0f} ms, p99 {p99:.0f} ms, max {latencies[-1] * 1000:.0f} ms (target p99 <= 200 ms)")
    if server_cpu:
        print(f"CPU in the measured window: gm serve {server_cpu:.1f} s ({server_cpu / seconds:.0%} of one CPU, "
              f"{server_cpu / len(latencies) * 1000:.1f} ms a cycle); load generator {load_cpu:.1f} s "
              f"({load_cpu / seconds:.0%} of one CPU, {load_cpu / len(latencies) * 1000:.1f} ms a cycle); "
              f"everything else on the machine {max(0.0, machine_cpu - server_cpu - load_cpu):.1f} s")
    print("one step at a time, in-process (median ms):")
    for label, ms in costs.items():
        print(f"  {label:<38} {ms:7.1f}")


if __name__ == "__main__":
    main()
