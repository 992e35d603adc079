"""Where a render worker's CPU goes, stage by stage, counted in every job it renders (issue 32).

A worker reads each stage's CPU (time.process_time: the process's own, user and system) as it
renders a job and returns the seconds in the job's RenderResult; a pool sums them over its run.
A few clock reads a job, nothing written: it is always on. The stages, in a job's order:

  start       the worker's own start (its fork's bootstrap, its renderer made, its heap set up),
              counted with its first job
  between     what the worker did after answering its last job: the answer written, the
              report's garbage collected, the heap trimmed (counted with the next job; the last
              job's is in no stage)
  read        the job read from its file and unpickled (its HTML, pictures, turn pages)
  pictures    the job's map pictures drawn, cropped from a board raster or packed
  turn_pages  the turn's pages laid out and written, when this job lays them out (once a turn a
              run: gm.render.turnpages)
  layout      WeasyPrint's parse and layout of the seat's own document (blank blocks where the
              turn's pages go)
  drawing     WeasyPrint's writing of the seat's own document as a PDF
  overlay     the turn's pages placed, laid over the seat's PDF and its reader's rows tinted
              (pikepdf)
  store       the PDF written to its file and hashed
  kit         the seat's turn kit, when the worker makes it
  rest        what make() did besides the stages above (the HTML split, the budget's timer)

With GM_RENDER_STAGES naming a file, a pool appends its sums there as it closes, one JSON
object a line ({"jobs": N, "workers": N, "seconds": {stage: CPU-s}}): bench/bench_cycle.py
reads them from the `gm run-due` it runs. Unset, nothing is written.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

__all__ = ["ENV", "STAGES", "Stages", "add_to", "write_sums"]

STAGES = (
    "start",
    "between",
    "read",
    "pictures",
    "turn_pages",
    "layout",
    "drawing",
    "overlay",
    "store",
    "kit",
    "rest",
)
ENV = "GM_RENDER_STAGES"


class Stages:
    """The CPU seconds of one job's stages, as they are counted."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}

    def add(self, name: str, seconds: float) -> None:
        assert name in STAGES, name
        self.seconds[name] = self.seconds.get(name, 0.0) + max(0.0, seconds)

    @contextmanager
    def count(self, name: str) -> Iterator[None]:
        """Count the CPU of the block under `name` (added to what it has, if it ran before)."""
        start = time.process_time()
        try:
            yield
        finally:
            self.add(name, time.process_time() - start)

    def total(self) -> float:
        return sum(self.seconds.values())


def add_to(sums: dict[str, float], seconds: Mapping[str, float]) -> None:
    """Add one job's stages to a run's sums."""
    for name, value in seconds.items():
        sums[name] = sums.get(name, 0.0) + value


def write_sums(jobs: int, workers: int, sums: Mapping[str, float]) -> None:
    """Append a run's sums to the file GM_RENDER_STAGES names, if it names one."""
    target = os.environ.get(ENV)
    if not target or not jobs:
        return
    line = json.dumps({"jobs": jobs, "workers": workers, "seconds": dict(sums)}, sort_keys=True)
    with Path(target).open("a", encoding="utf-8") as out:
        out.write(line + "\n")
