"""Render many reports to PDF files: in this process, or in a pool of worker processes a caller may keep open."""

from __future__ import annotations

import collections
import dataclasses
import multiprocessing
import tempfile
import threading
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from pathlib import Path
from types import TracebackType
from typing import Any, NamedTuple

from gm.render import stages, turnpages
from gm.render.budget import DEFAULT_BUDGET, KILL_AFTER, OverBudget, RenderBudget, cpu_seconds, over_cpu, process_state
from gm.render.environment import shared_templates_dir
from gm.render.forkserver import context as _context, warm_up
from gm.render.pictures import keep_drawn
from gm.render.worker import Answer, Renderer, RenderJob, RenderResult, put, serve, take

__all__ = [
    "RENDERS_PER_WORKER",
    "REPORT_TIMEOUT",
    "Batch",
    "OverBudget",
    "RenderBudget",
    "RenderJob",
    "RenderPool",
    "RenderResult",
    "render_outcomes",
    "render_pdfs",
    "warm_up",
]

# WeasyPrint's memory creeps up over hundreds of renders in one process (STACK-NOTES), so a
# worker is replaced after this many reports.
RENDERS_PER_WORKER = 50

# Where a worker's CPU time cannot be read (no /proc), a report this late in wall time is stuck,
# and its worker killed. Elsewhere the report's budget (gm.render.budget) decides, in CPU time.
REPORT_TIMEOUT = 300

# How often the pool looks at the CPU time of the workers that render (a read of /proc each).
_WATCH_EVERY = 1.0

# How long a worker told to stop may take to exit before it is killed.
_STOP_GRACE = 5

# How far down the queue a free worker looks for a job that needs nothing another is making.
_LOOK_AHEAD = 64

# Map pictures a pool keeps for later jobs: a turn's board and its seats' regions, two games' worth.
_KEEP_PICTURES = 64


def render_pdfs(jobs: Iterable[RenderJob | tuple[Any, ...]], workers: int = 1, **options: Any) -> list[RenderResult]:
    """Write every job's PDF; results come back in the order of `jobs`; the first failure raises
    (a report over its budget too: OverBudget). options: render_outcomes's."""
    results = []
    for done in render_outcomes(jobs, workers, **options):
        if isinstance(done, OverBudget):
            raise done
        results.append(done)
    return results


def render_outcomes(
    jobs: Iterable[RenderJob | tuple[Any, ...]],
    workers: int = 1,
    *,
    asset_dirs: Sequence[Path] | None = None,
    renders_per_worker: int = RENDERS_PER_WORKER,
    pool: RenderPool | None = None,
    budget: RenderBudget | None = DEFAULT_BUDGET,
) -> list[RenderResult | OverBudget]:
    """Write every job's PDF; in the order of `jobs`, its result, or OverBudget for a report
    that would take more than `budget` (gm.render.budget; None: no limit). Any other failure
    raises.

    workers: 1 renders in this process; more starts a pool of that many processes for this
        batch (never more than there are jobs). Ignored when `pool` is given (its budget holds).
    asset_dirs: the folders the fetcher may serve files from; pass environment.asset_dirs(env)
        so GM overrides and ruleset assets are reachable. Default: the shared templates folder.
    pool: an open RenderPool to render in (see RenderPool: one pool for many batches).
    """
    made = [job if isinstance(job, RenderJob) else RenderJob(*job) for job in jobs]
    dirs = _dirs(asset_dirs)
    if pool is not None:
        return pool.submit(made, asset_dirs=dirs).outcomes()
    workers = max(1, min(workers, len(made)))
    if workers == 1:
        renderer = Renderer()
        return [_made_here(renderer, job, dirs, budget) for job in made]
    with RenderPool(workers, renders_per_worker=renders_per_worker, budget=budget) as batch_pool:
        return batch_pool.submit(made, asset_dirs=dirs).outcomes()


def _made_here(
    renderer: Renderer, job: RenderJob, dirs: tuple[str, ...], budget: RenderBudget | None
) -> RenderResult | OverBudget:
    try:
        return dataclasses.replace(renderer.make(job, dirs, budget), turn_pages=None, pictures=())
    except OverBudget as over:
        return over


@dataclass
class Batch:
    """Jobs handed to a pool together: results() waits for them, in order."""

    futures: list[Future[RenderResult]]

    def done(self) -> bool:
        return all(f.done() for f in self.futures)

    def results(self, timeout: float | None = None) -> list[RenderResult]:
        """Every result, in order; the first failure raises and drops the jobs not started.
        timeout: seconds to wait for each (None: the pool's deadlines bound the wait)."""
        try:
            return [f.result(timeout) for f in self.futures]
        except BaseException:
            self.cancel()
            raise

    def outcomes(self, timeout: float | None = None) -> list[RenderResult | OverBudget]:
        """Each job's result, or its OverBudget (a report over its budget: the others go on);
        any other failure raises and drops the jobs not started."""
        done: list[RenderResult | OverBudget] = []
        try:
            for future in self.futures:
                try:
                    done.append(future.result(timeout))
                except OverBudget as over:
                    done.append(over)
        except BaseException:
            self.cancel()
            raise
        return done

    def cancel(self) -> None:
        """Drop the jobs no worker has started (after a failure, the rest of the batch is moot)."""
        for f in self.futures:
            f.cancel()


class _Entry(NamedTuple):
    """A queued job: the job, the asset folders it may read, its future, the key of its turn
    pages (None: it has none) and what it needs that another worker may be making (_next_job)."""

    job: RenderJob
    dirs: tuple[str, ...]
    future: Future[RenderResult]
    key: str | None
    needs: frozenset[str]


@dataclass
class _Worker:
    """A worker process and our end of its pipe; `job` is what it renders now (and its future),
    since `since`.

    entry: the queue's entry of that job (to hand it out again should the worker stall).
    cpu_start: the worker's CPU time when it took the job (None: it cannot be read here);
    cpu_seen: its CPU time when last looked at; moved: when that last grew (gm.render.budget)."""

    process: multiprocessing.process.BaseProcess
    connection: Connection
    job: tuple[RenderJob, Future[RenderResult]] | None = None
    since: float = 0.0
    rendered: int = 0
    needs: frozenset[str] = frozenset()  # the turn pages and pictures its job needs (see _next_job)
    entry: _Entry | None = None
    cpu_start: float | None = None
    cpu_seen: float = 0.0
    moved: float = 0.0

    @property
    def pid(self) -> int:
        pid = self.process.pid
        assert pid is not None  # a worker's process is started before it is one
        return pid


@dataclass
class RenderPool:
    """Render worker processes that take jobs as they come, for as long as the caller keeps it.

        with RenderPool(2) as pool:
            first = pool.submit(jobs_of_one_game, asset_dirs=dirs)
            ...                       # resolve the next game while the workers render
            results = first.results()

    Each worker has its own pipe; one thread here hands a job to each idle worker and waits on
    the pipes and the processes' sentinels together, so a worker that dies (the OOM killer, a
    crash in a C library) fails its job at once. Each report has a `budget` (gm.render.budget):
    one that would be longer in pages, or take more CPU, fails with OverBudget (its worker stops
    it itself, or is killed KILL_AFTER CPU-seconds later); a worker whose CPU time stands still
    for the budget's stall_seconds (stopped, stuck) is killed and its report handed to a new
    worker once more, then fails with OverBudget. Where CPU time cannot be read, a report that
    takes longer than `deadline` in wall time fails instead. Nothing waits forever, and the pool
    goes on with a new worker.
    Not multiprocessing.Pool: its terminate() can block for ever on a queue lock a killed worker
    held. A worker is replaced after `renders_per_worker` reports (memory creeps up in
    WeasyPrint). Workers fork from a fork server that has WeasyPrint imported, so one starts in
    milliseconds.
    """

    workers: int
    renders_per_worker: int = RENDERS_PER_WORKER
    deadline: float | None = None  # wall seconds per report without /proc; None: REPORT_TIMEOUT
    budget: RenderBudget | None = field(default_factory=RenderBudget)  # per report; None: no limit
    turn_layouts: int = field(default=0, init=False)  # turn pages laid out by the workers (turnpages)
    pictures_drawn: int = field(default=0, init=False)  # map pictures drawn by the workers (pictures)
    # the CPU seconds of each stage of the jobs the workers rendered, summed (gm.render.stages),
    # the jobs they count and the workers started; written where GM_RENDER_STAGES says at close
    stage_seconds: dict[str, float] = field(default_factory=dict, init=False)
    stage_jobs: int = field(default=0, init=False)
    workers_started: int = field(default=0, init=False)
    _queue: collections.deque[_Entry] = field(default_factory=collections.deque, init=False, repr=False)
    _again: collections.deque[_Entry] = field(default_factory=collections.deque, init=False, repr=False)  # stalled
    _retried: set[Future[RenderResult]] = field(default_factory=set, init=False, repr=False)  # handed out twice
    _running: list[_Worker] = field(default_factory=list, init=False, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)
    _thread: threading.Thread | None = field(default=None, init=False, repr=False)
    _closing: bool = field(default=False, init=False, repr=False)
    _abandon: bool = field(default=False, init=False, repr=False)
    _turn_pages: turnpages.TurnPagesCache = field(default_factory=turnpages.TurnPagesCache, init=False, repr=False)
    # reference -> data: URL of the map pictures the workers drew
    _pictures: collections.OrderedDict[str, str] = field(
        default_factory=collections.OrderedDict, init=False, repr=False
    )
    # the pool's own folder: the jobs and answers its pipes name (gm.render.worker.put), and the
    # board rasters the workers share (RenderJob.board_rasters)
    _files: tempfile.TemporaryDirectory[str] = field(
        default_factory=lambda: tempfile.TemporaryDirectory(prefix="gm-render-"), init=False, repr=False
    )

    def __post_init__(self) -> None:
        self.workers = max(1, self.workers)
        self._context = _context()
        self._wake_read, self._wake_write = multiprocessing.Pipe(duplex=False)

    def __enter__(self) -> RenderPool:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close(wait=kind is None)

    def submit(self, jobs: Iterable[RenderJob], asset_dirs: Sequence[Path | str] | None = None) -> Batch:
        """Queue the jobs; the workers start on them at once. Returns their Batch."""
        dirs, jobs = _dirs(asset_dirs), list(jobs)
        batch = Batch([Future() for _ in jobs])
        keys = [turnpages.key_of(job.html, job.base_url, dirs) for job in jobs]
        needs = [
            frozenset({key} if key is not None else ()) | {p.reference for p in job.pictures}
            for job, key in zip(jobs, keys)
        ]
        with self._lock:
            if self._closing:
                raise RuntimeError("the render pool is closed")
            self._queue.extend(_Entry(*entry) for entry in zip(jobs, [dirs] * len(jobs), batch.futures, keys, needs))
            if self._thread is None:
                self._thread = threading.Thread(target=self._dispatch, name="render pool", daemon=True)
                self._thread.start()
        self._wake()
        return batch

    def queued(self) -> int:
        """Jobs waiting for a worker (not counting those being rendered)."""
        return len(self._queue)

    def close(self, wait: bool = True) -> None:
        """Stop the pool: with wait, after every queued job is done; else now, dropping them."""
        with self._lock:
            self._closing, self._abandon = True, not wait
            if not wait:
                for _, _, future, _, _ in self._queue:
                    future.cancel()
                self._queue.clear()
        self._wake()
        if self._thread is not None:
            self._thread.join()
        for worker in list(self._running):
            self._stop(worker, kill=not wait)
        self._files.cleanup()
        stages.write_sums(self.stage_jobs, self.workers_started, self.stage_seconds)
        self.stage_jobs = 0  # written once, should close be called again

    def _wake(self) -> None:
        self._wake_write.send_bytes(b"!")

    def _dispatch(self) -> None:
        """The pool's thread: give jobs to idle workers, take results, watch deaths and deadlines.
        Should it fail (a bug), every job still open fails with it rather than wait for ever."""
        try:
            self._serve_jobs()
        except BaseException as exc:
            with self._lock:
                self._closing = True
                open_futures = [entry.future for entry in [*self._queue, *self._again]]
                open_futures += [w.job[1] for w in self._running if w.job is not None]
                self._queue.clear()
                self._again.clear()
            for worker in list(self._running):
                self._stop(worker, kill=True)
            for future in open_futures:
                _settle(future, RuntimeError(f"the render pool failed: {exc!r}"))
            raise

    def _serve_jobs(self) -> None:
        while True:
            with self._lock:
                if self._abandon:
                    return self._abandon_busy()
                self._hand_out()
                busy = [w for w in self._running if w.job is not None]
                if self._closing and not busy and not self._queue and not self._again:
                    return
            waits = [self._wake_read] + [w.connection for w in busy] + [w.process.sentinel for w in self._running]
            ready = wait(waits, timeout=self._next_deadline(busy))
            if self._wake_read in ready:
                while self._wake_read.poll():
                    self._wake_read.recv_bytes()
            for worker in list(self._running):
                if worker.job is not None:
                    self._check(worker, ready)
                elif worker.process.sentinel in ready:  # died while idle
                    self._stop(worker, kill=True)

    def _abandon_busy(self) -> None:
        closed = RuntimeError("the render pool was closed before this report was done")
        for worker, (_, future) in [(w, w.job) for w in self._running if w.job is not None]:
            self._stop(worker, kill=True)
            _settle(future, closed)
        while self._again:
            _settle(self._again.popleft().future, closed)

    def _hand_out(self) -> None:
        while self._queue or self._again:
            if not self._again and self._queue[0].future.cancelled():
                self._queue.popleft()
                continue
            worker = next((w for w in self._running if w.job is None), None)
            if worker is None and len(self._running) < self.workers:
                worker = self._start()
            if worker is None:
                return
            if self._again:  # a report whose worker stalled: running already, first in line
                entry = self._again.popleft()
            else:
                entry = self._next_job()
                if not entry.future.set_running_or_notify_cancel():
                    continue  # cancelled since the check above
            job, dirs, future, key, needs = entry
            job = self._with_what_is_made(job, key)
            try:
                name = put(Path(self._files.name) / f"{worker.pid}-{worker.rendered}", (job, dirs, self.budget))
            except OSError as exc:  # a full disk: this report fails, the others may not
                _settle(future, RuntimeError(f"{job.identifier} could not be handed to a render worker: {exc}"))
                continue
            try:
                worker.connection.send(name)  # a name: it never waits on the worker (gm.render.worker.put)
            except OSError:  # it died since it last answered
                self._stop(worker, kill=True)
                _settle(future, RuntimeError(_died(worker, job)))
                continue
            worker.job, worker.since, worker.needs, worker.entry = (job, future), time.monotonic(), needs, entry
            worker.cpu_start = cpu_seconds(worker.pid)
            worker.cpu_seen = worker.cpu_start or 0.0  # read only where cpu_start is known
            worker.moved = worker.since

    def _with_what_is_made(self, job: RenderJob, key: str | None) -> RenderJob:
        """The job with its turn pages and map pictures as other workers made them, where they did,
        and the folder where the workers share board rasters if it cuts a picture from one."""
        if key is not None and job.turn_pages is None and key in self._turn_pages:
            job = dataclasses.replace(job, turn_pages=self._turn_pages.get(key))
        if any(p.reference in self._pictures and not p.url for p in job.pictures):
            job = dataclasses.replace(
                job,
                pictures=tuple(
                    dataclasses.replace(p, url=self._pictures[p.reference]) if p.reference in self._pictures else p
                    for p in job.pictures
                ),
            )
        if any(p.crop is not None and not p.url for p in job.pictures):
            job = dataclasses.replace(job, board_rasters=Path(self._files.name))
        return job

    def _next_job(self) -> _Entry:
        """The first queued job that needs nothing a busy worker is making now (turn pages, a map
        picture), so that the other worker need not make it too: it takes another game's report
        meanwhile, and what it needs comes with its job later. If every queued job needs such a
        thing, the first."""
        making: set[str] = set().union(*(w.needs for w in self._running if w.job is not None))
        making = {n for n in making if n not in self._turn_pages and n not in self._pictures}
        for index, (_, _, future, _, needs) in enumerate(self._queue):
            if index >= _LOOK_AHEAD:
                break
            if not future.cancelled() and not needs & making:
                entry = self._queue[index]
                del self._queue[index]
                return entry
        return self._queue.popleft()

    def _check(self, worker: _Worker, ready: Sequence[object]) -> None:
        assert worker.job is not None  # only a busy worker is checked
        job, future = worker.job
        if worker.connection in ready:
            try:
                answer: Answer = take(worker.connection.recv())  # type: ignore[assignment]  # put by the worker
            except (EOFError, OSError):
                self._stop(worker, kill=True)
                _settle(future, RuntimeError(_died(worker, job)))
                return
            worker.job, worker.rendered = None, worker.rendered + 1
            _, value = answer  # (True, its result) or (False, the error)
            if isinstance(value, RenderResult):
                value = self._keep_what_was_made(value)
            _settle(future, value)
            # A render stopped half-way (OverBudget) may leave the worker's caches half-made.
            if worker.rendered >= self.renders_per_worker or isinstance(value, OverBudget):
                self._stop(worker)
        elif worker.process.sentinel in ready:
            self._stop(worker, kill=True)
            _settle(future, RuntimeError(_died(worker, job)))
        else:
            self._watch(worker)

    def _watch(self, worker: _Worker) -> None:
        """A busy worker that has not answered yet: is it within its report's budget, and moving?"""
        assert worker.job is not None  # only a busy worker is watched
        job, future = worker.job
        now, start, budget = time.monotonic(), worker.cpu_start, self.budget
        used = cpu_seconds(worker.pid) if start is not None else None
        if start is None or used is None or budget is None:  # no CPU time (or budget): the wall clock's deadline
            if now - worker.since > self._deadline():
                self._stop(worker, kill=True)
                _settle(future, RuntimeError(_late(job, self._deadline())))
            return
        if used - start > budget.cpu_seconds + KILL_AFTER:  # its own timer did not stop it
            self._stop(worker, kill=True)
            _settle(future, over_cpu(job.identifier, budget.cpu_seconds))
        elif used > worker.cpu_seen:
            worker.cpu_seen, worker.moved = used, now
        elif now - worker.moved > budget.stall_seconds:
            self._stalled(worker, process_state(worker.pid), budget.stall_seconds)

    def _stalled(self, worker: _Worker, state: str, stall_seconds: float) -> None:
        """A worker whose CPU time stood still for stall_seconds: killed; its report goes to a new
        worker once more (a stop from outside, not the report's fault), then fails."""
        assert worker.job is not None and worker.entry is not None  # both given with its job
        job, future = worker.job
        entry = worker.entry
        self._stop(worker, kill=True)
        if future not in self._retried:
            self._retried.add(future)
            self._again.append(entry)
            return
        self._retried.discard(future)
        why = f"its render worker made no progress for {stall_seconds:g} s ({state}), and again in a new worker"
        _settle(future, OverBudget(job.identifier, why))

    def _keep_what_was_made(self, result: RenderResult) -> RenderResult:
        """Keep the turn pages and map pictures a worker made, for the other workers' jobs, and
        add its stages to the sums; the caller gets the result without them."""
        stages.add_to(self.stage_seconds, dict(result.stages))
        self.stage_jobs += 1
        if result.turn_pages is not None:
            self.turn_layouts += 1
            self._turn_pages.put(result.turn_pages.key, result.turn_pages)
        for reference, url in result.pictures:
            self.pictures_drawn += 1
            keep_drawn(reference, url)  # a grid map's picture, for the turn kits (gm.render.kit)
            self._pictures[reference] = url
            self._pictures.move_to_end(reference)
            while len(self._pictures) > _KEEP_PICTURES:
                self._pictures.popitem(last=False)
        return dataclasses.replace(result, turn_pages=None, pictures=())

    def _next_deadline(self, busy: list[_Worker]) -> float | None:
        if not busy:
            return None
        if all(w.cpu_start is not None for w in busy) and self.budget is not None:
            return _WATCH_EVERY
        return max(0.0, min(w.since for w in busy) + self._deadline() - time.monotonic()) + 0.01

    def _deadline(self) -> float:
        return self.deadline if self.deadline is not None else REPORT_TIMEOUT

    def _start(self) -> _Worker:
        ours, theirs = self._context.Pipe()
        process = self._context.Process(target=serve, args=(theirs,), name="gm render worker", daemon=True)
        process.start()
        theirs.close()
        worker = _Worker(process, ours)
        self._running.append(worker)
        self.workers_started += 1
        return worker

    def _stop(self, worker: _Worker, kill: bool = False) -> None:
        """End a worker: ask it to stop (or kill it), then reap it; never wait long."""
        if worker in self._running:
            self._running.remove(worker)
        if not kill:
            try:
                worker.connection.send(None)
            except OSError:
                kill = True
        if not kill:
            worker.process.join(_STOP_GRACE)
        if worker.process.is_alive():
            worker.process.kill()
            worker.process.join(_STOP_GRACE)
        worker.connection.close()
        for left in Path(self._files.name).glob(f"{worker.pid}-*"):  # a job it never took, its answer
            left.unlink(missing_ok=True)


def _settle(future: Future[RenderResult], outcome: RenderResult | BaseException) -> None:
    """Give the future its result, or its exception, unless it has one already."""
    if future.done():
        return
    if isinstance(outcome, BaseException):
        future.set_exception(outcome)
    else:
        future.set_result(outcome)


def _late(job: RenderJob, deadline: float) -> str:
    return (
        f"a report worker gave no result in {deadline:.0f} s rendering {job.identifier}; "
        "it was stopped (it probably died or hung)"
    )


def _died(worker: _Worker, job: RenderJob) -> str:
    code = worker.process.exitcode
    how = f"killed by signal {-code}" if code is not None and code < 0 else f"exit code {code}"
    return (
        f"a report worker died ({how}) rendering {job.identifier}; it probably died of something outside "
        "gm (out of memory?). Run again: nothing was recorded for this report."
    )


def _dirs(asset_dirs: Sequence[Path | str] | None) -> tuple[str, ...]:
    return tuple(str(d) for d in (asset_dirs if asset_dirs is not None else [shared_templates_dir()]))
