"""Serving the portal with granian: HTTP handled in Rust, the Flask app in worker processes.

Python runs one core per process, so `gm serve` starts `--workers` processes (forked from this
one, each listening on the port; the kernel spreads new connections over them) that each read
request bodies on their event loop (gm/web/bodies.py: a client that stalls holds no thread) and
answer forms in `--threads` Python threads. Measured on the portal's own load (bench/README.md), granian's
Rust HTTP costs less CPU per request than a Python server and does not slow down as connections
pile up, which is what lets two CPUs take the target load.

What the workers must agree on is made here, before the fork: the session key (portal.key in the
home) and the signed-in sessions and failed sign-ins (SQLite files in the home). Ctrl-C or
SIGTERM stops them all (each finishes what it is answering); a
worker that dies is started again; workers that keep dying stop `gm serve` with a clear error; a
worker whose parent is killed outright stops on its own.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import resource
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable
from multiprocessing.connection import wait

from granian.constants import HTTPModes, Interfaces
from granian.http import HTTP1Settings
from granian.log import LogLevels
from granian.server.mp import MPServer

from gm.clock import Clock
from gm.errors import GMError
from gm.home import Home
from gm.web.app import create_app
from gm.web.bodies import WholeBodies

_granian_log = logging.getLogger("_granian")  # granian's own logger: its messages all read alike (_LOGGING)
# How long a stopping worker may take to finish what it is answering before it is killed.
GRACE_SECONDS = 10
# How long a request's body may take to arrive after its headers ([portal] body_seconds).
BODY_SECONDS = 60


# Open files (connections among them) a worker should be allowed at least; below it `gm serve`
# says so when it starts. Each connection is a file, idle ones too, until header_read_timeout
# (30 s) closes one that sends nothing.
OPEN_FILES_WANTED = 16_384
# Files a worker keeps for itself (the database, reports, templates, the pipes of its threads)
# beyond the connections it takes.
OWN_FILES = 256
# The most connections a worker holds at once (granian's "backpressure"; it takes no more from
# the kernel's queue until one closes). granian's own default, backlog / workers (512 for two),
# let 1,100 connections that send nothing keep every player out.
MOST_CONNECTIONS = 65_536


def default_workers() -> int:
    """One worker per CPU this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


def claim_port(host: str, port: int) -> tuple[str, int]:
    """The address (an IP address, also for a name such as localhost: granian binds no names) and
    the port `gm serve` will listen on, checked free now (0: a free one is chosen); one clear
    GMError for an address this machine does not have or a port that is taken."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError, OverflowError):
        infos = []
    if not infos:
        raise GMError(
            f"cannot listen on {host}:{port}: not a host and port this machine has. "
            "Use an address such as 127.0.0.1 and a port from 1 to 65535."
        )
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        try:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(address)
            probe.listen(1)
        except OSError as exc:
            raise _taken(host, port, exc) from exc
        return str(address[0]), int(probe.getsockname()[1])


def _taken(host: str, port: int, exc: OSError) -> GMError:
    return GMError(f"cannot listen on {host}:{port} ({exc.strerror}). Choose another --port or --host.")


def serve(
    home: Home,
    host: str,
    port: int,
    workers: int,
    threads: int,
    clock: Clock | None = None,
    started: Callable[[str, int], None] = lambda address, port: None,
) -> None:
    """Serve the portal of `home` until Ctrl-C, SIGTERM or SIGHUP; `started(address, port)` is
    called once the port is known to be free. Raises GMError for a port that cannot be had, or when workers
    keep stopping as soon as they start."""
    if not hasattr(os, "fork"):
        raise GMError("gm serve needs a system with fork (Linux or a BSD).")
    # The workers are forked, so they inherit the app made here (granian forks when this is the
    # start method; Python 3.14 changes the default on Linux, so it is set, for this process only).
    multiprocessing.set_start_method("fork", force=True)
    address, port = claim_port(host, port)
    # (granian raises the soft limit of open files to the hard one when it is imported)
    files = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    if files < OPEN_FILES_WANTED:
        print(  # (before granian sets up its log) as granian's own messages read: docs/portal.md
            f"gm serve: each worker may hold only {files:,} open files and connections (the system's hard limit); "
            f"a few thousand idle connections could keep players out. Raise it to {OPEN_FILES_WANTED:,} "
            "or more (LimitNOFILE= in a systemd unit, 'ulimit -Hn' in a shell): docs/portal.md, Security.",
            file=sys.stderr,
        )
    flask_app = create_app(home, clock)
    app = WholeBodies(
        flask_app, threads, home.setting("portal", "body_seconds", BODY_SECONDS), flask_app.config["MAX_CONTENT_LENGTH"]
    )
    server = _Server(
        "gm.web.app:create_app",  # only named in granian's messages: the app is the one made above
        # RSGI: the body is read on the worker's event loop (gm/web/bodies.py), the app runs in
        # `threads` threads of WholeBodies's own; granian's blocking thread only runs the loop.
        address=address,
        port=port,
        interface=Interfaces.RSGI,
        workers=workers,
        blocking_threads=1,
        runtime_threads=1,
        http=HTTPModes.http1,
        http1_settings=HTTP1Settings(header_read_timeout=30_000),
        websockets=False,
        backlog=1024,
        backpressure=max(64, min(files - OWN_FILES, MOST_CONNECTIONS)),
        respawn_failed_workers=True,
        workers_kill_timeout=GRACE_SECONDS,
        log_level=LogLevels.warning,
        log_dictconfig=_LOGGING,
        log_access=False,
    )
    parent = os.getpid()
    started(address, port)
    try:
        # granian types the loader as making a callable, as an ASGI or WSGI app is; an RSGI app is
        # any object with __rsgi__ (wrap_loader=False: granian uses what it returns as it is).
        server.serve(target_loader=lambda *_: _in_worker(app, parent), wrap_loader=False)  # type: ignore[arg-type]
    except OSError as exc:  # the port was taken between the check and granian's bind
        raise _taken(host, port, exc) from None
    except SystemExit as exc:  # granian's way to say it gave up
        if exc.code:
            raise GMError(
                "the portal's workers keep stopping as soon as they start (see above); "
                "gm serve stopped. Fix what they report."
            ) from None


class _Server(MPServer):
    """granian's server (of worker processes: `granian.Granian` on a Python with a GIL), stopped
    (not reloaded) by SIGHUP, as when the terminal that ran it closes, and stopping its workers
    without granian's race (_stop_workers).

    granian leaves the methods called here unannotated, hence their `no-untyped-call` ignores."""

    def signal_handler_reload(self, *args: object, **kwargs: object) -> None:
        self.signal_handler_interrupt(*args, **kwargs)  # type: ignore[no-untyped-call]

    def _stop_workers(self) -> None:
        """SIGTERM to every worker, GRACE_SECONDS for them all to end, then SIGKILL to any left.

        granian's own stop asks Process.join and is_alive whether a worker ended, while a watcher
        thread of its own joins the same process: when the watcher reaps the worker first, the
        stop finds neither the process nor its exit code, takes a worker that ended at once for
        one that "refused to gracefully stop", and kills a pid that is no longer its worker
        (seen at a load of 10 on 2 cores). A worker's sentinel closes when it ends, whoever
        reaps it, so this waits on that."""
        for worker in self.wrks:
            worker.terminate()  # type: ignore[no-untyped-call]
        deadline = time.monotonic() + GRACE_SECONDS
        for worker in self.wrks:
            if not wait([worker.inner.sentinel], max(deadline - time.monotonic(), 0)):
                _granian_log.warning(f"Killing worker-{worker.idx + 1} after it refused to gracefully stop")
                worker.kill()  # type: ignore[no-untyped-call]
                wait([worker.inner.sentinel])
            worker.inner.join()  # reaps it if the watcher has not; returns at once if it has
        self.wrks.clear()


# Request variables a server's own environment should never carry: a WSGI server may start each
# request's environ from os.environ (granian's WSGI interface does; gm's bridge does not), and
# werkzeug would take an HTTP_COOKIE from there, for instance.
_REQUEST_NAMES = (
    "CONTENT_LENGTH",
    "CONTENT_TYPE",
    "QUERY_STRING",
    "REMOTE_ADDR",
    "REQUEST_METHOD",
    "PATH_INFO",
    "SCRIPT_NAME",
    "SERVER_NAME",
    "SERVER_PORT",
    "SERVER_PROTOCOL",
)


def _in_worker(app: WholeBodies, parent: int) -> WholeBodies:
    """Runs in each worker as it starts, before granian calls the app: out of the terminal's
    process group (Ctrl-C reaches only `gm serve`, which stops the workers one way, with SIGTERM),
    never outliving the parent, and no request variables in the environment."""
    os.setpgid(0, 0)
    for name in [n for n in os.environ if n.startswith("HTTP_") or n in _REQUEST_NAMES]:
        del os.environ[name]

    def orphaned() -> None:
        # If the parent is killed outright it cannot stop us: stop on our own, never linger.
        while os.getppid() == parent:
            time.sleep(0.5)
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=orphaned, daemon=True, name="gm-parent-watch").start()
    return app


# granian's messages (a worker that died, a crash loop) on stderr, said as gm's own; no access log.
_LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"gm": {"()": "logging.Formatter", "fmt": "gm serve: %(message)s"}},
    "handlers": {"gm": {"formatter": "gm", "class": "logging.StreamHandler", "stream": "ext://sys.stderr"}},
    "loggers": {
        "_granian": {"handlers": ["gm"], "level": "WARNING", "propagate": False},
        "granian.access": {"handlers": ["gm"], "level": "WARNING", "propagate": False},
    },
}
