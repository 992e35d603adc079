"""The waiting lists as the GM prunes them: a player taken off a list (the waiting table)."""
from __future__ import annotations

import sqlite_utils


def remove_waiting(db: sqlite_utils.Database, number: int) -> bool:
    """Take entry `number` off its waiting list while it is not seated, inside the caller's
    transaction; False when there is no such unseated entry. The row goes: the audit entry the
    caller writes keeps who it was, what they waited for and why they left."""
    return db.execute("DELETE FROM waiting WHERE id = ? AND seated IS NULL", [number]).rowcount > 0
