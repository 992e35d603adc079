"""Seats and who plays them: a seat made, its secret and status, a seat changing hands, the
player's account, and what the seat's report mails carry."""

from __future__ import annotations

import sqlite_utils

from gm.store.database import inserted
from gm.store.records import JOINED


def add_seat(
    db: sqlite_utils.Database, game_id: int, code: str, account_id: int, secret_hash: str, status: str, now: str
) -> int:
    """A seat taken by the account that joined it, who plays it from turn 1; returns its id."""
    seat_id = inserted(
        db.table("seats").insert(
            {
                "game_id": game_id,
                "code": code,
                "account_id": account_id,
                "secret_hash": secret_hash,
                "status": status,
                "joined": now,
            }
        )
    )
    db.table("seat_players").insert(
        {"seat_id": seat_id, "account_id": account_id, "from_turn": 1, "reason": JOINED, "at": now}
    )
    return seat_id


def set_secret_hash(db: sqlite_utils.Database, seat_id: int, secret_hash: str) -> None:
    db.execute("UPDATE seats SET secret_hash = ? WHERE id = ?", [secret_hash, seat_id])


def set_status(db: sqlite_utils.Database, seat_id: int, status: str) -> None:
    db.execute("UPDATE seats SET status = ? WHERE id = ?", [status, seat_id])


def hand_over(
    db: sqlite_utils.Database, seat_id: int, account_id: int, secret_hash: str, from_turn: int, reason: str, now: str
) -> None:
    """Another player (a standby) plays the seat from `from_turn`, with a secret of their own."""
    db.execute(
        "UPDATE seats SET account_id = ?, secret_hash = ?, status = 'active' WHERE id = ?",
        [account_id, secret_hash, seat_id],
    )
    db.table("seat_players").insert(
        {"seat_id": seat_id, "account_id": account_id, "from_turn": from_turn, "reason": reason, "at": now}
    )


def players_from(db: sqlite_utils.Database, seat_id: int, turn: int) -> list[tuple[str, str]]:
    """(name, why) of each player who began to play the seat with `turn`."""
    return db.execute(
        """SELECT a.name, sp.reason FROM seat_players sp JOIN accounts a ON a.id = sp.account_id
                         WHERE sp.seat_id = ? AND sp.from_turn = ?""",
        [seat_id, turn],
    ).fetchall()


def account(db: sqlite_utils.Database, email: str) -> tuple[int, str, str] | None:
    """(id, email, name) of the account with that address (any case), or None."""
    row = db.execute("SELECT id, email, name FROM accounts WHERE email = ?", [email]).fetchone()
    return None if row is None else tuple(row)


def wants_json(db: sqlite_utils.Database, seat_id: int) -> bool:
    """Whether the seat's report mails carry the JSON report too (JSON ON by mail)."""
    row = db.execute("SELECT json_reports FROM seat_mail WHERE seat_id = ?", [seat_id]).fetchone()
    return bool(row and row[0])


def set_wants_json(db: sqlite_utils.Database, seat_id: int, wanted: bool) -> None:
    db.execute(
        "INSERT INTO seat_mail (seat_id, json_reports) VALUES (?, ?) "
        "ON CONFLICT (seat_id) DO UPDATE SET json_reports = excluded.json_reports",
        [seat_id, int(wanted)],
    )
