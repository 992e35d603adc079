"""A sign-up by mail waits for its confirmation: the code mailed to the address it names
(stored only as its SHA-256) and the moment it lapses. Rows made before (and every row a slip,
a default or the GM makes) have neither: they count as confirmed."""

from __future__ import annotations

import sqlite_utils

from gm.store.migrations import run_script


def migrate(db: sqlite_utils.Database) -> None:
    run_script(
        db,
        """
        ALTER TABLE waiting ADD COLUMN confirm_hash TEXT;
        ALTER TABLE waiting ADD COLUMN confirm_by TEXT;
        CREATE INDEX waiting_unconfirmed ON waiting (account_id) WHERE confirm_hash IS NOT NULL AND seated IS NULL;
        """,
    )
