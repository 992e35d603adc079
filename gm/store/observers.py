"""Observers of a game: who receives its public pages each turn (gm game observe)."""

from __future__ import annotations

import sqlite_utils


def observing(db: sqlite_utils.Database, game_id: int) -> list[str]:
    """The addresses that observe the game now, in the order they began."""
    rows = db.execute(
        "SELECT email FROM observers WHERE game_id = ? AND stopped IS NULL ORDER BY id", [game_id]
    ).fetchall()
    return [email for (email,) in rows]


def add_observer(db: sqlite_utils.Database, game_id: int, email: str, now: str) -> None:
    db.execute("INSERT INTO observers (game_id, email, added) VALUES (?, ?, ?)", [game_id, email, now])


def stop_observer(db: sqlite_utils.Database, game_id: int, email: str, now: str) -> bool:
    """The address observes the game no more (its row kept); whether it did."""
    return (
        db.execute(
            "UPDATE observers SET stopped = ? WHERE game_id = ? AND lower(email) = lower(?) AND stopped IS NULL",
            [now, game_id, email],
        ).rowcount
        > 0
    )
