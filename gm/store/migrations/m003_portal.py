"""The player portal's one-time sign-in links: each may be used once, before it expires."""

from __future__ import annotations

import sqlite_utils


def migrate(db: sqlite_utils.Database) -> None:
    db.executescript(
        """
        CREATE TABLE portal_links (
            id TEXT PRIMARY KEY,
            seat_id INTEGER NOT NULL REFERENCES seats(id),
            created TEXT NOT NULL,
            expires TEXT NOT NULL,
            used TEXT
        );
        """
    )
