"""The standbys table: players waiting to take over a seat that drops out of a game
(records.waiting_standbys lists them)."""

from __future__ import annotations

import sqlite_utils

from gm.store.database import read_int


def add_standby(db: sqlite_utils.Database, game_id: int, email: str, name: str, now: str) -> None:
    db.table("standbys").insert({"game_id": game_id, "email": email, "name": name, "added": now})


def standbys_waiting(db: sqlite_utils.Database, game_id: int) -> int:
    """How many of the game's standbys have not taken a seat yet."""
    return read_int(db.execute("SELECT COUNT(*) FROM standbys WHERE game_id = ? AND seat_id IS NULL", [game_id]))


def first_standby(db: sqlite_utils.Database, game_id: int) -> tuple[int, str, str] | None:
    """(id, email, name) of the standby first in line, or None. One who holds a seat of the game
    already (seated with gm game join after joining the line) is passed over: one player, one seat."""
    row = db.execute(
        """SELECT id, email, name FROM standbys
           WHERE game_id = ? AND seat_id IS NULL AND lower(email) NOT IN (
               SELECT lower(a.email) FROM seats s JOIN accounts a ON a.id = s.account_id WHERE s.game_id = ?)
           ORDER BY id""",
        [game_id, game_id],
    ).fetchone()
    return None if row is None else tuple(row)


def mark_taken(db: sqlite_utils.Database, standby_id: int, seat_id: int, now: str) -> None:
    """The standby took that seat and waits no more."""
    db.execute("UPDATE standbys SET seat_id = ?, taken = ? WHERE id = ?", [seat_id, now, standby_id])
