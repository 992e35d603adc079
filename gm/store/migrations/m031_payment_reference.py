"""A payment's own reference (the bank's or PayPal's transaction id) on its ledger entry, unique in
any case of its letters, so the same payment booked twice is refused (gm credits buy --ref).
Entries before it, and entries that are not payments, have none."""

from __future__ import annotations

import sqlite_utils

from gm.store.migrations import run_script


def migrate(db: sqlite_utils.Database) -> None:
    run_script(
        db,
        """ALTER TABLE ledger ADD COLUMN reference TEXT;
        CREATE UNIQUE INDEX ledger_reference ON ledger (reference COLLATE NOCASE) WHERE reference IS NOT NULL;""",
    )
