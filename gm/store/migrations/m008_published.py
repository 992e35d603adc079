"""A turn is published in one recorded step: turns.published is when every seat's report was
recorded and every report mail queued (NULL: resolved but not published yet).

Turns stored before this are counted published, as the gm that ran them did, unless a game's
last turn lacks a report for some seat: a crash cut that one short, and gm run-due finishes it.
"""

from __future__ import annotations

import sqlite_utils

from gm.store.migrations import run_script


def migrate(db: sqlite_utils.Database) -> None:
    run_script(
        db,
        """
        ALTER TABLE turns ADD COLUMN published TEXT;
        UPDATE turns SET published = resolved
         WHERE number < (SELECT MAX(t.number) FROM turns t WHERE t.game_id = turns.game_id)
            OR (SELECT count(*) FROM reports r WHERE r.game_id = turns.game_id AND r.turn = turns.number)
               >= (SELECT count(*) FROM seats s WHERE s.game_id = turns.game_id);
        CREATE INDEX turns_unpublished ON turns (game_id, number) WHERE published IS NULL;
        """,
    )
