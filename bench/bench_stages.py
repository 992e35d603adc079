"""Where one seat's report goes in a render worker, stage by stage, in CPU time (issue 32).

    .venv/bin/python bench/bench_stages.py                          # Empires of 16 and Imperials of 4, turn 10
    .venv/bin/python bench/bench_stages.py --turns 3 --rounds 3 empires

One game of each ruleset named (bench_cycle.py's sizes), `--turns` turns played by robots, the
last turn's report of its first seat with a region map made as gm run-due makes it. Then, in this
one process, `--rounds` times each, the CPU time (time.process_time) of what making that PDF takes:

- **board**: drawing the job's whole-map picture (gm.render.pictures._draw: CairoSVG and the
  palette PNG) afresh: a worker draws it once a turn and hands it on;
- **region raster**: drawing the raster of the whole board each seat's region is cut from
  (pictures._board), afresh: once a turn in each worker (0 where the code has none, before
  issue 32);
- **picture**: the seat's own region picture, as a worker makes it once the turn's raster is
  drawn: cut from it (pictures._cut), or, before issue 32, drawn on its own by CairoSVG (_draw);
- **JSON twin**: json.dumps(indent=2, sort_keys=True) of the seat's JSON report (the gm process
  does this, not the worker; shown for its size beside the rest);
- **turn pages**: laying out and writing the turn's pages every seat shares (a worker does this
  once per turn);
- **layout**: WeasyPrint's layout of the seat's own document (parse, style, line breaking);
- **drawing**: writing the laid-out document as a PDF, and laying the turn's pages over it;
- **whole**: Renderer.write on the drawn job, as a worker does it after the first seat of the
  turn (its turn pages and the pictures ready).

The first round warms the process (fonts, style sheets) and is not counted.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import statistics
import tempfile
import time
from pathlib import Path

import weasyprint

from gm.clock import SystemClock
from gm.home import Home, create_home
from gm.render import pdf, pictures, turnpages
from gm.render.fetcher import AssetFetcher
from gm.render.worker import Renderer, drawn
from gm.rulesets import get_ruleset
from gm.services import games, turns
from gm.services.reports import turn_pages
from gm.store import records
from gm.store.database import open_database

SIZES = {"empires": 16, "conqueror": 8, "clash": 4}


def seat_job(root: Path, ruleset: str, played: int):
    """The RenderJob of the first seat with a region map, of the last of `played` robot turns, its
    JSON, and the asset folders."""
    home = Home(root / ruleset)
    create_home(home)
    db = open_database(home.database)
    clock = SystemClock()
    games.create_game(db, clock, "g", ruleset, None, 7)
    for i in range(SIZES.get(ruleset, get_ruleset(ruleset).demo_seats)):
        games.join_game(db, clock, "g", f"p{i}@players.example.org", f"Player {i}")
    for _ in range(played):
        if records.game_by_name(db, "g").status != "over":
            turns.run_turn(db, home, clock, "g")
    pages = turn_pages(db, home, "g")
    db.conn.close()
    seat = next((i for i, job in enumerate(pages.jobs) if _region(job) is not None), 0)
    return pages.jobs[seat], pages.jsons[seat][1], tuple(str(d) for d in pages.asset_dirs)


def _region(job):
    """The job's region picture (the one its "map-region" section shows), or None."""
    found = re.search(r'<section class="map map-region">.*?src="([^"]+)"', job.html, re.S)
    return next((p for p in job.pictures if found and p.reference == found[1]), None)


def stages(job, twin: bytes, dirs: tuple[str, ...], out: Path) -> dict[str, float]:
    """CPU seconds of each stage of one seat's PDF, once."""
    spent: dict[str, float] = {}

    def clock(stage: str, start: float) -> float:
        now = time.process_time()
        spent[stage] = spent.get(stage, 0.0) + now - start
        return now

    region = _region(job)
    start = time.process_time()
    for picture in job.pictures:
        if picture is not region:
            pictures._draw(picture.svg, picture.width_mm)
    start = clock("board", start)
    crop = getattr(region, "crop", None)  # the code before issue 32 has none
    if crop is not None:
        pictures._boards.clear()
        pictures._board(region.svg, crop.scale)
    start = clock("region raster", start)
    if region is not None:
        pictures._cut(region) if crop is not None else pictures._draw(region.svg, region.width_mm)
    start = clock("picture", start)
    json.dumps(json.loads(twin), indent=2, sort_keys=True, ensure_ascii=False)
    start = clock("JSON twin", start)
    ready = drawn(job)
    fetcher, cache = AssetFetcher(dirs), Renderer().images.cache_for(ready.images)
    parts = turnpages.split(ready.html)
    start = time.process_time()
    turn = None
    if parts is not None:
        turn = pdf._turn_document(parts.turn_html, "stages", ready.base_url, fetcher, cache)
        start = clock("turn pages", start)
    seat_html = turnpages.place_blank_pages(parts.seat_html, turn) if parts and turn else ready.html
    document = pdf._layout(seat_html, ready.base_url, fetcher, cache)
    start = clock("layout", start)
    written = pdf._write(document, ready.created, ready.identifier)
    if parts is not None and turn is not None:
        turnpages.lay_over(written, turn, turnpages.blank_places(document, turn.pages), parts.readers)
    start = clock("drawing", start)
    renderer = Renderer()
    renderer.write(
        ready.__class__(ready.html, ready.base_url, ready.created, ready.identifier, out, ready.images), dirs
    )
    renderer.write(
        ready.__class__(ready.html, ready.base_url, ready.created, ready.identifier, out, ready.images), dirs
    )
    start = time.process_time()
    renderer.write(
        ready.__class__(ready.html, ready.base_url, ready.created, ready.identifier, out, ready.images), dirs
    )
    clock("whole", start)
    spent["boxes"] = sum(1 for page in document.pages for _ in _boxes(page._page_box))
    spent["pages"] = len(document.pages) + (turn.pages if turn else 0)
    return spent


def _boxes(box):
    """Every box of a laid-out page (WeasyPrint's tree), the page's own included."""
    yield box
    for child in getattr(box, "children", ()):
        yield from _boxes(child)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rulesets", nargs="*", default=["empires", "imperials"])
    parser.add_argument("--turns", type=int, default=10, help="turns the robots play (default 10)")
    parser.add_argument("--rounds", type=int, default=4, help="rounds counted after one to warm up (default 4)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="gm-bench-stages-") as folder:
        print(
            f"python {platform.python_version()}, weasyprint {weasyprint.__version__}, {os.cpu_count()} CPUs, "
            f"load average {os.getloadavg()[0]:.1f}; turn {args.turns}, first seat, CPU ms, median of {args.rounds}"
        )
        for ruleset in args.rulesets:
            job, twin, dirs = seat_job(Path(folder), ruleset, args.turns)
            runs = [stages(job, twin, dirs, Path(folder) / "seat.pdf") for _ in range(args.rounds + 1)][1:]
            median = {stage: statistics.median(run[stage] for run in runs) for stage in runs[0]}
            timed = ", ".join(
                f"{stage} {median[stage] * 1000:.0f}" for stage in median if stage not in ("boxes", "pages")
            )
            print(
                f"{ruleset:>10} {job.identifier}: {timed}; {median['pages']:.0f} pages, {median['boxes']:.0f} boxes in the seat's "
                f"own pages ({median['layout'] * 1e6 / median['boxes']:.0f} us of layout a box), "
                f"JSON {len(twin) // 1000} KB, {len(job.pictures)} pictures"
            )


if __name__ == "__main__":
    main()
