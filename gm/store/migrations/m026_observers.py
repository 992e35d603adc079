"""Observers of a game (gm game observe): each address that receives the turn's public pages,
since when, and when it stopped (NULL while it observes)."""

from __future__ import annotations

import sqlite_utils

from gm.store.migrations import run_script


def migrate(db: sqlite_utils.Database) -> None:
    run_script(
        db,
        """CREATE TABLE observers (
            id INTEGER PRIMARY KEY,
            game_id INTEGER NOT NULL REFERENCES games(id),
            email TEXT NOT NULL,
            added TEXT NOT NULL,
            stopped TEXT
        );
        CREATE INDEX observers_game ON observers (game_id, stopped);
        """,
    )
