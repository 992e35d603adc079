"""Which sessions are signed in, kept on the server: a cookie counts only while its session is here.

A session cookie is signed, so nobody can forge one, but a signature cannot be taken back: a copy
made before sign-out would work until it expires. So each sign-in records its session here (a hash
of the session id, never the id), every request of a signed-in session checks that it is still
recorded, and sign-out removes it. The file is shared by every worker of `gm serve` and kept
across restarts; a lost file signs everybody out, never anybody in.
"""
from __future__ import annotations

import hashlib
import time
from pathlib import Path

from gm.web.shared import SharedTable

# A signed-in session's row notes when it was last used at most this often (seconds).
SEEN_EVERY = 60.0


class SessionRegister(SharedTable):
    """Signed-in sessions by a hash of their id, each with who it is ('seat:ID' or 'gm') and when
    it was last used; a session unused for `lifetime` seconds has ended, as its cookie has."""

    # Sessions that ended unused are deleted at every this-many-th sign-in (of a process).
    PURGE_EVERY = 100

    def __init__(self, path: Path, lifetime: float):
        self.lifetime = lifetime
        self._begun = 0
        super().__init__(path, [
            "CREATE TABLE IF NOT EXISTS sessions (tag BLOB PRIMARY KEY, who TEXT NOT NULL, seen REAL NOT NULL) "
            "WITHOUT ROWID",
            "CREATE INDEX IF NOT EXISTS sessions_by_seen ON sessions (seen)",
            "CREATE INDEX IF NOT EXISTS sessions_by_who ON sessions (who)"])

    def begin(self, sid: str, who: str) -> None:
        """Record a session that just signed in; now and then forget those that ended unused."""
        now = time.time()
        db = self._db()
        db.execute("INSERT OR REPLACE INTO sessions (tag, who, seen) VALUES (?, ?, ?)", [_tag(sid), who, now])
        self._begun += 1  # (not exact across threads: it only spaces out the clean-ups)
        if self._begun % self.PURGE_EVERY == 1:
            db.execute("DELETE FROM sessions WHERE seen < ?", [now - self.lifetime])

    def alive(self, sid: str) -> bool:
        """True while the session is recorded and was used within its lifetime (noted now)."""
        tag, now = _tag(sid), time.time()
        db = self._db()
        row = db.execute("SELECT seen FROM sessions WHERE tag = ?", [tag]).fetchone()
        if row is None or row[0] < now - self.lifetime:
            return False
        if now - row[0] >= SEEN_EVERY:
            db.execute("UPDATE sessions SET seen = ? WHERE tag = ?", [now, tag])
        return True

    def end(self, sid: str) -> None:
        """Sign the session out everywhere, on disk before the answer goes (a sign-out a power
        cut could undo would not be one)."""
        db = self._db()
        db.execute("PRAGMA synchronous = FULL")
        try:
            db.execute("DELETE FROM sessions WHERE tag = ?", [_tag(sid)])
        finally:
            db.execute("PRAGMA synchronous = NORMAL")

    def end_all(self, who: str) -> int:
        """Sign out every session of a seat ('seat:ID') or of the GM ('gm'); how many there were."""
        db = self._db()
        db.execute("PRAGMA synchronous = FULL")
        try:
            return db.execute("DELETE FROM sessions WHERE who = ?", [who]).rowcount
        finally:
            db.execute("PRAGMA synchronous = NORMAL")


def _tag(sid: str) -> bytes:
    return hashlib.sha256(sid.encode("utf-8")).digest()[:16]
