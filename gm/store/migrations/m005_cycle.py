"""The weekly cycle: schedules and deadlines on games, standbys, absences, reminders, runs."""

from __future__ import annotations

import sqlite_utils

from gm.store.migrations import run_script


def migrate(db: sqlite_utils.Database) -> None:
    run_script(
        db,
        """
        ALTER TABLE games ADD COLUMN schedule TEXT;          -- JSON of gm.core.schedule.Schedule
        ALTER TABLE games ADD COLUMN slot TEXT;              -- the scheduled deadline of the turn being collected (UTC)
        ALTER TABLE games ADD COLUMN due TEXT;               -- when it is really due: the slot, or a pushed time (UTC)
        ALTER TABLE games ADD COLUMN held INTEGER NOT NULL DEFAULT 0;
        CREATE TABLE standbys (
            id INTEGER PRIMARY KEY,
            game_id INTEGER NOT NULL REFERENCES games(id),
            email TEXT NOT NULL,
            name TEXT NOT NULL,
            added TEXT NOT NULL,
            seat_id INTEGER REFERENCES seats(id),             -- the seat taken, once taken
            taken TEXT
        );
        CREATE TABLE absences (
            id INTEGER PRIMARY KEY,
            game_id INTEGER NOT NULL REFERENCES games(id),
            seat_id INTEGER NOT NULL REFERENCES seats(id),
            starts TEXT NOT NULL,
            ends TEXT NOT NULL,
            source TEXT NOT NULL,
            created TEXT NOT NULL
        );
        CREATE TABLE reminders (
            id INTEGER PRIMARY KEY,
            game_id INTEGER NOT NULL REFERENCES games(id),
            turn INTEGER NOT NULL,
            seat_id INTEGER NOT NULL REFERENCES seats(id),
            kind TEXT NOT NULL CHECK (kind IN ('reminder', 'late')),
            at TEXT NOT NULL,
            UNIQUE (game_id, turn, seat_id, kind)
        );
        CREATE TABLE seat_players (
            id INTEGER PRIMARY KEY,
            seat_id INTEGER NOT NULL REFERENCES seats(id),
            account_id INTEGER NOT NULL REFERENCES accounts(id),
            from_turn INTEGER NOT NULL,
            reason TEXT NOT NULL,
            at TEXT NOT NULL
        );
        CREATE TABLE runs (
            id INTEGER PRIMARY KEY,
            started TEXT NOT NULL,
            finished TEXT,
            summary TEXT NOT NULL DEFAULT '[]'
        );
        """,
    )
