"""A press message the GM withheld (gm game press GAME --withhold ID): press.withheld is when,
NULL while the message stands."""

from __future__ import annotations

import sqlite_utils

from gm.store.migrations import run_script


def migrate(db: sqlite_utils.Database) -> None:
    run_script(db, "ALTER TABLE press ADD COLUMN withheld TEXT;")
