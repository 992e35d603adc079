"""Long work shows a live progress line (rich) on a terminal and plain lines in a log.

rich is imported inside the functions that draw, and only on a terminal: it costs about 55 ms of
a command's start, which cron, a pipe and the tests would pay for nothing."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Protocol

from gm.cli.shown import echo, shown


class Advance(Protocol):
    """What counting() yields: advance(n=1) counts n more done."""

    def __call__(self, n: int = 1) -> None: ...


def live() -> bool:
    """Whether to draw: only when both output streams are a terminal. Cron, a pipe, a log file
    and the tests see plain text only, never a bar's control codes."""
    return sys.stdout.isatty() and sys.stderr.isatty()


@contextmanager
def progress(label: str) -> Iterator[Callable[[str], None]]:
    """Yields step(message): on a terminal it updates one live line with a spinner and the time
    taken; otherwise (cron, a log file, a pipe) each message is printed on its own line."""
    if not live():
        yield echo
        return
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    with Progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(), transient=True) as bar:
        task = bar.add_task(label)

        def step(message: str) -> None:
            bar.update(task, description=f"{label}: {shown(message)}")
            bar.console.print(shown(message), highlight=False, markup=False)

        yield step


@contextmanager
def counting(label: str, total: int | None = None) -> Iterator[Advance]:
    """Yields advance(n=1): a bar of done out of total (a running count when the total is not
    known), with the time taken, on standard error and only on a terminal; a no-op otherwise.
    It is transient: what the command prints is the same with or without it."""
    if not live():
        yield _count_nothing
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    with Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
    ) as bar:
        task = bar.add_task(label, total=total)

        def advance(n: int = 1) -> None:
            bar.advance(task, n)

        yield advance


def _count_nothing(n: int = 1) -> None:
    """counting's advance where nothing is drawn."""


# What working() was last told the command is doing ("resolving turn 3"), for the line gm prints
# when the GM stops a command with Ctrl-C (gm.cli.main); empty when no step was named.
doing: list[str] = []


def _now(what: str) -> None:
    doing[:] = [what]


@contextmanager
def working(label: str) -> Iterator[Callable[[str], None]]:
    """Yields now(what): on a terminal a live line on standard error (a spinner, the label, what
    is being done now and the time taken), so a command that works for seconds is not silent;
    a no-op otherwise. It is transient, and the command's own lines stay on standard output.
    Either way what is being done is kept in `doing`, for the line an interruption prints."""
    if not live():
        yield _now
        doing.clear()
        return
    from rich.console import Console
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    with Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
    ) as line:
        task = line.add_task(label)

        def now(what: str) -> None:
            _now(what)
            line.update(task, description=f"{label}: {what}")

        yield now
    doing.clear()
