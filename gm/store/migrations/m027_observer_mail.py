"""A new kind of outbox mail, 'observer': a turn's public pages mailed to a game's observer.
SQLite cannot change the outbox's CHECK in place, so the table is built anew (add_outbox_kinds)."""

from __future__ import annotations

import sqlite_utils

from gm.store.migrations import add_outbox_kinds


def migrate(db: sqlite_utils.Database) -> None:
    add_outbox_kinds(db, "observer")
