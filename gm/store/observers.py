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


def observer_row(db: sqlite_utils.Database, observer_id: int) -> tuple[int, str, str | None] | None:
    """(game id, address, when it stopped or None) of an observer, or None when there is none."""
    row = db.execute("SELECT game_id, email, stopped FROM observers WHERE id = ?", [observer_id]).fetchone()
    return None if row is None else (int(row[0]), str(row[1]), row[2])


def observing_ids(db: sqlite_utils.Database, game_id: int) -> list[tuple[int, str]]:
    """(id, address) of each observer of the game now, in the order they began."""
    rows = db.execute(
        "SELECT id, email FROM observers WHERE game_id = ? AND stopped IS NULL ORDER BY id", [game_id]
    ).fetchall()
    return [(int(i), str(e)) for i, e in rows]


def add_link(db: sqlite_utils.Database, nonce_hash: str, observer_id: int, created: str, expires: str) -> None:
    db.execute(
        "INSERT INTO observer_links (nonce_hash, observer_id, created, expires) VALUES (?, ?, ?, ?)",
        [nonce_hash, observer_id, created, expires],
    )


def use_link(db: sqlite_utils.Database, nonce_hash: str, now: str) -> int | None:
    """The observer id of the link, marking it used; None when it is unknown, used or expired
    (the caller holds the transaction, so two requests cannot both use it)."""
    row = db.execute(
        "SELECT observer_id FROM observer_links WHERE nonce_hash = ? AND used IS NULL AND expires > ?",
        [nonce_hash, now],
    ).fetchone()
    if row is None:
        return None
    db.execute("UPDATE observer_links SET used = ? WHERE nonce_hash = ?", [now, nonce_hash])
    return int(row[0])
