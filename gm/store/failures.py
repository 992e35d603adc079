"""The portal's failed sign-ins on disk: per scope and key (a client address, a seat, 'gm'), when."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from gm.store.database import transaction
from gm.store.shared import SharedFile

SCHEMA = [
    "CREATE TABLE IF NOT EXISTS failures (scope TEXT NOT NULL, key TEXT NOT NULL, at REAL NOT NULL)",
    "CREATE INDEX IF NOT EXISTS failures_by_key ON failures (scope, key, at)",
]


class FailureTable(SharedFile):
    """The failures table of the shared file at `path`; times are seconds of the wall clock."""

    def __init__(self, path: Path):
        super().__init__(path, SCHEMA)

    def failures_since(self, scope: str, keys: Sequence[str], moment: float) -> list[tuple[str, float]]:
        """(key, when) of each failure of these keys after `moment`, newest first."""
        marks = ", ".join("?" * len(keys))
        return (
            self._db()
            .execute(
                f"SELECT key, at FROM failures WHERE scope = ? AND key IN ({marks}) AND at > ? ORDER BY at DESC",
                [scope, *keys, moment],
            )
            .fetchall()
        )

    def add_failures(self, scope: str, keys: Sequence[str], now: float, forget_before: float) -> None:
        """One failure now for each key, and forget the scope's failures up to `forget_before`."""
        with transaction(self._db()) as db:
            db.executemany(
                "INSERT INTO failures (scope, key, at) VALUES (?, ?, ?)", [(scope, key, now) for key in keys]
            )
            db.execute("DELETE FROM failures WHERE scope = ? AND at <= ?", [scope, forget_before])
