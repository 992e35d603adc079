"""Render many reports to PDF files, in this process or in a pool of recycled worker processes."""
from __future__ import annotations

import hashlib
import multiprocessing
import os
import resource
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from gm.crash import crash_point
from gm.render.environment import shared_templates_dir
from gm.render.fetcher import AssetFetcher
from gm.render.pdf import html_to_pdf

# WeasyPrint's memory creeps up over hundreds of renders in one process (STACK-NOTES), so a
# worker is replaced after this many reports.
RENDERS_PER_WORKER = 50

# A report takes well under a second; a result this late means its worker is gone.
REPORT_TIMEOUT = 300


@dataclass(frozen=True)
class RenderJob:
    """One PDF to write.

    html: the report HTML (from render_report_html or render_standings_html).
    base_url: what relative URLs in it resolve against (normally environment.base_url()).
    created: the report's W3C datetime, used as the PDF's date.
    identifier: the PDF's stable id, e.g. "clash-1/5/BR".
    out_path: the file to write; written to a temporary name first, then renamed into place.
    """

    html: str
    base_url: str
    created: str
    identifier: str
    out_path: Path


@dataclass(frozen=True)
class RenderResult:
    """What one job produced: the file, its size and sha256, and the worker that made it.

    peak_rss_kb: the worker's peak resident memory so far, in KiB (resource.getrusage).
    """

    out_path: Path
    size: int
    sha256: str
    pid: int
    peak_rss_kb: int


_worker_fetcher: AssetFetcher | None = None


def render_pdfs(
    jobs: Iterable[RenderJob | tuple],
    workers: int,
    *,
    asset_dirs: Sequence[Path] | None = None,
    renders_per_worker: int = RENDERS_PER_WORKER,
) -> list[RenderResult]:
    """Write every job's PDF; results come back in the order of `jobs`.

    workers: 1 renders in this process; more starts a pool of that many processes (never more
        than there are jobs). Each process builds its own fetcher and font configuration.
    asset_dirs: the folders the fetcher may serve files from; pass environment.asset_dirs(env)
        so GM overrides and ruleset assets are reachable. Default: the shared templates folder.
    """
    jobs = [job if isinstance(job, RenderJob) else RenderJob(*job) for job in jobs]
    dirs = tuple(str(d) for d in (asset_dirs if asset_dirs is not None else [shared_templates_dir()]))
    workers = max(1, min(workers, len(jobs)))
    if workers == 1:
        fetcher = AssetFetcher(dirs)
        return [_write_pdf(job, fetcher) for job in jobs]
    with _pool_context().Pool(
        workers, initializer=_start_worker, initargs=(dirs,), maxtasksperchild=renders_per_worker
    ) as pool:
        # Not concurrent.futures: on Python 3.11 its max_tasks_per_child deadlocks once a worker
        # is replaced (CPython gh-115634). Pool instead waits forever for a worker that died (OOM
        # killer, a crash in a C library), so each result gets a deadline.
        results = pool.imap(_render_one, jobs, chunksize=1)
        try:
            return [results.next(timeout=REPORT_TIMEOUT) for _ in jobs]
        except multiprocessing.TimeoutError:
            raise RuntimeError(
                f"a report worker gave no result in {REPORT_TIMEOUT} s; it probably died (out of memory?)"
            ) from None


def _pool_context():
    # forkserver: workers fork from a small clean process that has WeasyPrint imported already,
    # so a recycled worker starts in milliseconds and inherits neither the caller's memory nor
    # its threads. spawn where forkserver does not exist.
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["__main__", "gm.render.pool"])
        return context
    return multiprocessing.get_context("spawn")


def _start_worker(dirs: tuple[str, ...]) -> None:
    global _worker_fetcher
    _worker_fetcher = AssetFetcher(dirs)


def _render_one(job: RenderJob) -> RenderResult:
    return _write_pdf(job, _worker_fetcher)


def _write_pdf(job: RenderJob, fetcher: AssetFetcher) -> RenderResult:
    pdf = html_to_pdf(job.html, base_url=job.base_url, created=job.created, identifier=job.identifier, fetcher=fetcher)
    out_path = Path(job.out_path)
    out_path.parent.mkdir(parents=True, exist_ok=True)
    # Write then rename, so a reader (the portal, the mailer) never sees half a PDF. Not
    # mkstemp: its 0600 mode would hide the report from a portal running as another user.
    temporary = out_path.with_name(f".{out_path.name}.{os.getpid()}.tmp")
    try:
        temporary.write_bytes(pdf)
        os.replace(temporary, out_path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    crash_point("publish:mid-render")
    return RenderResult(
        out_path=out_path,
        size=len(pdf),
        sha256=hashlib.sha256(pdf).hexdigest(),
        pid=os.getpid(),
        peak_rss_kb=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
    )
