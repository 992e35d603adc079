"""Press between players and the GM's announcements: one row per message, and the outbox kinds
that carry them ('press', 'announcement').

A message belongs to the turn being collected when it was sent (it shows in that turn's
report); recipients are the seat codes it reached. SQLite cannot change a CHECK constraint in
place, so the outbox is built anew with the two kinds added to whatever kinds it has.
"""

from __future__ import annotations

import sqlite_utils

from gm.store.migrations import add_outbox_kinds, run_script


def migrate(db: sqlite_utils.Database) -> None:
    run_script(
        db,
        """
        CREATE TABLE press (
            id INTEGER PRIMARY KEY,
            game_id INTEGER NOT NULL REFERENCES games(id),
            turn INTEGER NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('press', 'announcement')),
            sender_seat_id INTEGER REFERENCES seats(id),
            signed INTEGER NOT NULL,
            everyone INTEGER NOT NULL,
            recipients TEXT NOT NULL,
            text TEXT NOT NULL,
            channel TEXT NOT NULL,
            source TEXT NOT NULL,
            archive TEXT NOT NULL,
            sent TEXT NOT NULL
        );
        CREATE INDEX press_game_turn ON press (game_id, turn);
        -- A game's messages newest first, for the portal, without sorting them all.
        CREATE INDEX press_game ON press (game_id);
        CREATE INDEX press_source ON press (source);
        """,
    )
    add_outbox_kinds(db, "press", "announcement")
