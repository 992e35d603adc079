"""Serving the portal with waitress: a pure-Python, threaded WSGI server with bounded request sizes.

One process runs Python on one core at a time, so `gm serve --workers N` binds the port once and
forks N worker processes that each run waitress on the shared listening socket (the kernel hands
each new connection to one of them). What the workers must agree on is shared: the session key
(portal.key in the home, read before the fork), failed sign-ins (an SQLite file in the home) and
the secrets of signed-in sessions (memory mapped before the fork, never on disk). The parent only
forwards Ctrl-C and SIGTERM, starts a worker again if one dies, and reaps them all.
"""
from __future__ import annotations

import os
import signal
import socket
import sys
import threading
import time

from gm.clock import Clock
from gm.errors import GMError
from gm.home import Home
from gm.web.app import create_app


def make_server(home: Home, host: str, port: int, threads: int = 8, clock: Clock | None = None, app=None,
                sock: socket.socket | None = None):
    """A waitress server for the portal of `home`, bound and ready; .run() serves, .close() stops.

    port 0 picks a free port: read it back from .effective_port. With `sock` (a bound, listening
    socket) it serves that socket instead of binding host and port.
    """
    from waitress import create_server

    app = app or create_app(home, clock)
    where = {"sockets": [sock]} if sock is not None else {"host": host, "port": port}
    try:
        return create_server(app, threads=threads, ident="gm", max_request_body_size=app.config["MAX_CONTENT_LENGTH"],
                             clear_untrusted_proxy_headers=True, **where)
    except OSError as exc:
        raise GMError(f"cannot listen on {host}:{port} ({exc.strerror}). Choose another --port or --host.")
    except ValueError:
        raise GMError(f"cannot listen on {host}:{port}: not a host and port this machine has. "
                      "Use an address such as 127.0.0.1 and a port from 1 to 65535.")


def listening_socket(host: str, port: int, backlog: int = 1024) -> socket.socket:
    """A TCP socket bound to host:port and listening, for the workers to share."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError, OverflowError):
        infos = []
    if not infos:
        raise GMError(f"cannot listen on {host}:{port}: not a host and port this machine has. "
                      "Use an address such as 127.0.0.1 and a port from 1 to 65535.")
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(backlog)
    except OSError as exc:
        sock.close()
        raise GMError(f"cannot listen on {host}:{port} ({exc.strerror}). Choose another --port or --host.")
    sock.set_inheritable(True)
    return sock


def can_fork_workers() -> bool:
    """Workers need fork and sigtimedwait (Linux, the BSDs; not Windows, not macOS)."""
    return hasattr(os, "fork") and hasattr(signal, "sigtimedwait")


def default_workers() -> int:
    """One worker per CPU this process may use; 1 where workers cannot be forked."""
    if not can_fork_workers():
        return 1
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


class Workers:
    """N forked worker processes serving one listening socket, watched by this (parent) process."""

    STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
    # A worker that dies this soon after it started, this many times in a row, is not started again.
    QUICK_DEATH, QUICK_DEATHS = 2.0, 5

    def __init__(self, home: Home, sock: socket.socket, workers: int, threads: int, clock: Clock | None = None,
                 log=None):
        if not can_fork_workers():
            raise GMError("--workers above 1 needs Linux or a BSD; on this system use --workers 1.")
        self.home, self.sock, self.count, self.threads = home, sock, workers, threads
        # Made once here, before the fork: every worker signs cookies with the same key and shares
        # the secrets vault; no thread and no database connection is open at the fork.
        self.app = create_app(home, clock)
        self.log = log or (lambda text: print(text, file=sys.stderr, flush=True))
        self.children: dict[int, float] = {}  # pid: when it started
        self._quick = 0

    def run(self) -> None:
        """Start the workers and watch them until Ctrl-C or SIGTERM; then stop them all.

        Raises GMError when workers keep stopping as soon as they start."""
        watched = {*self.STOP_SIGNALS, signal.SIGCHLD}
        signal.pthread_sigmask(signal.SIG_BLOCK, watched)  # taken one at a time below, never mid-step
        try:
            for _ in range(self.count):
                self._start_one()
            while True:
                received = signal.sigtimedwait(watched, 1.0)
                if received is not None and received.si_signo in self.STOP_SIGNALS:
                    return
                if not self._reap(restart=True):
                    raise GMError("the portal's workers keep stopping as soon as they start (see above); "
                                  "gm serve stopped. Fix what they report, or try --workers 1.")
        finally:
            self.stop()
            signal.pthread_sigmask(signal.SIG_UNBLOCK, watched)

    def stop(self, grace: float = 10.0) -> None:
        """SIGTERM to every worker (each finishes what it is answering), then wait; SIGKILL after `grace`."""
        for pid in list(self.children):
            _signal(pid, signal.SIGTERM)
        deadline = time.monotonic() + grace
        while self.children and time.monotonic() < deadline:
            self._reap(restart=False)
            time.sleep(0.02)
        for pid in list(self.children):
            _signal(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            del self.children[pid]

    def _start_one(self) -> None:
        parent = os.getpid()
        pid = os.fork()
        if pid == 0:  # the worker
            code = 1
            try:
                code = _work(self.app, self.home, self.sock, self.threads, parent)
            except KeyboardInterrupt:
                code = 0
            except BaseException as exc:  # noqa: BLE001 - a worker says why it stopped, then leaves
                self.log(f"gm serve worker {os.getpid()}: {exc}")
            finally:
                os._exit(code)
        self.children[pid] = time.monotonic()

    def _reap(self, restart: bool) -> bool:
        """Collect workers that stopped; start others when `restart`. False when they keep dying."""
        while self.children:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                self.children.clear()
                break
            if pid == 0:
                break
            started = self.children.pop(pid, None)
            if started is None or not restart:
                continue
            how = (f"signal {os.WTERMSIG(status)}" if os.WIFSIGNALED(status) else f"exit {os.WEXITSTATUS(status)}")
            self._quick = self._quick + 1 if time.monotonic() - started < self.QUICK_DEATH else 0
            if self._quick >= self.QUICK_DEATHS:
                self.log(f"gm serve: worker {pid} stopped ({how}), again just after it started.")
                return False
            self.log(f"gm serve: worker {pid} stopped ({how}); starting another.")
            self._start_one()
        return True


def _signal(pid: int, number: int) -> None:
    try:
        os.kill(pid, number)
    except ProcessLookupError:
        pass


def _work(app, home: Home, sock: socket.socket, threads: int, parent: int) -> int:
    """One worker: waitress on the shared socket until SIGTERM, Ctrl-C or the parent's end."""
    for number in Workers.STOP_SIGNALS:
        # waitress's run() takes KeyboardInterrupt as "stop": it lets the requests being answered
        # finish (up to 5 s), as a single `gm serve` does on Ctrl-C.
        signal.signal(number, _interrupt)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    server = None
    try:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {*Workers.STOP_SIGNALS, signal.SIGCHLD})
        if os.getppid() != parent:
            return 0  # the parent is gone already
        server = make_server(home, "", 0, threads, app=app, sock=sock)

        def orphaned() -> None:
            # If the parent is killed outright it cannot stop us: stop on our own, never linger.
            while os.getppid() == parent:
                time.sleep(0.5)
            os.kill(os.getpid(), signal.SIGTERM)

        threading.Thread(target=orphaned, daemon=True, name="gm-parent-watch").start()
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        for number in Workers.STOP_SIGNALS:
            signal.signal(number, signal.SIG_IGN)
        if server is not None:
            server.close()
    return 0


def _interrupt(number, frame) -> None:
    raise KeyboardInterrupt()
