"""What one report may take of a render worker: pages and CPU; and a stopped worker told from a slow one.

A report that would run past MAX_PAGES pages, or take more than MAX_CPU_SECONDS of CPU, is not
made: the render raises OverBudget, and publishing gives that seat a short report saying so
while the rest of the game goes out (gm/services/reports.py). The CPU is counted, not the wall
clock, so a loaded machine (a worker given 4 % of a core) is never taken for a runaway report.
A worker whose CPU time does not move for STALL_SECONDS while it renders (stopped with SIGSTOP,
or stuck waiting on something) has made no progress: the pool kills it and tries the report once
more in a new worker (gm/render/pool.py). On the busiest machine measured (load 31 on 2 cores, a
worker at 2 % of a core) the longest wait between two ticks of a worker's CPU time was 1.9 s
(bench/README.md, "a stopped worker and a slow one").

Numbers measured with bench/bench_press.py (bench/README.md, "press in a report"): a normal
report of any ruleset is 4-9 pages and 0.2-0.7 CPU-s; one with its press budget full at most 18
pages and 1.1 CPU-s. The budget leaves three times the pages and 25 times the CPU for a slower
machine and a bigger scenario.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import FrameType
from typing import TYPE_CHECKING, NoReturn

if TYPE_CHECKING:
    from sys import UnraisableHookArgs

MAX_PAGES = 60
MAX_CPU_SECONDS = 30.0
STALL_SECONDS = 30.0
# A worker past its CPU budget stops itself (a timer in it); one stuck in C code, where the timer
# cannot reach it, is killed by the pool this much CPU later.
KILL_AFTER = 5.0

_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


@dataclass(frozen=True)
class RenderBudget:
    """What one report may take: pages, CPU seconds, and seconds without any CPU progress; and
    whether it is a tagged PDF (PDF/UA-1, 9-15 % of its CPU: bench/README.md, "Tagged
    reports"), which travels with the budget from gm.toml's [reports] to every worker."""

    pages: int = MAX_PAGES
    cpu_seconds: float = MAX_CPU_SECONDS
    stall_seconds: float = STALL_SECONDS
    tagged: bool = True


DEFAULT_BUDGET = RenderBudget()


class OverBudget(Exception):  # noqa: N818 (a report over its budget is not an error of gm's)
    """A report that would take more than its budget; why: in the GM's words."""

    def __init__(self, identifier: str, why: str):
        super().__init__(identifier, why)
        self.identifier, self.why = identifier, why

    def __str__(self) -> str:
        return f"{self.identifier}: {self.why}"


def over_cpu(identifier: str, seconds: float) -> OverBudget:
    return OverBudget(identifier, f"it took more than {seconds:g} s of CPU to lay out")


def cpu_seconds(pid: int) -> float | None:
    """A process's CPU time so far (user and system), or None where it cannot be read (no /proc)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / _TICKS


def process_state(pid: int) -> str:
    """How a process stands, in words for the GM (/proc's state letter): stopped, sleeping, ..."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            letter = stat.read().rsplit(b")", 1)[1].split()[0].decode()
    except (OSError, IndexError):
        return "unknown"
    return {"T": "stopped", "t": "stopped", "S": "sleeping", "D": "waiting on the disk", "R": "running"}.get(
        letter, letter
    )


@contextmanager
def cpu_limit(seconds: float, identifier: str) -> Iterator[None]:
    """Raise OverBudget in this thread once the process has used `seconds` more CPU (a profiling
    timer, SIGPROF). Only the main thread gets signals: elsewhere this does nothing (the pool's
    workers render in their main thread; gm itself renders in-process only with one worker).

    A signal's handler runs wherever Python is: in a gc callback or an object's finaliser its
    exception is only reported ("Exception ignored in ...") and the render goes on, and code that
    catches every Exception would swallow it too. Once raised, the report is over its budget
    whatever became of the exception: it is raised again when the block ends, and its report of
    an ignored exception is left unprinted."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return
    raised: list[OverBudget] = []

    def over(signum: int, frame: FrameType | None) -> NoReturn:
        raised.append(over_cpu(identifier, seconds))
        raise raised[-1]

    def unraisable(ignored: UnraisableHookArgs) -> None:
        if not any(ignored.exc_value is made for made in raised):
            hook_before(ignored)

    before = signal.signal(signal.SIGPROF, over)
    hook_before, sys.unraisablehook = sys.unraisablehook, unraisable
    # Again every CPU-second after the first: should the first land where it is swallowed (a
    # callback from C), the next still stops the render.
    signal.setitimer(signal.ITIMER_PROF, seconds, 1.0)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, before)
        sys.unraisablehook = hook_before
    if raised:  # the block ended as if within its budget: each raise was swallowed where it landed
        raise raised[0]
