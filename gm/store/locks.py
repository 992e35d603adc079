"""A lock that the threads of a process and every process on the same GM home share."""
from __future__ import annotations

import os
import threading
from contextlib import contextmanager
from pathlib import Path

try:
    import fcntl
except ImportError:  # no flock (Windows): there one process serves, the thread lock is enough
    fcntl = None


class HomeLock:
    """Exclusive among this process's threads (a thread lock) and among processes (flock on `path`).

    The file is opened once per process, after any fork: a descriptor inherited across fork shares
    its lock with the parent, so it would exclude nobody."""

    def __init__(self, path: Path):
        self.path = path
        self._thread = threading.Lock()
        self._pid = None
        self._fd = None

    @contextmanager
    def __call__(self):
        with self._thread:
            if fcntl is None:
                yield
                return
            if self._pid != os.getpid():
                self._fd, self._pid = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600), os.getpid()
            fcntl.flock(self._fd, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(self._fd, fcntl.LOCK_UN)
