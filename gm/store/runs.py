"""What gm run-due keeps of itself: each run's summary, and the reminders and late notices it sent."""

from __future__ import annotations

import json

import sqlite_utils


def record_run(db: sqlite_utils.Database, started: str, finished: str, summary: list[str]) -> None:
    db.table("runs").insert({"started": started, "finished": finished, "summary": json.dumps(summary)})


def record_reminder(db: sqlite_utils.Database, game_id: int, turn: int, seat_id: int, kind: str, at: str) -> None:
    """A reminder (or late notice, kind 'late') went to the seat for the turn; once per kind."""
    db.execute(
        "INSERT OR IGNORE INTO reminders (game_id, turn, seat_id, kind, at) VALUES (?, ?, ?, ?, ?)",
        [game_id, turn, seat_id, kind, at],
    )


def reminders_sent(db: sqlite_utils.Database, game_id: int, turn: int) -> list[tuple[int, str]]:
    """(seat id, kind) of every reminder and late notice sent for the turn."""
    return db.execute("SELECT seat_id, kind FROM reminders WHERE game_id = ? AND turn = ?", [game_id, turn]).fetchall()
