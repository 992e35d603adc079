"""Load test of the player portal: sign-in + upload + check cycles per second, and latency, on loopback.

    .venv/bin/python bench/bench_portal.py [--players 50] [--seconds 20] [--threads 8]

It makes a throw-away GM home (13 clash games, 52 seats), starts `gm serve` on a free loopback port
in its own process, and runs `--players` concurrent players for `--seconds` (after a 3 s warm-up
that is not counted). One cycle is what a browser does for a new session: GET / (cookie and CSRF
token), POST /sign-in with game, seat and secret, GET / (the seat page the 303 leads to, with the
new session's token), POST /orders with a turn file upload and action=submit, whose answer is the
page showing the check. Then it times the steps one at a time in-process to show
what a cycle costs. Targets: >= 200 cycles/s, p99 cycle latency <= 200 ms.
"""
from __future__ import annotations

import argparse
import http.client
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

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
    """One player on one keep-alive connection, with its own cookie."""

    def __init__(self, port: int, seat: tuple[str, str, str]):
        self.port, (self.game, self.code, self.secret) = port, seat
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.cookie = ""

    def request(self, method: str, path: str, body: bytes | None = None, content_type: str = "") -> bytes:
        headers = {"Cookie": self.cookie} if self.cookie else {}
        if content_type:
            headers["Content-Type"] = content_type
        self.connection.request(method, path, body=body, headers=headers)
        response = self.connection.getresponse()
        data = response.read()
        cookie = response.getheader("Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";", 1)[0]
        if response.status >= 400:
            raise RuntimeError(f"{method} {path}: {response.status}")
        return data

    def cycle(self, n: int) -> None:
        self.cookie = ""
        token = _CSRF.search(self.request("GET", "/"))[1].decode()
        form = f"csrf={token}&game={self.game}&seat={self.code}&secret={self.secret}".encode()
        self.request("POST", "/sign-in", form, "application/x-www-form-urlencoded")
        # Signing in starts a new session with a new token: the seat page (where the 303 leads) has it.
        token = _CSRF.search(self.request("GET", "/"))[1].decode()
        orders = (f"GAME {self.game}\nPLAYER {self.code}\nPASSWORD {self.secret}\nTURN 1\n"
                  f"CLAIM ENG SCO WAL  # cycle {n}\nEND\n").encode()
        boundary = uuid.uuid4().hex
        body = b"".join([
            f"--{boundary}\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\n{token}\r\n".encode(),
            f"--{boundary}\r\nContent-Disposition: form-data; name=\"action\"\r\n\r\nsubmit\r\n".encode(),
            f"--{boundary}\r\nContent-Disposition: form-data; name=\"turn_file\"; filename=\"orders.txt\"\r\n"
            f"Content-Type: text/plain\r\n\r\n".encode(), orders, f"\r\n--{boundary}--\r\n".encode()])
        page = self.request("POST", "/orders", body, f"multipart/form-data; boundary={boundary}")
        if b"Submitted" not in page:
            raise RuntimeError("the upload was not accepted")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(home: Path, threads: int) -> tuple[subprocess.Popen, int]:
    port = free_port()
    gm = Path(sys.executable).with_name("gm")
    process = subprocess.Popen([str(gm), "serve", "--home", str(home), "--port", str(port), "--threads", str(threads)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(600):  # up to 30 s on a busy machine
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return process, port
        except OSError:
            time.sleep(0.05)
    process.kill()
    raise SystemExit("gm serve did not start")


def load(port: int, seats: list, warm_up: float, seconds: float) -> tuple[list[float], int, float]:
    """(cycle latencies counted, errors, measured wall time) for one player thread per seat."""
    start = time.monotonic() + warm_up
    stop = start + seconds
    latencies: list[float] = []
    errors = [0]
    lock = threading.Lock()

    def run(seat, index):
        player, n = Player(port, seat), 0
        while time.monotonic() < stop:
            began = time.monotonic()
            try:
                player.cycle(index * 1_000_000 + n)
            except (RuntimeError, OSError, TypeError):
                with lock:
                    errors[0] += 1
                player = Player(port, seat)
                continue
            n += 1
            if began >= start and time.monotonic() <= stop:
                with lock:
                    latencies.append(time.monotonic() - began)

    threads = [threading.Thread(target=run, args=(seat, i)) for i, seat in enumerate(seats)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return latencies, errors[0], seconds


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
                 ("POST /orders upload + submit + page", "POST", "/orders", {"action": "submit", "orders": orders})]
        for label, method, url, form in steps:
            if method == "POST":
                form = {**form, "csrf": _CSRF.search(client.get("/").data)[1].decode()}
            began = time.perf_counter()
            client.open(url, method=method, data=form or None)
            times[label].append(time.perf_counter() - began)
    return {k: statistics.median(v) * 1000 for k, v in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--threads", type=int, default=8, help="gm serve --threads")
    args = parser.parse_args()
    if not (1 <= args.players <= 200 and 1 <= args.seconds <= 120):
        raise SystemExit("keep it bounded: 1-200 players, 1-120 seconds")
    with tempfile.TemporaryDirectory() as folder:
        home = Path(folder) / "home"
        seats = make_home(home, args.players)
        process, port = start_server(home, args.threads)
        try:
            latencies, errors, seconds = load(port, seats, 3.0, args.seconds)
        finally:
            process.terminate()
            process.wait(timeout=10)
        costs = step_costs(home, seats[0])
    latencies.sort()
    rate = len(latencies) / seconds
    p50 = latencies[len(latencies) // 2] * 1000
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000
    print(f"python {sys.version.split()[0]}, {args.players} players, gm serve --threads {args.threads}, "
          f"{args.seconds:.0f} s measured after a 3 s warm-up, loopback")
    print(f"cycles: {len(latencies)} in {seconds:.0f} s = {rate:.1f} cycles/s (target >= 200); errors {errors}")
    print(f"cycle latency: p50 {p50:.0f} ms, p99 {p99:.0f} ms, max {latencies[-1] * 1000:.0f} ms (target p99 <= 200 ms)")
    print("one step at a time, in-process (median ms):")
    for label, ms in costs.items():
        print(f"  {label:<38} {ms:7.1f}")


if __name__ == "__main__":
    main()
