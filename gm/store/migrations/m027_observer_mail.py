"""A new kind of outbox mail, 'observer': a turn's public pages mailed to a game's observer.
SQLite cannot change the outbox's CHECK in place, so the table is built anew (rebuild_outbox)."""

from __future__ import annotations

import re

import sqlite_utils

from gm.store.migrations import rebuild_outbox

_KINDS = re.compile(r"kind IN \(([^)]*)\)")
_TABLE = re.compile(r'CREATE TABLE "?outbox"?')


def migrate(db: sqlite_utils.Database) -> None:
    old = db.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'outbox'").fetchone()[0]
    kinds = _KINDS.search(old)
    assert kinds, "outbox kinds not found"
    new = _TABLE.sub("CREATE TABLE outbox_new", old, count=1).replace(
        kinds.group(0), f"kind IN ({kinds.group(1)}, 'observer')"
    )
    rebuild_outbox(db, new)
