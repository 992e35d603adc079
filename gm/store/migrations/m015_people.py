"""People across games: the history of each account's addresses, and the requests a player
makes by mail that wait for a code (a new address, a resignation, erasure, an export)."""

from __future__ import annotations

import sqlite_utils

from gm.store.migrations import run_script


def migrate(db: sqlite_utils.Database) -> None:
    run_script(
        db,
        """
        -- Who had which address when: one row per change (by: 'gm', 'mail' or 'forgotten').
        CREATE TABLE address_changes (
            id INTEGER PRIMARY KEY,
            account_id INTEGER NOT NULL REFERENCES accounts(id),
            old_email TEXT NOT NULL,
            new_email TEXT NOT NULL,
            at TEXT NOT NULL,
            by TEXT NOT NULL CHECK (by IN ('gm', 'mail', 'forgotten'))
        );
        CREATE INDEX address_changes_account ON address_changes (account_id);
        -- A request by mail waiting for its code: confirm_from is the address the CONFIRM must
        -- come from; detail is JSON (the new address, the game and seat); only the code's hash
        -- is kept; settled and outcome once done, lapsed or refused for too many wrong codes.
        CREATE TABLE person_requests (
            id INTEGER PRIMARY KEY,
            account_id INTEGER NOT NULL REFERENCES accounts(id),
            kind TEXT NOT NULL CHECK (kind IN ('address', 'resign', 'forget', 'export')),
            confirm_from TEXT NOT NULL COLLATE NOCASE,
            detail TEXT NOT NULL DEFAULT '{}',
            code_hash TEXT NOT NULL,
            expires TEXT NOT NULL,
            tries INTEGER NOT NULL DEFAULT 0,
            made TEXT NOT NULL,
            settled TEXT,
            outcome TEXT
        );
        CREATE INDEX person_requests_open ON person_requests (confirm_from) WHERE settled IS NULL;
        """,
    )
