"""A report's render budget (gm/render/budget.py): no report takes a render worker past its pages
or its CPU, a worker that makes no progress is told from a slow one, and the other reports of
the batch are made all the same. Budgets here are tiny, to force each path."""

from __future__ import annotations

import gc
import multiprocessing
import os
import signal
import sys
import threading
import time
from contextlib import contextmanager

import pytest

from gm.render import budget as budget_module, pool as pool_module, worker as worker_module
from gm.render.budget import (
    MAX_CPU_SECONDS,
    MAX_PAGES,
    STALL_SECONDS,
    OverBudget,
    RenderBudget,
    cpu_limit,
    cpu_seconds,
    process_state,
)
from gm.render.environment import base_url
from gm.render.pool import RenderJob, RenderPool, render_outcomes, render_pdfs
from gm.render.worker import RenderResult

from .test_pool import CREATED, WAIT, small_jobs, workers_alive


def long_job(folder, lines: int = 400) -> RenderJob:
    html = "<pre>" + "\n".join(f"line {n}" for n in range(lines)) + "</pre>"
    return RenderJob(html, base_url(), CREATED, "long/1", folder / "long.pdf")


def test_the_budget_numbers_are_those_the_docs_give():
    """README ("Reports past their budget"), gm.toml and bench/README.md give these numbers."""
    assert (MAX_PAGES, MAX_CPU_SECONDS, STALL_SECONDS) == (60, 30.0, 30.0)
    assert RenderBudget() == RenderBudget(60, 30.0, 30.0)


@pytest.mark.parametrize("workers", [1, 2])
def test_a_report_longer_than_its_pages_is_not_written_and_the_others_are(tmp_path, workers):
    jobs = [*small_jobs(tmp_path, 2), long_job(tmp_path)]
    done = render_outcomes(jobs, workers, budget=RenderBudget(pages=3))
    assert [type(d) for d in done] == [RenderResult, RenderResult, OverBudget]
    assert done[2].identifier == "long/1"
    assert done[2].why.startswith("it would be ") and done[2].why.endswith(" pages long, more than 3")
    assert not (tmp_path / "long.pdf").exists() and (tmp_path / "0.pdf").exists()
    with pytest.raises(OverBudget):
        render_pdfs(jobs, workers, budget=RenderBudget(pages=3))


@pytest.mark.parametrize("workers", [1, 2])
def test_a_report_past_its_cpu_is_stopped_by_its_worker_and_the_others_are_made(tmp_path, workers):
    jobs = [long_job(tmp_path, 20_000), *small_jobs(tmp_path, 3)]  # some 400 pages
    done = render_outcomes(jobs, workers, budget=RenderBudget(cpu_seconds=1))
    assert isinstance(done[0], OverBudget)
    assert done[0].why == "it took more than 1 s of CPU to lay out"
    assert all(isinstance(d, RenderResult) for d in done[1:])
    assert workers_alive() == []


def test_a_worker_that_answers_over_budget_is_replaced(tmp_path):
    """A render stopped half-way may leave WeasyPrint's caches half-made: the next report goes
    to a fresh worker."""
    with RenderPool(1, budget=RenderBudget(pages=3)) as pool:
        first = pool.submit([long_job(tmp_path)]).outcomes(timeout=WAIT)
        after = pool.submit(small_jobs(tmp_path / "after", 1)).outcomes(timeout=WAIT)
    assert isinstance(first[0], OverBudget) and isinstance(after[0], RenderResult)
    assert after[0].out_path.exists()


def _burn() -> None:
    while True:
        pass


def test_the_pool_kills_a_worker_its_own_timer_cannot_stop():
    """A worker stuck in C code never sees its CPU timer: the pool kills it KILL_AFTER CPU-seconds
    past the budget. A real process burning CPU stands in for such a worker."""
    process = multiprocessing.get_context("fork").Process(target=_burn, daemon=True)
    process.start()
    ours, theirs = multiprocessing.Pipe()
    pool = RenderPool(1, budget=RenderBudget(cpu_seconds=0.1))
    worker = pool_module._Worker(process, ours)
    future = pool_module.Future()
    future.set_running_or_notify_cancel()
    worker.job = (small_jobs(pool_module.Path("/nonexistent"), 1)[0], future)
    worker.cpu_start = worker.cpu_seen = cpu_seconds(process.pid)
    pool._running.append(worker)
    try:
        # Waited for by the burner's own CPU, not the clock: on a loaded machine it gets a small
        # share of a core, and the kill is due once it has burnt the budget and KILL_AFTER.
        # KILL_AFTER written out (docs/limits.md): raised, the burner passes it and the test fails
        # at once, rather than waiting out the wall-clock guard below.
        enough = worker.cpu_start + 0.1 + 5.0 + 2.0
        deadline = time.monotonic() + 10 * WAIT  # only so that a broken pool cannot hang the suite
        while not future.done() and time.monotonic() < deadline:
            time.sleep(0.2)
            pool._watch(worker)
            if not future.done() and process.is_alive() and cpu_seconds(process.pid) > enough:
                break
        with pytest.raises(OverBudget, match="more than 0.1 s of CPU"):
            future.result(timeout=0)
        assert not process.is_alive()
    finally:
        if process.is_alive():
            process.kill()
        theirs.close()


def test_a_worker_stopped_twice_fails_its_report_and_the_gm_is_told_why(tmp_path):
    """Stopped again in its new worker, the report fails with OverBudget naming the stall; the
    batch's other reports are made and the pool goes on."""
    stop = threading.Event()

    def stop_every_worker():
        while not stop.is_set():
            for process in workers_alive():
                if process_state(process.pid) != "stopped":
                    os.kill(process.pid, signal.SIGSTOP)
            time.sleep(0.05)

    with RenderPool(1, budget=RenderBudget(stall_seconds=1)) as pool:
        stopper = threading.Thread(target=stop_every_worker, daemon=True)
        stopper.start()
        try:
            [over] = pool.submit(small_jobs(tmp_path, 1)).outcomes(timeout=WAIT)
        finally:
            stop.set()
            stopper.join()
        assert isinstance(over, OverBudget)
        assert over.why == "its render worker made no progress for 1 s (stopped), and again in a new worker"
        [after] = pool.submit(small_jobs(tmp_path / "after", 1)).outcomes(timeout=WAIT)
        assert after.out_path.exists()
    assert workers_alive() == []


def test_cpu_time_and_state_are_read_from_proc():
    process = multiprocessing.get_context("fork").Process(target=_burn, daemon=True)
    process.start()
    try:
        first = cpu_seconds(process.pid)
        time.sleep(0.5)
        assert cpu_seconds(process.pid) > first
        os.kill(process.pid, signal.SIGSTOP)
        time.sleep(0.2)
        assert process_state(process.pid) == "stopped"
    finally:
        process.kill()
        process.join()
    assert cpu_seconds(process.pid) is None and budget_module.process_state(process.pid) == "unknown"


def test_a_pool_without_a_budget_still_stops_a_hung_worker_at_the_wall_deadline(tmp_path):
    with RenderPool(1, budget=None, deadline=2) as pool:
        pool.submit(small_jobs(tmp_path, 1)).outcomes(timeout=WAIT)
        [worker] = workers_alive()
        os.kill(worker.pid, signal.SIGSTOP)
        with pytest.raises(RuntimeError, match="no result in 2 s"):
            pool.submit(small_jobs(tmp_path / "stuck", 1)).outcomes(timeout=WAIT)
    assert workers_alive() == []


@contextmanager
def burning_gc_callback():
    """A gc callback that burns 0.5 s of CPU at its first collection: a 0.05 s CPU timer fires
    inside it, where Python reports the raise as ignored and goes on. Yields the CPU times at
    which it started burning."""
    burnt = []

    def burn_in_gc(phase, info):
        if phase == "start" and not burnt:
            burnt.append(time.process_time())
            while time.process_time() < burnt[0] + 0.5:
                pass

    gc.callbacks.append(burn_in_gc)
    try:
        yield burnt
    finally:
        gc.callbacks.remove(burn_in_gc)


def test_a_budget_raise_swallowed_in_a_gc_callback_still_fails_the_block(monkeypatch):
    """The CPU timer's raise can land in a gc callback (Hypothesis installs one) or a finaliser,
    where Python only reports it and goes on: the block is over its budget all the same, and the
    ignored exception is not printed."""
    reported = []
    monkeypatch.setattr(sys, "unraisablehook", reported.append)
    with burning_gc_callback() as burnt:
        with pytest.raises(OverBudget, match="more than 0.05 s of CPU"):
            with cpu_limit(0.05, "gc/1"):
                gc.collect()  # the callback raised, gc ignored it, and the block ends within 1 s of CPU
    assert burnt and reported == []
    assert sys.unraisablehook == reported.append  # put back


def test_a_report_whose_budget_raise_was_swallowed_is_over_budget_and_not_written(tmp_path, monkeypatch):
    real_draw = worker_module.draw_pictures

    def draw_then_collect(job):
        gc.collect()
        return real_draw(job)

    monkeypatch.setattr(worker_module, "draw_pictures", draw_then_collect)
    with burning_gc_callback() as burnt:
        [done] = render_outcomes(small_jobs(tmp_path, 1), 1, budget=RenderBudget(cpu_seconds=0.05))
    assert burnt and isinstance(done, OverBudget) and done.why == "it took more than 0.05 s of CPU to lay out"
    assert not (tmp_path / "0.pdf").exists()
