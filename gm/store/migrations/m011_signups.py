"""Players joining and coming back: return slips answered (or defaulted) at a game's end, and
the waiting lists of games and of the next game of a ruleset."""

from __future__ import annotations

import sqlite_utils

from gm.store.migrations import run_script


def migrate(db: sqlite_utils.Database) -> None:
    run_script(
        db,
        """
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
        -- Games over before slips came by mail: their slips count as settled (source 'upgrade'),
        -- or the first gm run-due would apply slip-default to every player of every old game.
        INSERT INTO slips (game_id, seat_id, taken, by, source, choices)
            SELECT s.game_id, s.id, COALESCE((SELECT MAX(t.resolved) FROM turns t
                                              WHERE t.game_id = s.game_id), g.created),
                   'default', 'upgrade', '{"carry": false, "decided": false, "join": null, '
                   || '"transfer_credits": null, "transfer_to": null}'
            FROM seats s JOIN games g ON g.id = s.game_id WHERE g.status = 'over';
        """,
    )
