"""The absences table: the windows in which a seat's player is away (gm game absent, ABSENT lines)."""

from __future__ import annotations

import sqlite_utils


def add_absence(
    db: sqlite_utils.Database, game_id: int, seat_id: int, starts: str, ends: str, source: str, now: str
) -> None:
    """An absence from `starts` until `ends` (UTC ISO); source: 'gm' or 'turn file'."""
    db.table("absences").insert(
        {"game_id": game_id, "seat_id": seat_id, "starts": starts, "ends": ends, "source": source, "created": now}
    )


def absent_at(db: sqlite_utils.Database, game_id: int, when: str) -> list[tuple[str, str]]:
    """(seat code, end of its latest absence) for each seat away at `when` (UTC ISO)."""
    return db.execute(
        """SELECT s.code, MAX(a.ends) FROM absences a JOIN seats s ON s.id = a.seat_id
                         WHERE a.game_id = ? AND a.starts <= ? AND a.ends > ? GROUP BY s.code""",
        [game_id, when, when],
    ).fetchall()
