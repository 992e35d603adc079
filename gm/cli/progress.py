"""Long work shows a live progress line (rich) on a terminal and plain lines in a log."""
from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import typer


@contextmanager
def progress(label: str) -> Iterator[Callable[[str], None]]:
    """Yields step(message): on a terminal it updates one live line with a spinner and the time
    taken; otherwise (cron, a log file, a pipe) each message is printed on its own line."""
    if not sys.stderr.isatty():
        yield typer.echo
        return
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    with Progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(),
                  transient=True) as bar:
        task = bar.add_task(label)

        def step(message: str) -> None:
            bar.update(task, description=f"{label}: {message}")
            bar.console.print(message, highlight=False)

        yield step
