"""An SQLite file in the GM home that every worker process of `gm serve`, and each of its threads,
reads and writes through a connection of its own (the portal's signed-in sessions and failed sign-ins)."""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from gm.store.database import connect


class SharedFile:
    """The file at `path`, made (mode 600: it holds client addresses and session tags, the GM's
    only) with `schema` in the process that forks the workers; each thread of each worker opens
    its own connection on first use (a connection must not cross a fork or a thread)."""

    def __init__(self, path: Path, schema: list[str]):
        self.path = path
        self._local = threading.local()
        if not path.exists():
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))
        db = self._connect()
        try:
            for statement in schema:
                db.execute(statement)
        finally:
            db.close()

    def _connect(self) -> sqlite3.Connection:
        db = connect(self.path)
        db.execute("PRAGMA synchronous = NORMAL")  # counts and tags: losing the last second's is harmless
        return db

    def _db(self) -> sqlite3.Connection:
        mine = getattr(self._local, "db", None)
        if mine is None or mine[0] != os.getpid():
            mine = self._local.db = (os.getpid(), self._connect())
        return mine[1]

    @contextmanager
    def _durably(self) -> Iterator[sqlite3.Connection]:
        """This thread's connection, each commit in the with-block on disk before it returns."""
        db = self._db()
        db.execute("PRAGMA synchronous = FULL")
        try:
            yield db
        finally:
            db.execute("PRAGMA synchronous = NORMAL")
