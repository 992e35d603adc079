"""One render worker: takes jobs from its pipe, draws their map pictures, writes each PDF, answers with the result or the error.

WeasyPrint (gm.render.pdf, gm.render.fetcher) is imported inside the Renderer's methods, where a
PDF is made, not at the top: the process that hands jobs to a pool imports this module too, and
importing WeasyPrint costs it about a second of CPU for nothing (gm turn run waited for it before
its workers could start). A worker forks from the fork server, which has imported it already
(WARM_MODULES). So is gm.render.gridmap, which draws with Pillow, inside drawing(), where a grid
map picture is drawn, and gm.render.kit, inside _kit, where a turn kit is made.
"""

from __future__ import annotations

import ctypes
import dataclasses
import functools
import gc
import hashlib
import json
import os
import resource
import signal
import time
from contextlib import nullcontext
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.reduction import ForkingPickler
from pathlib import Path
from typing import TYPE_CHECKING

from gm.crash import crash_point
from gm.render.budget import RenderBudget, cpu_limit
from gm.render.files import write_whole
from gm.render.pictures import Picture, draw, keep_drawn, shared_images
from gm.render.stages import Stages
from gm.render.turnpages import TurnPages

if TYPE_CHECKING:
    from gm.render.fetcher import AssetFetcher
    from gm.render.kit import KitOrder
    from gm.render.pdf import SharedImages

# shared_images: for the callers that make jobs (gm.render.pictures has it).
__all__ = [
    "WARM_MODULES",
    "Answer",
    "Message",
    "RenderJob",
    "RenderResult",
    "Renderer",
    "draw_pictures",
    "drawn",
    "serve",
    "shared_images",
]

# What the fork server imports ahead for its workers (gm.render.forkserver): WeasyPrint, and
# CairoSVG with Pillow for the map pictures (gm.render.raster), the grid maps' Pillow drawing, and
# the turn kit's page (gm.render.kit: about 40 ms of CPU a worker would import again).
WARM_MODULES = ("gm.render.pdf", "gm.render.raster", "gm.render.gridmap", "gm.render.kit")


@dataclass(frozen=True)
class RenderJob:
    """One PDF to write.

    html: the report HTML (from render_report_html or render_standings_html).
    base_url: what relative URLs in it resolve against (normally environment.base_url()).
    created: the report's W3C datetime, used as the PDF's date.
    identifier: the PDF's stable id, e.g. "clash-1/5/BR".
    out_path: the file to write; written to a temporary name first, then renamed into place.
    images: data: URLs of images in the HTML that many reports share (a turn's map): a worker
        reads each once and embeds its compressed bytes as they are (see pdf.SharedImages).
    pictures: map pictures whose references stand in the HTML, drawn by the worker (draw_pictures).
    turn_pages: the report's turn pages (gm.render.turnpages) as another worker laid them out,
        set by the pool so that a turn's pages are laid out once per run, not once per worker.
    board_rasters: the pool's folder where its workers share the board rasters that region
        pictures are cut from (gm.render.pictures.map_crop), so that a turn's board is drawn
        once per run, not once per worker; None: drawn here.
    kit: the seat's turn kit to make once the PDF is written (gm.render.kit.KitOrder), with the
        grid pictures drawn for the report; None: no kit.
    """

    html: str
    base_url: str
    created: str
    identifier: str
    out_path: Path
    images: tuple[str, ...] = ()
    pictures: tuple[Picture, ...] = ()
    turn_pages: TurnPages | None = None
    board_rasters: Path | None = None
    kit: KitOrder | None = None


@dataclass(frozen=True)
class RenderResult:
    """What one job produced: the file, its size and sha256, and the worker that made it.

    peak_rss_kb: the worker's peak resident memory so far, in KiB (resource.getrusage).
    turn_pages: the turn pages this job laid out, for the pool to give other workers; the pool
        takes them off before a caller sees the result.
    pictures: (reference, data: URL) of the map pictures this job drew (draw_pictures),
        for the pool to give other workers the same way.
    kit: the SHA-256 of the turn kit the job ordered, written; None when it ordered none, or
        when making it failed (the `gm` process then makes it itself, and says what is wrong).
    stages: (stage, CPU seconds) of what the worker did for this job (gm.render.stages), for
        the pool's sums.
    """

    out_path: Path
    size: int
    sha256: str
    pid: int
    peak_rss_kb: int
    turn_pages: TurnPages | None = None
    pictures: tuple[tuple[str, str], ...] = ()
    kit: str | None = None
    stages: tuple[tuple[str, float], ...] = ()


# What a pool sends a worker: a job, the asset folders its fetcher may read, the report's budget.
Message = tuple[RenderJob, tuple[str, ...], RenderBudget | None]
# What the worker answers: (True, the job's result) or (False, the error it raised).
Answer = tuple[bool, RenderResult | Exception]
# Through the pipe go only the names of files that hold them (put, take): a message or an answer
# can be larger than the pipe's buffer (a board's SVG, a turn's pages laid out, a PDF's pictures),
# and a send or receive of one then waits on the other end. A pool's thread that waited so on a
# stopped worker (SIGSTOP) would never see it stall, and one stopped process would stop the run
# (issue 29, 10; tests/reliability/test_abuse_press.py). A name is a few dozen bytes: it always
# fits the buffer, so neither end ever waits on the other.
ANSWER = ".answer"
_M_MMAP_THRESHOLD = -3  # glibc's malloc.h


def put(path: Path, thing: Message | Answer) -> str:
    """Write what goes to the other end of a worker's pipe to `path` (under a name of this
    process's, renamed into place), and return the name to send."""
    part = path.with_name(f"{path.name}.{os.getpid()}.part")
    try:
        part.write_bytes(ForkingPickler.dumps(thing))
        os.replace(part, path)
    except BaseException:
        part.unlink(missing_ok=True)
        raise
    return str(path)


def take(name: str) -> Message | Answer:
    """What the other end wrote with put, its file removed."""
    path = Path(name)
    try:
        data = path.read_bytes()
    finally:
        path.unlink(missing_ok=True)
    thing: Message | Answer = ForkingPickler.loads(data)
    return thing


class Renderer:
    """What renders jobs in one process: a fetcher per set of asset folders, the shared images."""

    def __init__(self) -> None:
        from gm.render.pdf import SharedImages

        self.fetchers: dict[tuple[str, ...], AssetFetcher] = {}  # by their asset folders
        self.images: SharedImages = SharedImages()

    def write(
        self, job: RenderJob, asset_dirs: tuple[str, ...], max_pages: int | None = None, tagged: bool = True
    ) -> RenderResult:
        """Write the job's PDF (its pictures drawn already), tagged or not; OverBudget past max_pages pages."""
        pdf, made = self.lay_out(job, asset_dirs, max_pages, tagged)
        return dataclasses.replace(_store(pdf, Path(job.out_path)), turn_pages=made)

    def lay_out(
        self,
        job: RenderJob,
        asset_dirs: tuple[str, ...],
        max_pages: int | None,
        tagged: bool,
        stages: Stages | None = None,
    ) -> tuple[bytes, TurnPages | None]:
        """The job's PDF bytes and the turn pages it made, nothing written (write's first half);
        the CPU of its stages counted in `stages`."""
        from gm.render.fetcher import AssetFetcher
        from gm.render.pdf import render_report

        if asset_dirs not in self.fetchers:
            self.fetchers[asset_dirs] = AssetFetcher(asset_dirs)
        return render_report(
            job.html,
            base_url=job.base_url,
            created=job.created,
            identifier=job.identifier,
            fetcher=self.fetchers[asset_dirs],
            cache=self.images.cache_for(job.images),
            turn_pages=job.turn_pages,
            max_pages=max_pages,
            tagged=tagged,
            stages=stages,
        )

    def make(
        self, job: RenderJob, asset_dirs: tuple[str, ...], budget: RenderBudget | None, stages: Stages | None = None
    ) -> RenderResult:
        """Draw the job's pictures and write its PDF within `budget` (None: no limit); the
        result carries the pictures drawn, and the CPU of each stage (those `stages` has
        already, and make's own). OverBudget when it would take more."""
        stages = stages if stages is not None else Stages()
        start, before = time.process_time(), stages.total()
        # Nothing is written within the limit: a report it stops (even where its raise was
        # swallowed, and found only as the block ends) leaves no PDF behind.
        with cpu_limit(budget.cpu_seconds, job.identifier) if budget else nullcontext():
            with stages.count("pictures"):
                ready, pictures = draw_pictures(job)
            pdf, made = self.lay_out(
                ready, asset_dirs, budget.pages if budget else None, budget.tagged if budget else True, stages
            )
        with stages.count("store"):
            result = dataclasses.replace(_store(pdf, Path(job.out_path)), turn_pages=made)
        kit = None
        if job.kit is not None:
            with stages.count("kit"):
                kit = _kit(job, pictures)
        stages.add("rest", time.process_time() - start - (stages.total() - before))
        return dataclasses.replace(result, pictures=pictures, kit=kit, stages=tuple(stages.seconds.items()))


def _kit(job: RenderJob, drew: tuple[tuple[str, str], ...]) -> str | None:
    """Make the job's turn kit, after its PDF and outside its budget (a kit is not the report),
    with the grid pictures the job drew or was given; its SHA-256, or None when it failed: the
    `gm` process makes it again when it mails the report, and a fault there is told to the GM
    as it always was (gm.services.turn_kits)."""
    from gm.render.kit import make_kit

    assert job.kit is not None
    for reference, url in (*((p.reference, p.url) for p in job.pictures if p.url), *drew):
        keep_drawn(reference, url)
    try:
        return make_kit(job.kit)
    except Exception:  # the report stands; its kit is made where it is mailed
        return None


def drawn(job: RenderJob) -> RenderJob:
    """The RenderJob with its pictures drawn: each reference in its HTML replaced by the picture's
    data: URL, and its shared images found in the HTML as it would have been made in one go."""
    return draw_pictures(job)[0]


def draw_pictures(job: RenderJob) -> tuple[RenderJob, tuple[tuple[str, str], ...]]:
    """drawn(job), and the (reference, data: URL) of each picture this call drew, for a render
    pool to hand to other workers (a picture that came with its URL is not drawn again)."""
    if not job.pictures:
        return job, ()
    html, made = job.html, []
    for picture in job.pictures:
        url = picture.url
        if not url:
            url = drawing(picture, job.board_rasters)
            made.append((picture.reference, url))
        html = html.replace(f'src="{picture.reference}"', f'src="{url}"')
    return dataclasses.replace(job, html=html, images=shared_images(html), pictures=()), tuple(made)


def drawing(picture: Picture, rasters: Path | None = None) -> str:
    """The data: URL of a named picture: a grid map (grid_map), else an SVG map or a part of a
    board's raster (pictures.draw; rasters: the pool's folder of shared board rasters)."""
    if picture.grid:
        from gm.render.gridmap import grid_map

        data, crop = json.loads(picture.grid)
        return grid_map(data, crop)
    return draw(picture, rasters)


WORKER_NAME = "gm-render"  # what `ps`, `top` and /proc/PID/comm show for a render worker


def _name_this_process() -> None:
    """Name the worker for the GM's `ps` and `top` (a fork of the fork server is otherwise one
    more `python`); where /proc is missing or read-only it keeps the name it has."""
    try:
        Path("/proc/self/comm").write_text(WORKER_NAME)
    except OSError:
        pass


def serve(connection: Connection) -> None:
    """A worker's life: render each (job, asset folders, budget) it is sent (as the name of a
    file: put, take) until it gets None.

    Ctrl-C goes to the whole process group; the parent decides what it means, so a worker
    ignores it (the parent stops workers itself). A report over its budget is answered with
    OverBudget like any error, and the parent then replaces the worker: a render stopped half-way
    may have left WeasyPrint's caches half-made."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _name_this_process()
    renderer = Renderer()
    _collect_between_jobs()
    _give_back_large_blocks()
    # The CPU a job's stages leave out is counted with the next job (gm.render.stages): this
    # process's start (a fork's CPU counts from nought) with the first, the answer and the
    # cleaning up after it with the one after.
    stages = Stages()
    stages.add("start", time.process_time())
    while True:
        try:
            name: str | None = connection.recv()
        except EOFError:
            return  # the parent is gone
        if name is None:
            return
        with stages.count("read"):
            job, asset_dirs, budget = take(name)  # type: ignore[misc]  # a Message: put by the pool
        try:
            answer: Answer = (True, renderer.make(job, asset_dirs, budget, stages))
        except Exception as exc:  # the parent raises it in the caller, with its type
            answer = (False, exc)
        stages = Stages()
        with stages.count("between"):
            _answer(connection, name, answer, job.identifier)
            gc.collect()  # the report's garbage, once, while the parent reads the answer
            _trim_heap()


def _answer(connection: Connection, name: str, answer: Answer, identifier: str) -> None:
    """Send the answer to the job `name` named (put)."""
    try:
        connection.send(put(Path(name + ANSWER), answer))
    except Exception as exc:  # an exception that does not pickle
        failed = RuntimeError(f"{type(exc).__name__}: {exc}; rendering {identifier}")
        connection.send(put(Path(name + ANSWER), (False, failed)))


def _give_back_large_blocks() -> None:
    """Have glibc's malloc give every block of 4 MB or more back to the system when it is freed.

    glibc serves such a block by mmap, but after the first one is freed it raises that threshold
    to the block's size (up to 32 MB), and later blocks come from the heap, where what is freed
    stays. A worker's largest blocks are a board raster cairo draws (24 MB for Empires' region
    board), its pixels as Pillow's RGB (18 MB) and a PDF's pictures: with the threshold moving,
    the heap kept them beside the layout that came after, and a worker making a 32-seat Empires
    turn peaked at 141 MB; with it fixed at 4 MB, at 118 (bench/README.md, issue 32), for about
    1 % more CPU. Not glibc (no mallopt): nothing changes."""
    mallopt = getattr(_libc(), "mallopt", None)
    if mallopt is not None:
        mallopt(_M_MMAP_THRESHOLD, 4 << 20)


def _trim_heap() -> None:
    """Give the heap's free pages back to the system between two reports (glibc's malloc_trim):
    a report's layout frees most of what it made, but in pages that hold a few live objects, and
    without this the next report's peak stood on top of the last one's leftovers. With a 16-seat
    Empires game among a house's reports a worker's peak went from 152 to 144 MB (bench/README.md,
    issue 32); a call costs about a millisecond. Not glibc: nothing happens."""
    trim = getattr(_libc(), "malloc_trim", None)
    if trim is not None:
        trim(0)


@functools.cache
def _libc() -> ctypes.CDLL | None:
    """The C library this process runs on (looked up once), None where there is none to load."""
    try:
        return ctypes.CDLL(None)
    except OSError:
        return None


def _collect_between_jobs() -> None:
    """Collect a worker's garbage once a report instead of as it is made.

    Laying out a report makes hundreds of thousands of objects, many in reference cycles (boxes
    and their parents), and Python's collector, run every 700 new objects, went through them again
    and again: about 16 % of an Empires report's CPU in a worker (bench/README.md, "the collector").
    A worker now freezes what it inherited from the fork server (WeasyPrint's and CairoSVG's
    modules: never garbage, so no longer gone through, and their memory pages stay shared with
    the fork server) and collects once after each report: the same objects freed, for less than
    half the collector's time."""
    gc.disable()
    gc.freeze()


def _store(pdf: bytes, out_path: Path) -> RenderResult:
    out_path.parent.mkdir(parents=True, exist_ok=True)
    write_whole(out_path, pdf)
    crash_point("publish:mid-render")
    return RenderResult(
        out_path=out_path,
        size=len(pdf),
        sha256=hashlib.sha256(pdf).hexdigest(),
        pid=os.getpid(),
        peak_rss_kb=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
    )
