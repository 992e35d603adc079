"""Indexes for counting the last hour's answers to strangers ([mail] stranger_replies_per_hour:
addresses that hold no seat and have no confirmed sign-up), done once for every mail a flood of
forged senders brings: the answers by when they were queued, and seats and confirmed sign-ups by
account, so the count reads that hour's answers and looks each address up, instead of reading the
whole outbox and every seat. An index changes no row and no answer."""

from __future__ import annotations

import sqlite_utils

from gm.store.migrations import run_script


def migrate(db: sqlite_utils.Database) -> None:
    run_script(
        db,
        """CREATE INDEX IF NOT EXISTS outbox_answers ON outbox (queued) WHERE kind = 'acknowledgement';
        CREATE INDEX IF NOT EXISTS seats_account ON seats (account_id);
        CREATE INDEX IF NOT EXISTS waiting_confirmed ON waiting (account_id) WHERE confirm_hash IS NULL;
        """,
    )
