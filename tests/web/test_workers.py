"""`gm serve --workers N`: worker processes on one port that share sessions, secrets and the sign-in
limit, and stop together. Real processes on loopback; which worker holds a connection is read from
/proc (Linux)."""

from __future__ import annotations

import http.client
import multiprocessing
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlencode

import pytest

from gm.web.guard import SignInLimiter
from tests.web.conftest import free_port


def children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(p) for p in path.read_text().split()] if path.exists() else []


def alive(pid: int) -> bool:
    """True while the process runs (a zombie has stopped)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def wait_for(condition, seconds: float = 20.0, what: str = "") -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what or condition}")
        time.sleep(0.05)


class Served:
    """`gm serve --workers N` in a session of its own (so a Ctrl-C to it reaches only it)."""

    def __init__(self, home: Path, workers: int = 2, host: str = "127.0.0.1", env: dict | None = None):
        self.port = free_port()
        gm = Path(sys.executable).with_name("gm")
        self.process = subprocess.Popen(
            [
                str(gm),
                "serve",
                "--home",
                str(home),
                "--port",
                str(self.port),
                "--workers",
                str(workers),
                "--host",
                host,
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
            env={**os.environ, **(env or {})},
        )
        self.workers = workers
        wait_for(
            lambda: self.process.poll() is not None or len(children(self.process.pid)) == workers, what="the workers"
        )
        assert self.process.poll() is None, self.process.stdout.read()
        wait_for(self.listening, what="the workers to listen")

    def listening(self) -> bool:
        """True once every worker listens on the port (each has a listening socket of its own)."""
        port = f":{self.port:04X} "
        listeners = [
            line
            for line in Path("/proc/net/tcp").read_text().splitlines()[1:]
            if line.split()[1].endswith(port.strip()) and line.split()[3] == "0A"
        ]
        return len(listeners) >= self.workers

    def connect(self) -> http.client.HTTPConnection:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=20)
        connection.connect()
        return connection

    def worker_of(self, connection: http.client.HTTPConnection) -> int:
        """The pid of the worker holding this (answered) connection."""
        mine = connection.sock.getsockname()[1]
        wanted = f"0100007F:{self.port:04X} 0100007F:{mine:04X}"
        inode = next(
            line.split()[9]
            for line in Path("/proc/net/tcp").read_text().splitlines()[1:]
            if " ".join(line.split()[1:3]) == wanted
        )
        for pid in children(self.process.pid):
            for fd in Path(f"/proc/{pid}/fd").iterdir():
                try:
                    if os.readlink(fd) == f"socket:[{inode}]":
                        return pid
                except OSError:
                    continue
        raise AssertionError("no worker holds the connection")

    def on_every_worker(self, ask) -> None:
        """Calls ask(connection) on new connections until every worker has answered one."""
        workers = set()
        for _ in range(200):  # the kernel hands each connection to one waiting worker
            connection = self.connect()
            ask(connection)
            workers.add(self.worker_of(connection))
            connection.close()
            if len(workers) == self.workers:
                return
        raise AssertionError(f"only {len(workers)} of {self.workers} workers answered")

    def stop(self) -> str:
        if self.process.poll() is None:
            self.process.terminate()
        out, _ = self.process.communicate(timeout=30)
        return out


@pytest.fixture
def served_workers(home, game):
    server = Served(home)
    yield server
    server.stop()


def request(connection, method: str, path: str, cookie: str = "", body: bytes = b"", kind: str = ""):
    headers = {"Cookie": cookie} if cookie else {}
    if kind:
        headers["Content-Type"] = kind
    connection.request(method, path, body=body or None, headers=headers)
    response = connection.getresponse()
    return response, response.read().decode()


def csrf(page: str) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', page)[1]


def session_cookie(response) -> str:
    """The gm_session cookie the response sets (beside it may be the known-browser cookie)."""
    return next(
        value.split(";", 1)[0] for value in response.headers.get_all("Set-Cookie") if value.startswith("gm_session=")
    )


def sign_in(server: Served, seat: str, secret: str, connection=None):
    """(status, cookie or None) of a sign-in through one connection."""
    connection = connection or server.connect()
    response, page = request(connection, "GET", "/")
    cookie = session_cookie(response)
    form = urlencode({"csrf": csrf(page), "game": "g1", "seat": seat, "secret": secret}).encode()
    response, _ = request(connection, "POST", "/sign-in", cookie, form, "application/x-www-form-urlencoded")
    return response.status, (session_cookie(response) if response.status == 303 else None)


def test_workers_share_the_port_and_each_answers(served_workers):
    seen = set()
    connections = []
    for _ in range(200):  # the kernel hands each connection to one waiting worker
        connection = served_workers.connect()
        response, page = request(connection, "GET", "/")
        assert response.status == 200 and "Sign in" in page
        seen.add(served_workers.worker_of(connection))
        connections.append(connection)
        if len(seen) == 2:
            break
    assert seen == set(children(served_workers.process.pid))
    for connection in connections:
        connection.close()


def test_a_session_and_its_word_hold_on_every_worker(served_workers, game, home):
    status, cookie = sign_in(served_workers, "BR", game["BR"])
    assert status == 303
    workers, submitted = set(), 0
    for n in range(200):
        connection = served_workers.connect()
        response, page = request(connection, "GET", "/", cookie)
        # The same signing key and session register everywhere: any worker takes the session's word for BR.
        assert response.status == 200 and "You are <strong>BR</strong>" in page
        orders = f"GAME g1\nPLAYER BR\nPASSWORD <your secret>\nTURN 1\nCLAIM ENG SCO WAL # {n}\nEND\n"
        form = urlencode({"csrf": csrf(page), "orders": orders, "action": "submit"}).encode()
        response, page = request(connection, "POST", "/orders", cookie, form, "application/x-www-form-urlencoded")
        assert response.status == 200 and "<h2>Submitted</h2>" in page, page
        submitted += 1
        workers.add(served_workers.worker_of(connection))
        connection.close()
        if len(workers) == 2 and submitted >= 4:
            break
    assert len(workers) == 2


def test_failed_sign_ins_are_counted_across_workers(home, game):
    settings = home / "gm.toml"
    settings.write_text(settings.read_text().replace("sign_in_failures = 10", "sign_in_failures = 3"))
    server = Served(home)
    try:
        for _ in range(3):
            assert sign_in(server, "BR", "a-wrong-guess")[0] == 401

        def refused(connection) -> None:
            # With a limit per process, a worker that saw fewer than 3 failures would let this in.
            assert sign_in(server, "BR", game["BR"], connection)[0] == 429

        server.on_every_worker(refused)
    finally:
        server.stop()


@pytest.mark.parametrize(
    "how", ["SIGTERM to gm serve", "Ctrl-C to the terminal's process group", "SIGHUP (the terminal closed)"]
)
def test_sigterm_ctrl_c_and_sighup_stop_every_worker_at_once(home, game, how):
    # Four workers: with a Ctrl-C reaching them as well as gm serve, some hung until killed 10 s on.
    server = Served(home, workers=4)
    for _ in range(3):  # answering, so that a stop finds them at work
        connection = server.connect()
        assert request(connection, "GET", "/")[0].status == 200
        connection.close()
    workers = children(server.process.pid)
    began = time.monotonic()
    if how.startswith("SIGTERM"):
        server.process.send_signal(signal.SIGTERM)
    elif how.startswith("SIGHUP"):
        os.killpg(server.process.pid, signal.SIGHUP)
    else:
        os.killpg(server.process.pid, signal.SIGINT)
    out, _ = server.process.communicate(timeout=30)
    assert time.monotonic() - began < 5, out
    assert "refused to gracefully stop" not in out
    assert server.process.returncode == 0
    assert "Stopped." in out and "Traceback" not in out
    assert not any(alive(pid) for pid in workers)
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", server.port), timeout=1)


def test_a_dead_worker_is_replaced_and_a_killed_parent_leaves_no_orphan(home, game):
    server = Served(home)
    first, second = children(server.process.pid)
    os.kill(first, signal.SIGKILL)
    wait_for(
        lambda: len(children(server.process.pid)) == 2 and first not in children(server.process.pid),
        what="a new worker",
    )
    for _ in range(4):
        connection = server.connect()
        assert request(connection, "GET", "/")[0].status == 200
        connection.close()
    workers = children(server.process.pid)
    assert second in workers
    server.process.kill()  # the parent dies without a word: the workers notice and stop
    server.process.wait(timeout=10)
    wait_for(lambda: not any(alive(pid) for pid in workers), seconds=15, what="the workers to stop")
    assert "gm serve: Unexpected exit from worker-" in server.process.stdout.read()


def test_a_host_name_is_served(home, game):
    server = Served(home, host="localhost")
    try:
        connection = server.connect()
        assert request(connection, "GET", "/")[0].status == 200
        connection.close()
    finally:
        out = server.stop()
    assert f"at http://localhost:{server.port}/" in out and "Traceback" not in out
    assert "put a TLS proxy in front" not in out  # loopback: nobody else reaches it


def test_a_cookie_in_the_servers_environment_signs_nobody_in(home, game):
    """granian starts each request's WSGI environ from os.environ, and werkzeug reads the cookie
    from HTTP_COOKIE: a stray one there must not become every visitor's session."""
    from gm.home import Home
    from gm.web.app import create_app
    from tests.web.conftest import Player

    player = Player(create_app(Home(home)).test_client())
    player.sign_in("BR", game["BR"])
    cookie = next(c for c in player.client._cookies.values() if c.key == "gm_session").value
    assert "You are <strong>BR</strong>" in player.client.get("/").text  # the cookie is good
    server = Served(home, env={"HTTP_COOKIE": f"gm_session={cookie}"})
    try:
        connection = server.connect()
        response, page = request(connection, "GET", "/")  # no Cookie header
        connection.close()
    finally:
        server.stop()
    assert response.status == 200 and "Sign in" in page and "You are <strong>" not in page


def test_an_address_others_reach_is_warned_about(capsys, tmp_path):
    """(A unit test: the tests serve on loopback only.)"""
    from types import SimpleNamespace

    from gm.cli.serve import _started

    home = SimpleNamespace(root=tmp_path)
    for address, warned in [("192.0.2.7", True), ("0.0.0.0", True), ("::", True), ("127.0.0.1", False), ("::1", False)]:
        _started(home, address, address, 8000, "2 workers of 2 threads", can_sign_in=True)
        assert ("put a TLS proxy in front" in capsys.readouterr().out) == warned, address


def test_a_port_in_use_is_one_clear_line(gm, home, game):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        ran = gm("serve", "--port", port, "--workers", "2", home=home)
    assert ran.code == 1
    assert ran.err.startswith(f"Error: cannot listen on 127.0.0.1:{port} (") and "--port" in ran.err
    assert "Traceback" not in ran.err
    ran = gm("serve", "--workers", "0", home=home)
    assert ran.code == 2 and "--workers" in ran.err


def test_two_limiters_on_one_file_count_together_even_in_two_processes(tmp_path):
    path = tmp_path / "limits.db"
    here, there = SignInLimiter(3, 60, path=path), SignInLimiter(3, 60, path=path)
    other_scope = SignInLimiter(3, 60, path=path, scope="link")
    here.failed("address:1")
    there.failed("address:1")
    assert here.blocked("address:1") == 0
    pid = os.fork()
    if pid == 0:  # another worker
        try:
            SignInLimiter(3, 60, path=path).failed("address:1")
        finally:
            os._exit(0)
    os.waitpid(pid, 0)
    assert 59 < here.blocked("address:1") <= 60 and 59 < there.blocked("address:1") <= 60
    assert here.blocked("address:2") == 0 and other_scope.blocked("address:1") == 0
    assert oct(path.stat().st_mode & 0o777) == "0o600"


def test_workers_that_keep_dying_stop_gm_serve_with_a_clear_error(home, game):
    server = Served(home)
    deadline = time.monotonic() + 60
    while server.process.poll() is None and time.monotonic() < deadline:
        for pid in children(server.process.pid):
            os.kill(pid, signal.SIGKILL)  # each new worker dies at once, as a broken one would
        time.sleep(0.05)
    out = server.stop()
    assert server.process.returncode == 1
    assert "Error: the portal's workers keep stopping as soon as they start" in out
    assert "Traceback" not in out


class ReapedByItsWatcher:
    """A granian worker process whose watcher thread reaps it the moment it ends, before the
    exit code is noted: what a loaded machine did between granian's two joins of one worker."""

    def __init__(self):
        self.inner = multiprocessing.get_context("fork").Process(target=time.sleep, args=(60,))
        self.inner.start()
        self.idx, self.killed = 0, False

    def terminate(self):
        self.inner.terminate()
        os.waitpid(self.inner.pid, 0)  # the watcher's waitpid, its exit code not yet noted

    def kill(self):
        self.killed = True
        self.inner.kill()

    def join(self, timeout=None):  # granian's AbstractWorker, which its own stop asks
        self.inner.join(timeout)

    def is_alive(self):
        return self.inner.is_alive()


def test_a_worker_reaped_by_its_watcher_has_stopped_and_is_not_killed(caplog):
    """gm serve stops its workers by their sentinels, not by Process.join and is_alive, which
    took a worker that ended at once for one that refused to stop and killed its pid."""
    from gm.web.server import GRACE_SECONDS, _Server

    server = _Server("gm.web.app:create_app", workers=1, workers_kill_timeout=GRACE_SECONDS)
    worker = ReapedByItsWatcher()
    server.wrks = [worker]
    server._stop_workers()
    assert not worker.killed and "refused to gracefully stop" not in caplog.text
    assert server.wrks == [] and not alive(worker.inner.pid)
