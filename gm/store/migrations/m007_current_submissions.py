"""An index of the submissions that count (current = 1), at most one per seat and turn.

Every new valid submission clears the seat's current one, and the portal, the answers and the
turn run look it up: without this index each of those reads all the seat's submissions for the
turn, which a player who mails the same turn file hundreds of times makes slow.
"""

from __future__ import annotations

import sqlite_utils

from gm.store.migrations import run_script


def migrate(db: sqlite_utils.Database) -> None:
    run_script(db, "CREATE INDEX submissions_current ON submissions (seat_id, turn) WHERE current = 1")
