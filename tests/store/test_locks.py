"""HomeLock and file_lock: one holder at a time among threads and among processes, even forked ones."""

from __future__ import annotations

import multiprocessing
import threading
import time

from gm.store.locks import HomeLock, file_lock


def _hold(lock: HomeLock, log, name: str, started=None) -> None:
    with lock():
        if started is not None:
            started.set()
        log.append(f"{name} in")
        time.sleep(0.2)
        log.append(f"{name} out")


def _child(lock, started, queue) -> None:
    log = []
    _hold(lock, log, "child", started)  # the parent's lock object, inherited by the fork
    queue.put(log)


def test_forked_processes_take_turns(tmp_path):
    lock = HomeLock(tmp_path / "x.lock")
    with lock():  # the parent opened its descriptor before the fork: the child must not share it
        pass
    context = multiprocessing.get_context("fork")
    started, queue = context.Event(), context.Queue()
    child = context.Process(target=_child, args=(lock, started, queue))
    child.start()
    assert started.wait(10)
    began = time.monotonic()
    with lock():
        waited = time.monotonic() - began
    child.join(10)
    assert queue.get(timeout=5) == ["child in", "child out"]
    assert waited > 0.1  # the parent had to wait for the child to let go


def test_threads_take_turns(tmp_path):
    lock, log = HomeLock(tmp_path / "x.lock"), []
    threads = [threading.Thread(target=_hold, args=(lock, log, str(n))) for n in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert len(log) == 6
    assert all(log[i].split()[0] == log[i + 1].split()[0] and log[i].endswith("in") for i in range(0, 6, 2))


def _hold_file_lock(path, started, release) -> None:
    with file_lock(path, wait=True) as held:
        assert held
        started.set()
        release.wait(10)


def test_a_held_file_lock_is_refused_without_waiting(tmp_path):
    """Another process holds it: wait=False yields False at once; once let go, True."""
    path = tmp_path / "locks" / "g1.lock"  # the folder is made on first use
    context = multiprocessing.get_context("fork")
    started, release = context.Event(), context.Event()
    child = context.Process(target=_hold_file_lock, args=(path, started, release))
    child.start()
    try:
        assert started.wait(10)
        began = time.monotonic()
        with file_lock(path, wait=False) as held:
            assert held is False
        assert time.monotonic() - began < 1  # refused, not waited for
    finally:
        release.set()
        child.join(10)
    with file_lock(path, wait=False) as held:
        assert held is True
