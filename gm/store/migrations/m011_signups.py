"""Players joining and coming back: return slips answered (or defaulted) at a game's end, and
the waiting lists of games and of the next game of a ruleset."""
from __future__ import annotations

import sqlite_utils

from gm.store.migrations import run_script


def migrate(db: sqlite_utils.Database) -> None:
    run_script(db, """
        CREATE TABLE slips (
            id INTEGER PRIMARY KEY,
            game_id INTEGER NOT NULL REFERENCES games(id),
            seat_id INTEGER NOT NULL UNIQUE REFERENCES seats(id),
            taken TEXT NOT NULL,
            by TEXT NOT NULL CHECK (by IN ('player', 'default')),
            source TEXT NOT NULL,
            choices TEXT NOT NULL
        );
        CREATE TABLE waiting (
            id INTEGER PRIMARY KEY,
            game_id INTEGER REFERENCES games(id),
            ruleset TEXT NOT NULL,
            account_id INTEGER NOT NULL REFERENCES accounts(id),
            name TEXT NOT NULL,
            preferences TEXT NOT NULL DEFAULT '[]',
            came TEXT NOT NULL CHECK (came IN ('mail', 'slip', 'default')),
            source TEXT NOT NULL,
            added TEXT NOT NULL,
            seat_id INTEGER REFERENCES seats(id),
            seated TEXT
        );
        CREATE INDEX waiting_open ON waiting (ruleset, game_id) WHERE seated IS NULL;
        """)
