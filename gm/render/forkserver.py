"""The render workers' fork server: a process that imports WeasyPrint and CairoSVG once, from which each worker forks.

Apart from gm.render.pool so that it can be started before anything heavy is imported (gm turn
run starts it first thing, gm/cli/__init__.py): it needs only the standard library and
gm.render.worker's list of modules to preload.
"""

from __future__ import annotations

import multiprocessing
import os
from multiprocessing import forkserver
from multiprocessing.context import ForkServerContext, SpawnContext

from gm.render.worker import WARM_MODULES


def warm_up() -> None:
    """Start the workers' fork server now, ahead of the first pool: it imports WeasyPrint and
    CairoSVG (about 1.2 s of CPU) while the caller does its own work (gm turn run resolves the
    turn meanwhile), so the first workers can start as soon as the reports are ready. Idempotent."""
    context()


def context() -> ForkServerContext | SpawnContext:
    # forkserver: workers fork from a small clean process that has WeasyPrint (and CairoSVG, for
    # the map pictures: gm.render.pictures) imported already, so a worker starts in milliseconds
    # and inherits neither the caller's memory nor its threads. spawn where forkserver does not exist.
    if "forkserver" in multiprocessing.get_all_start_methods():
        forking = multiprocessing.get_context("forkserver")
        # __main__ too: a worker would then find the main module (the gm script) imported
        # already. Python 3.11's fork server skips it (it looks for the main module's path
        # under the wrong name), so a worker runs the gm script again as it starts: little, as
        # gm.cli imports its commands lazily (bench/README.md, "the start-up before and after").
        forking.set_forkserver_preload(["__main__", "gm.render.worker", *WARM_MODULES])
        _start_fork_server()
        return forking
    return multiprocessing.get_context("spawn")


def _start_fork_server() -> None:
    """Start the fork server now, leaving the current folder out of its import path.

    The fork server is a `python -c` started in the current folder, and Python 3.11's does not
    take the parent's sys.path: run from a folder that holds another `gm` (a checkout of another
    version), the workers imported that one and died. PYTHONSAFEPATH (python -P) leaves the
    current folder out; it is set only while the server starts (once per process)."""
    before = os.environ.get("PYTHONSAFEPATH")
    os.environ["PYTHONSAFEPATH"] = "1"
    try:
        forkserver.ensure_running()
    finally:
        if before is None:
            del os.environ["PYTHONSAFEPATH"]
        else:
            os.environ["PYTHONSAFEPATH"] = before
