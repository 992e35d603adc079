"""The outbox also carries the cycle's reminders and late notices, the portal's sign-in links,
and low-credit notices for held reports.

SQLite cannot change a CHECK constraint in place: the table is built anew and its rows copied.
"""

from __future__ import annotations

import sqlite_utils

from gm.store.migrations import rebuild_outbox


def migrate(db: sqlite_utils.Database) -> None:
    old = db.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'outbox'").fetchone()[0]
    new = old.replace("CREATE TABLE outbox", "CREATE TABLE outbox_new").replace(
        "kind IN ('acknowledgement', 'report', 'resend')",
        "kind IN ('acknowledgement', 'report', 'resend', 'reminder', 'late', 'link', 'notice')",
    )
    assert new != old.replace("CREATE TABLE outbox", "CREATE TABLE outbox_new"), "outbox kinds not found"
    rebuild_outbox(db, new)
