"""Rendering many reports: a pool of workers writes the same bytes as one process does, and a
worker that dies or hangs fails its report at once instead of stopping the run."""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from gm.render import pool as pool_module, stages
from gm.render.budget import RenderBudget
from gm.render.environment import asset_dirs, base_url, render_report_html
from gm.render.pool import RenderJob, RenderPool, render_pdfs

from .sample_game import report_context

CREATED = "2026-11-21T19:00:00Z"
WAIT = 120  # seconds: far beyond any render here, so a test that would hang fails instead


def jobs(env, folder):
    return [
        RenderJob(
            render_report_html(env, report_context(seat, 5)),
            base_url(),
            CREATED,
            f"clash-1/5/{seat}",
            folder / f"turn5-{seat}.pdf",
        )
        for seat in ("BR", "FR", "DE")
    ]


def small_jobs(folder, count):
    """Pages that render in a few milliseconds, for tests about the pool rather than the report."""
    return [RenderJob(f"<p>page {i}</p>", base_url(), CREATED, f"small/{i}", folder / f"{i}.pdf") for i in range(count)]


def turns_five_and_six(env, folder):
    """Two turns of three seats: each turn's pages shared by its seats (gm.render.turnpages)."""
    return [
        RenderJob(
            render_report_html(env, report_context(seat, turn)),
            base_url(),
            CREATED,
            f"c/{turn}/{seat}",
            folder / f"{turn}-{seat}.pdf",
        )
        for turn in (5, 6)
        for seat in ("BR", "FR", "DE")
    ]


def results(batch):
    return [future.result(timeout=WAIT) for future in batch.futures]


def workers_alive():
    return [p for p in multiprocessing.active_children() if p.name == "gm render worker"]


def test_a_pool_lays_each_turns_pages_out_once_and_hands_them_to_the_other_worker(env, tmp_path):
    """Two turns of three seats on two workers: each worker lays out one turn's pages (the
    report's scores and table of empires, gm.render.turnpages) and gets the other's with its
    jobs, instead of both laying out both; the bytes are those of one process."""
    two_turns = turns_five_and_six(env, tmp_path)
    alone = render_pdfs(two_turns, workers=1, asset_dirs=asset_dirs(env))
    with RenderPool(2) as pool:
        pooled = pool.submit(two_turns, asset_dirs=asset_dirs(env)).results(timeout=WAIT)
    assert pool.turn_layouts == 2
    assert [r.sha256 for r in pooled] == [r.sha256 for r in alone]
    assert all(r.turn_pages is None for r in pooled + alone)  # the pages stay in the pool


def test_a_pool_sums_what_its_workers_count_stage_by_stage_and_writes_it_where_asked(env, tmp_path, monkeypatch):
    """Each job's result carries the CPU of its stages (gm.render.stages): the seat's own pages
    laid out and drawn in every job, the turn's pages only in the job that laid them out; the
    pool sums them and, with GM_RENDER_STAGES set, appends the sums to that file as it closes."""
    sums = tmp_path / "stages.jsonl"
    monkeypatch.setenv(stages.ENV, str(sums))
    two_turns = turns_five_and_six(env, tmp_path)
    with RenderPool(2) as pool:
        pooled = pool.submit(two_turns, asset_dirs=asset_dirs(env)).results(timeout=WAIT)
    each = [dict(r.stages) for r in pooled]
    assert all(job["layout"] > 0 and job["drawing"] > 0 and job["overlay"] > 0 for job in each)
    assert all(set(job) <= set(stages.STAGES) and min(job.values()) >= 0 for job in each)
    assert sum("turn_pages" in job for job in each) == pool.turn_layouts == 2
    assert sum("start" in job for job in each) == pool.workers_started == 2  # a worker's start, once
    (line,) = sums.read_text().splitlines()
    written = json.loads(line)
    assert written["jobs"] == 6 and written["workers"] == 2
    assert written["seconds"] == pytest.approx(
        {name: sum(job.get(name, 0) for job in each) for name in written["seconds"]}
    )
    assert set(written["seconds"]) == set().union(*each)


def test_two_workers_write_the_same_files_as_one(env, tmp_path):
    (tmp_path / "one").mkdir()
    alone = render_pdfs(jobs(env, tmp_path / "one"), workers=1, asset_dirs=asset_dirs(env))
    pooled = render_pdfs(jobs(env, tmp_path / "two"), workers=2, asset_dirs=asset_dirs(env), renders_per_worker=1)
    assert [r.sha256 for r in pooled] == [r.sha256 for r in alone]
    assert len({r.sha256 for r in alone}) == 3
    for result in pooled:
        data = result.out_path.read_bytes()
        assert len(data) == result.size and hashlib.sha256(data).hexdigest() == result.sha256
        assert result.peak_rss_kb > 0
    assert len({r.pid for r in pooled}) == 3  # one render per worker: every job had a fresh process
    assert not list((tmp_path / "two").glob(".*"))  # no temporary files left


def test_a_job_may_be_a_plain_tuple(env, tmp_path):
    job = jobs(env, tmp_path)[0]
    [result] = render_pdfs([(job.html, job.base_url, job.created, job.identifier, job.out_path)], workers=4)
    assert result.out_path == job.out_path and result.out_path.exists()


def test_a_failing_job_raises_in_the_caller(env, tmp_path):
    (tmp_path / "blocker").write_text("a file where a folder should be")
    bad = jobs(env, tmp_path / "blocker")
    with pytest.raises(OSError):
        render_pdfs(bad, workers=2)


def test_one_pool_renders_many_batches_in_the_same_workers(tmp_path):
    with RenderPool(2) as pool:
        first = pool.submit(small_jobs(tmp_path / "a", 4))
        second = pool.submit(small_jobs(tmp_path / "b", 4))
        done = results(first) + results(second)
    assert [r.out_path for r in done] == [
        j.out_path for j in small_jobs(tmp_path / "a", 4) + small_jobs(tmp_path / "b", 4)
    ]
    assert len({r.pid for r in done}) <= 2  # no new workers for the second batch
    assert workers_alive() == []


def test_a_dead_worker_fails_its_report_instead_of_hanging(tmp_path):
    with RenderPool(2, deadline=WAIT) as pool:
        batch = pool.submit(small_jobs(tmp_path, 400))
        batch.futures[0].result(timeout=WAIT)
        for worker in workers_alive():
            os.kill(worker.pid, signal.SIGKILL)
        with pytest.raises(RuntimeError, match="worker died .killed by signal 9."):
            batch.results(timeout=WAIT)
        assert not all(f.done() and not f.cancelled() for f in batch.futures)  # the rest was dropped
        # The pool goes on with new workers.
        [after] = results(pool.submit(small_jobs(tmp_path / "after", 1)))
        assert after.out_path.exists()
    assert workers_alive() == []


def test_a_stopped_worker_is_replaced_and_its_report_made_by_a_new_one(tmp_path):
    """Issue 29: a SIGSTOPped worker held gm run-due for 311 s. Its CPU time standing still for
    the budget's stall_seconds (2 here; 30 by default) is what gives it away: it is killed and
    the report goes to a new worker."""
    with RenderPool(1, budget=RenderBudget(stall_seconds=2)) as pool:
        results(pool.submit(small_jobs(tmp_path, 1)))
        [worker] = workers_alive()
        os.kill(worker.pid, signal.SIGSTOP)  # alive, holding whatever it holds, answering nothing
        [done] = results(pool.submit(small_jobs(tmp_path / "stuck", 1)))
        assert done.out_path.exists() and done.pid != worker.pid
        assert not worker.is_alive()


def test_a_job_larger_than_a_pipe_holds_does_not_hold_the_pool_on_a_stopped_worker(tmp_path):
    """Issue 32's board raster made a job carry its board's SVG, larger than a pipe's buffer: the
    pool's thread, sending it to a SIGSTOPped worker, waited for ever and never saw it stall (CI
    hung 900 s). A job and its answer go as files, only their names through the pipe."""
    big = RenderJob("<p>big</p><!--" + "x" * 4_000_000 + "-->", base_url(), CREATED, "big", tmp_path / "big.pdf")
    with RenderPool(1, budget=RenderBudget(stall_seconds=2)) as pool:
        results(pool.submit(small_jobs(tmp_path, 1)))
        [worker] = workers_alive()
        os.kill(worker.pid, signal.SIGSTOP)
        started = time.monotonic()
        [done] = results(pool.submit([big]))
        assert time.monotonic() - started < WAIT
        assert done.out_path.exists() and done.pid != worker.pid
        assert not worker.is_alive()
        left = [p.name for p in Path(pool._files.name).iterdir()]
        assert left == []  # the stopped worker's job, and every answer, gone with it
    assert not Path(pool._files.name).exists()


def test_without_cpu_time_to_go_by_a_hung_worker_is_stopped_at_the_wall_deadline(tmp_path, monkeypatch):
    """Where /proc cannot be read the wall clock decides, as before the budget. The deadline is
    3 s for the stopped worker's report only: the reports before and after it have all the time
    a loaded machine needs (a fresh worker's small report once took over 3 s at load 27)."""
    monkeypatch.setattr(pool_module, "cpu_seconds", lambda pid: None)
    with RenderPool(1, deadline=WAIT) as pool:
        results(pool.submit(small_jobs(tmp_path, 1)))
        [worker] = workers_alive()
        os.kill(worker.pid, signal.SIGSTOP)
        pool.deadline = 3
        stuck = pool.submit(small_jobs(tmp_path / "stuck", 1))
        started = time.monotonic()
        with pytest.raises(RuntimeError, match="no result in 3 s"):
            results(stuck)
        assert time.monotonic() - started < WAIT
        assert not worker.is_alive()
        pool.deadline = WAIT
        assert results(pool.submit(small_jobs(tmp_path / "after", 1)))[0].out_path.exists()


def test_closing_without_waiting_drops_the_queue(tmp_path):
    pool = RenderPool(1)
    batch = pool.submit(small_jobs(tmp_path, 50))
    pool.close(wait=False)
    assert any(f.cancelled() for f in batch.futures)
    assert workers_alive() == []
    with pytest.raises(RuntimeError, match="closed"):
        pool.submit(small_jobs(tmp_path, 1))


def test_workers_import_this_gm_whatever_the_current_folder(tmp_path):
    """The fork server is a `python -c` started in the current folder: a folder holding another
    `gm` (a checkout of another version) must not give the workers that one."""
    decoy = tmp_path / "checkout"
    (decoy / "gm" / "render").mkdir(parents=True)  # a gm without the worker module
    (decoy / "gm" / "__init__.py").write_text("")
    (decoy / "gm" / "render" / "__init__.py").write_text("")
    script = tmp_path / "render.py"
    script.write_text(
        textwrap.dedent(f"""\
        from pathlib import Path

        from gm.render.environment import base_url
        from gm.render.pool import RenderJob, render_pdfs

        if __name__ == "__main__":
            out = Path({str(tmp_path)!r})
            jobs = [RenderJob(f"<p>page {{i}}</p>", base_url(), {CREATED!r}, f"small/{{i}}", out / f"{{i}}.pdf")
                    for i in range(2)]
            print([r.out_path.name for r in render_pdfs(jobs, workers=2)])
        """)
    )
    ran = subprocess.run([sys.executable, str(script)], cwd=decoy, capture_output=True, text=True, timeout=WAIT)
    assert ran.returncode == 0, ran.stderr
    assert "['0.pdf', '1.pdf']" in ran.stdout


def test_the_process_that_hands_out_jobs_never_imports_weasyprint(tmp_path):
    """Only the workers make PDFs: the process that makes the report HTML and hands it to a pool
    (gm turn run, gm run-due) would pay about a second of CPU to import WeasyPrint for nothing,
    and gm turn run waited for it before its workers could start."""
    script = tmp_path / "hand_out.py"
    script.write_text(
        textwrap.dedent(f"""\
        import sys
        from pathlib import Path

        from gm.render.environment import base_url
        from gm.render.pool import RenderJob, RenderPool
        from gm.render.worker import shared_images
        from gm.services import publish, reports, rundue

        if __name__ == "__main__":
            out = Path({str(tmp_path)!r})
            jobs = [RenderJob(f"<p>page {{i}}</p>", base_url(), {CREATED!r}, f"small/{{i}}", out / f"{{i}}.pdf",
                              shared_images("<p>no picture</p>")) for i in range(3)]
            with RenderPool(2) as pool:
                done = pool.submit(jobs).results(timeout={WAIT})
            print(len(done), "weasyprint" in sys.modules)
        """)
    )
    ran = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=WAIT)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.split() == ["3", "False"]
    assert all((tmp_path / f"{i}.pdf").read_bytes().startswith(b"%PDF") for i in range(3))


def test_a_turn_run_starts_the_fork_server_before_it_resolves(tmp_path):
    """reports.prepare_render: with a pool of workers, the fork server (which imports WeasyPrint)
    starts at once, so it is ready by the time the turn is resolved."""
    script = tmp_path / "prepare.py"
    script.write_text(
        textwrap.dedent(f"""\
        from multiprocessing import forkserver
        from pathlib import Path

        from gm.home import Home, create_home
        from gm.services.reports import prepare_render

        if __name__ == "__main__":
            home = Home(Path({str(tmp_path)!r}) / "home")
            create_home(home)
            home.settings_file.write_text(home.settings_file.read_text().replace("workers = 0", "workers = 1"))
            prepare_render(home)
            alone = forkserver._forkserver._forkserver_pid
            home.settings_file.write_text(home.settings_file.read_text().replace("workers = 1", "workers = 2"))
            prepare_render(home)
            print(alone, forkserver._forkserver._forkserver_pid is not None)
        """)
    )
    ran = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=WAIT)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.split() == ["None", "True"]


def test_a_worker_is_replaced_after_fifty_reports(tmp_path):
    """RENDERS_PER_WORKER, by default: WeasyPrint's memory creeps up over many renders in one
    process (STACK-NOTES), so a worker stops after 50 reports and a new one makes the next. The
    workers are counted by the pid each report names."""
    with RenderPool(1) as pool:
        done = results(pool.submit(small_jobs(tmp_path, 101)))
    pids = [r.pid for r in done]
    assert [pids.count(pid) for pid in dict.fromkeys(pids)] == [50, 50, 1]
    assert workers_alive() == []


def test_without_cpu_time_a_report_is_given_up_after_300_seconds_by_default(tmp_path, monkeypatch):
    """REPORT_TIMEOUT: where /proc cannot be read, a report 300 s late in wall time is stuck and
    its worker killed. The pool's clock is a fake moved by hand, so nothing waits 300 s: a stopped
    worker's report, 301 s on, fails so; the one after it is made by a new worker."""
    now = [1_000.0]
    monkeypatch.setattr(pool_module, "time", SimpleNamespace(monotonic=lambda: now[0]))
    monkeypatch.setattr(pool_module, "cpu_seconds", lambda pid: None)
    with RenderPool(1) as pool:
        results(pool.submit(small_jobs(tmp_path, 1)))
        [worker] = workers_alive()
        os.kill(worker.pid, signal.SIGSTOP)
        stuck = pool.submit(small_jobs(tmp_path / "stuck", 1))
        for _ in range(WAIT * 100):  # until the worker has the job: it is handed out under the pool's lock
            with pool._lock:
                if stuck.futures[0].running():
                    break
            time.sleep(0.01)
        now[0] += 301
        pool.submit([])  # wakes the pool's thread, which reads the clock
        with pytest.raises(RuntimeError, match=r"gave no result in 300 s rendering small/0; it was stopped"):
            results(stuck)
        assert not worker.is_alive()
        [after] = results(pool.submit(small_jobs(tmp_path / "after", 1)))
        assert after.out_path.exists() and after.pid != worker.pid
