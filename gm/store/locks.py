"""Locks on files in the GM home: one flock helper, and a lock the threads of a process share too."""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

if sys.platform == "win32":  # no flock: there one process serves, the thread lock is enough
    fcntl = None
else:
    import fcntl


@contextmanager
def file_lock(path: Path, *, wait: bool) -> Iterator[bool]:
    """Hold an exclusive flock on `path` (made, with its folder, if missing) for the with-block.

    Yields True once held. With wait=False another holder makes it yield False at once instead
    (a turn run or run-due that finds its lock taken says so and does nothing). The file is
    opened afresh on each call, so a forked child never shares its parent's lock; the kernel
    lets go when the process ends, however it ends."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        if fcntl is None:
            yield True
            return
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


class HomeLock:
    """Exclusive among this process's threads (a thread lock) and among processes (a waiting
    file_lock on `path`); the portal's workers share one per home."""

    def __init__(self, path: Path):
        self.path = path
        self._thread = threading.Lock()

    @contextmanager
    def __call__(self) -> Iterator[None]:
        # Two holders in one process would each open the file and flock would make the second
        # wait on the first forever: the thread lock lets only one thread reach the file lock.
        with self._thread, file_lock(self.path, wait=True):
            yield
