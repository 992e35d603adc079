"""One-time portal sign-in links for observers (issue 33): each link's nonce kept only as its
SHA-256 (the mail holds the link; the database never the means to make it), the observer it is
for, when it expires and when it was used (NULL until then: a link works once)."""

from __future__ import annotations

import sqlite_utils

from gm.store.migrations import run_script


def migrate(db: sqlite_utils.Database) -> None:
    run_script(
        db,
        """CREATE TABLE observer_links (
            nonce_hash TEXT PRIMARY KEY,
            observer_id INTEGER NOT NULL REFERENCES observers(id),
            created TEXT NOT NULL,
            expires TEXT NOT NULL,
            used TEXT
        );
        """,
    )
