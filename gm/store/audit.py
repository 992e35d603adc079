"""Reading the GM audit log for what the cycle must not do twice (records.audit writes it,
records.audit_log lists it)."""

from __future__ import annotations

import json
from typing import Any

import sqlite_utils

from gm.store.database import read_int


def spike_warnings(db: sqlite_utils.Database, game_id: int, turn: int) -> list[str]:
    """Why the turn was not run for an NMR spike, once per warning logged ('nmr spike')."""
    return [
        why
        for (why,) in db.execute(
            "SELECT json_extract(detail, '$.why') FROM audit WHERE game_id = ? AND action = 'nmr spike' "
            "AND json_extract(detail, '$.turn') = ?",
            [game_id, turn],
        ).fetchall()
    ]


def absence_pushes(db: sqlite_utils.Database, game_id: int, seat: str) -> int:
    """How many times the seat's absences moved the game's deadline ('absence push')."""
    return read_int(
        db.execute(
            "SELECT COUNT(*) FROM audit WHERE game_id = ? AND action = 'absence push' "
            "AND json_extract(detail, '$.seat') = ?",
            [game_id, seat],
        )
    )


def run_due_failures(db: sqlite_utils.Database, game_id: int) -> list[dict[str, Any]]:
    """The details of each 'run-due failed' entry of the game, oldest first."""
    return [
        json.loads(detail)
        for (detail,) in db.execute(
            "SELECT detail FROM audit WHERE game_id = ? AND action = 'run-due failed' ORDER BY id", [game_id]
        ).fetchall()
    ]


def latest_rerun(db: sqlite_utils.Database, game_id: int) -> tuple[int, str, list[int]] | None:
    """(the turn run again, the GM's reason, the turns discarded) of the game's latest re-run
    ('turn rerun'), or None; the reason is "" for a re-run logged before gm asked for one."""
    row = db.execute(
        "SELECT json_extract(detail, '$.from_turn'), COALESCE(json_extract(detail, '$.reason'), ''), "
        "(SELECT json_group_array(json_extract(d.value, '$.number')) FROM json_each(audit.detail, '$.discarded') d) "
        "FROM audit WHERE game_id = ? AND action = 'turn rerun' ORDER BY id DESC LIMIT 1",
        [game_id],
    ).fetchone()
    return None if row is None else (row[0], row[1], sorted(json.loads(row[2])))


def rerun_committed(db: sqlite_utils.Database, game_id: int, at: str) -> bool:
    """Whether a re-run of the game begun at `at` ('turn rerun' logged with that time) committed."""
    found = db.execute(
        "SELECT 1 FROM audit WHERE game_id = ? AND action = 'turn rerun' AND at = ?", [game_id, at]
    ).fetchone()
    return found is not None
