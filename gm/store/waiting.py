"""The waiting table: players waiting for a seat in a game open for players, or in the next game
of a ruleset (rows stay, marked seated, once a seat is theirs)."""

from __future__ import annotations

import json
from dataclasses import dataclass

import sqlite_utils


@dataclass(frozen=True)
class Waiting:
    """One player on a waiting list.

    number: the row's id, the list's order (first come, first seated).
    game: the game waited for, or None for the next game of `ruleset`.
    email, name: the player's account and the name to seat them with.
    preferences: seat codes (or nations) wanted, best first; may be empty.
    came: how they came: mail (JOIN), slip (SLIP JOIN) or default (a slip not returned, 11.5).
    added: when, ISO text.
    """

    number: int
    game: str | None
    ruleset: str
    email: str
    name: str
    preferences: tuple
    came: str
    added: str


def is_waiting(db: sqlite_utils.Database, account_id: int, ruleset: str, game_id: int | None) -> bool:
    """Whether the account waits, not seated yet, on that list (game_id None: the ruleset's next game)."""
    return (
        db.execute(
            """SELECT 1 FROM waiting WHERE account_id = ? AND ruleset = ? AND game_id IS ?
                         AND seated IS NULL""",
            [account_id, ruleset, game_id],
        ).fetchone()
        is not None
    )


def add_waiting(
    db: sqlite_utils.Database,
    *,
    game_id: int | None,
    ruleset: str,
    account_id: int,
    name: str,
    preferences: list[str],
    came: str,
    source: str,
    now: str,
) -> None:
    db["waiting"].insert(
        {
            "game_id": game_id,
            "ruleset": ruleset,
            "account_id": account_id,
            "name": name,
            "preferences": json.dumps(preferences),
            "came": came,
            "source": source,
            "added": now,
        }
    )


def waiting_for(db: sqlite_utils.Database, game_id: int, ruleset: str) -> list[Waiting]:
    """Who waits, not seated yet, for the game: its own list, then the ruleset's next-game list,
    first come first."""
    rows = db.execute(
        """SELECT w.id, g.name, w.ruleset, a.email, w.name, w.preferences, w.came, w.added
                         FROM waiting w JOIN accounts a ON a.id = w.account_id
                         LEFT JOIN games g ON g.id = w.game_id
                         WHERE w.seated IS NULL AND (w.game_id = ? OR (w.game_id IS NULL AND w.ruleset = ?))
                         ORDER BY w.game_id IS NULL, w.id""",
        [game_id, ruleset],
    ).fetchall()
    return [Waiting(n, g, r, e, name, tuple(json.loads(p)), c, a) for n, g, r, e, name, p, c, a in rows]


def mark_seated(db: sqlite_utils.Database, number: int, seat_id: int, now: str) -> None:
    db.execute("UPDATE waiting SET seated = ?, seat_id = ? WHERE id = ?", [now, seat_id, number])


def remove_waiting(db: sqlite_utils.Database, number: int) -> bool:
    """Take entry `number` off its waiting list while it is not seated, inside the caller's
    transaction; False when there is no such unseated entry. The row goes: the audit entry the
    caller writes keeps who it was, what they waited for and why they left."""
    return db.execute("DELETE FROM waiting WHERE id = ? AND seated IS NULL", [number]).rowcount > 0
