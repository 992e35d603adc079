"""The credit and discount books: one append-only table of entries (gm/core/ledger.py)."""

from __future__ import annotations

import sqlite_utils

from gm.store.migrations import run_script

KINDS = ("payment", "bonus", "turn charge", "adjustment", "discount award", "forfeit", "transfer")


def migrate(db: sqlite_utils.Database) -> None:
    kinds = ", ".join(f"'{k}'" for k in KINDS)
    run_script(
        db,
        f"""
        CREATE TABLE ledger (
            id INTEGER PRIMARY KEY,
            date TEXT NOT NULL,
            account_id INTEGER NOT NULL REFERENCES accounts(id),
            game_id INTEGER REFERENCES games(id),
            kind TEXT NOT NULL CHECK (kind IN ({kinds})),
            credits INTEGER NOT NULL DEFAULT 0,
            money INTEGER NOT NULL DEFAULT 0,
            discount INTEGER NOT NULL DEFAULT 0,
            turn INTEGER,
            seat TEXT,
            ref INTEGER REFERENCES ledger(id),
            balance INTEGER NOT NULL,
            discount_after INTEGER NOT NULL,
            memo TEXT NOT NULL
        );
        CREATE INDEX ledger_account ON ledger (account_id);
        CREATE INDEX ledger_game_turn ON ledger (game_id, turn);
        -- Append-only: a mistake is put right by a new entry, never by changing an old one.
        CREATE TRIGGER ledger_no_update BEFORE UPDATE ON ledger
            BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
        CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger
            BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
        """,
    )
