"""The portal's signed-in sessions on disk: a tag (a hash of the session id), who, when last used."""

from __future__ import annotations

from pathlib import Path

from gm.store.shared import SharedFile

SCHEMA = [
    "CREATE TABLE IF NOT EXISTS sessions (tag BLOB PRIMARY KEY, who TEXT NOT NULL, seen REAL NOT NULL) WITHOUT ROWID",
    "CREATE INDEX IF NOT EXISTS sessions_by_seen ON sessions (seen)",
    "CREATE INDEX IF NOT EXISTS sessions_by_who ON sessions (who)",
]


class SessionTable(SharedFile):
    """The sessions table of the shared file at `path`; times are seconds of the wall clock."""

    def __init__(self, path: Path):
        super().__init__(path, SCHEMA)

    def record(self, tag: bytes, who: str, now: float) -> None:
        """A session that just signed in (a tag recorded again is used anew)."""
        self._db().execute("INSERT OR REPLACE INTO sessions (tag, who, seen) VALUES (?, ?, ?)", [tag, who, now])

    def forget_unused_since(self, moment: float) -> None:
        """Forget the sessions last used before `moment`: they have ended."""
        self._db().execute("DELETE FROM sessions WHERE seen < ?", [moment])

    def last_seen(self, tag: bytes) -> float | None:
        """When the session was last noted as used, or None when it is not recorded."""
        row = self._db().execute("SELECT seen FROM sessions WHERE tag = ?", [tag]).fetchone()
        return None if row is None else row[0]

    def note_seen(self, tag: bytes, now: float) -> None:
        self._db().execute("UPDATE sessions SET seen = ? WHERE tag = ?", [now, tag])

    def delete(self, tag: bytes) -> None:
        """Forget one session, on disk before this returns (a sign-out a power cut could undo
        would not be one)."""
        with self._durably() as db:
            db.execute("DELETE FROM sessions WHERE tag = ?", [tag])

    def delete_all(self, who: str) -> int:
        """Forget every session of `who`, on disk before this returns; how many there were."""
        with self._durably() as db:
            return db.execute("DELETE FROM sessions WHERE who = ?", [who]).rowcount
