"""A turn file's vote (DRAW, CONCEDE SEAT: gm/core/agreement.py): submissions.vote is its JSON,
NULL for a file without one."""

from __future__ import annotations

import sqlite_utils

from gm.store.migrations import run_script


def migrate(db: sqlite_utils.Database) -> None:
    run_script(db, "ALTER TABLE submissions ADD COLUMN vote TEXT;")
