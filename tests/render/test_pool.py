"""Rendering many reports: a pool of workers writes the same bytes as one process does."""
from __future__ import annotations

import hashlib
import multiprocessing
import os
import signal
import threading
import time

import pytest

from gm.render import pool
from gm.render.environment import asset_dirs, base_url, render_report_html
from gm.render.pool import RenderJob, render_pdfs

from .sample_game import report_context


def jobs(env, folder):
    return [
        RenderJob(render_report_html(env, report_context(seat, 5)), base_url(), "2026-11-21T19:00:00Z",
                  f"clash-1/5/{seat}", folder / f"turn5-{seat}.pdf")
        for seat in ("BR", "FR", "DE")
    ]


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


@pytest.mark.slow
def test_a_dead_worker_fails_the_batch_instead_of_hanging(env, tmp_path, monkeypatch):
    monkeypatch.setattr(pool, "REPORT_TIMEOUT", 3)
    many = [RenderJob(job.html, job.base_url, job.created, f"{job.identifier}/{i}", tmp_path / f"{i}.pdf")
            for i in range(20) for job in jobs(env, tmp_path)[:1]]

    def kill_workers_mid_batch():
        deadline = time.monotonic() + 30
        while not list(tmp_path.glob("*.pdf")) and time.monotonic() < deadline:
            time.sleep(0.02)
        for child in multiprocessing.active_children():
            if child.name.startswith("ForkServerPoolWorker") or child.name.startswith("SpawnPoolWorker"):
                os.kill(child.pid, signal.SIGKILL)

    threading.Thread(target=kill_workers_mid_batch, daemon=True).start()
    with pytest.raises(RuntimeError, match="probably died"):
        render_pdfs(many, workers=2)
