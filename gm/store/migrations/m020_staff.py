"""The house's GMs (issue 33): staff holds each named GM account, the owner first (the one GM
password gm had before, still in gm.toml until gm moves it here: gm.services.staff), and
staff_games the games a GM is limited to (none: every game). audit.actor names who did each
action; the entries written before there were names were the owner's."""

from __future__ import annotations

import sqlite_utils

from gm.store.migrations import run_script


def migrate(db: sqlite_utils.Database) -> None:
    run_script(
        db,
        """
        CREATE TABLE staff (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE COLLATE NOCASE,
            role TEXT NOT NULL CHECK (role IN ('owner', 'gm')),
            password_hash TEXT,
            added TEXT NOT NULL,
            removed TEXT,
            link_nonce TEXT,
            link_expires TEXT
        );
        CREATE TABLE staff_games (
            staff_id INTEGER NOT NULL REFERENCES staff(id),
            game_id INTEGER NOT NULL REFERENCES games(id),
            PRIMARY KEY (staff_id, game_id)
        );
        INSERT INTO staff (name, role, added) VALUES ('owner', 'owner', strftime('%Y-%m-%dT%H:%M:%SZ', 'now'));
        ALTER TABLE audit ADD COLUMN actor TEXT;
        UPDATE audit SET actor = 'owner';
        """,
    )
