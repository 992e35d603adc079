"""Which answers went to a mail that proved a seat's secret (a turn file or request whose secret
was right): anyone can write a player's address in a From, so the answers such forged mail
brings must not spend the hour's answers the player's own turn files get ([mail]
replies_per_hour), nor may a flood of strangers' mail spend them ([mail]
stranger_replies_per_hour). Answers before it are counted as unproved, as they were."""

from __future__ import annotations

import sqlite_utils

from gm.store.migrations import run_script


def migrate(db: sqlite_utils.Database) -> None:
    run_script(db, "ALTER TABLE outbox ADD COLUMN proved INTEGER NOT NULL DEFAULT 0;")
