"""Mail a person wrote without a turn file is a question for the GM (mail_taken outcome
'question'); gm_answered is when the GM marked it answered (gm inbox answered)."""

from __future__ import annotations

import sqlite_utils

from gm.store.migrations import run_script


def migrate(db: sqlite_utils.Database) -> None:
    run_script(
        db,
        """
        ALTER TABLE mail_taken ADD COLUMN gm_answered TEXT;
        CREATE INDEX mail_taken_questions ON mail_taken (id) WHERE outcome = 'question';
        """,
    )
