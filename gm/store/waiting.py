"""The waiting table: players waiting for a seat in a game open for players, or in the next game
of a ruleset (rows stay, marked seated, once a seat is theirs)."""

from __future__ import annotations

import json
from dataclasses import dataclass

import sqlite_utils

from gm.store.database import read_int


@dataclass(frozen=True)
class Waiting:
    """One player on a waiting list.

    number: the row's id, the list's order (first come, first seated).
    game: the game waited for, or None for the next game of `ruleset`.
    email, name: the player's account and the name to seat them with.
    preferences: seat codes (or nations) wanted, best first; may be empty.
    came: how they came: mail (JOIN), slip (SLIP JOIN) or default (a slip not returned, 11.5).
    added: when, ISO text.
    confirm_by: a sign-up by mail not confirmed yet lapses then (ISO text); None once confirmed
        (and for every entry that needed no confirmation).
    """

    number: int
    game: str | None
    ruleset: str
    email: str
    name: str
    preferences: tuple[str, ...]
    came: str
    added: str
    confirm_by: str | None = None


def waiting_entry(
    db: sqlite_utils.Database, account_id: int, ruleset: str, game_id: int | None
) -> tuple[int, str | None] | None:
    """(number, confirm_hash) of the account's unseated entry on that list, or None."""
    row = db.execute(
        """SELECT id, confirm_hash FROM waiting WHERE account_id = ? AND ruleset = ? AND game_id IS ?
                     AND seated IS NULL""",
        [account_id, ruleset, game_id],
    ).fetchone()
    return None if row is None else (row[0], row[1])


def unconfirmed_count(db: sqlite_utils.Database, account_id: int, now: str) -> int:
    """How many of the account's sign-ups wait for their confirmation and have not lapsed."""
    return read_int(
        db.execute(
            """SELECT count(*) FROM waiting WHERE account_id = ? AND confirm_hash IS NOT NULL
                     AND seated IS NULL AND confirm_by > ?""",
            [account_id, now],
        )
    )


def lapse_oldest_unconfirmed(db: sqlite_utils.Database, account_id: int, now: str) -> tuple[int, int | None] | None:
    """Lapse the account's oldest sign-up still waiting for its confirmation (its code counts no
    more from `now`, as if its hours were up); (its number, its game's id or None), or None."""
    row = db.execute(
        """SELECT id, game_id FROM waiting WHERE account_id = ? AND confirm_hash IS NOT NULL
                 AND seated IS NULL AND confirm_by > ? ORDER BY id LIMIT 1""",
        [account_id, now],
    ).fetchone()
    if row is None:
        return None
    db.execute("UPDATE waiting SET confirm_by = ? WHERE id = ?", [now, row[0]])
    return row[0], row[1]


def set_confirmation(db: sqlite_utils.Database, number: int, confirm_hash: str | None, confirm_by: str | None) -> None:
    """A new confirmation code (its hash, and when it lapses) for an entry, so the code mailed
    before no longer counts; None and None: the entry is confirmed."""
    db.execute("UPDATE waiting SET confirm_hash = ?, confirm_by = ? WHERE id = ?", [confirm_hash, confirm_by, number])


def waiting_with_code(
    db: sqlite_utils.Database, email: str, confirm_hash: str
) -> tuple[int, str, str | None, str] | None:
    """(number, confirm_by, game name or None, ruleset) of the address's unseated entry waiting
    for the code with this hash, or None (an entry with a code has its lapse time: set_confirmation
    sets the two together)."""
    row = db.execute(
        """SELECT w.id, w.confirm_by, g.name, w.ruleset FROM waiting w JOIN accounts a ON a.id = w.account_id
                     LEFT JOIN games g ON g.id = w.game_id
                     WHERE a.email = ? AND w.confirm_hash = ? AND w.seated IS NULL""",
        [email, confirm_hash],
    ).fetchone()
    return None if row is None else (row[0], row[1], row[2], row[3])


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
    confirm_hash: str | None = None,
    confirm_by: str | None = None,
) -> None:
    """A new entry; with a confirm_hash it waits for its confirmation until confirm_by."""
    db.table("waiting").insert(
        {
            "game_id": game_id,
            "ruleset": ruleset,
            "account_id": account_id,
            "name": name,
            "preferences": json.dumps(preferences),
            "came": came,
            "source": source,
            "added": now,
            "confirm_hash": confirm_hash,
            "confirm_by": confirm_by,
        }
    )


def waiting_for(db: sqlite_utils.Database, game_id: int, ruleset: str, unconfirmed: bool = False) -> list[Waiting]:
    """Who waits, not seated yet, for the game: its own list, then the ruleset's next-game list,
    first come first; confirmed only, or with unconfirmed also those not confirmed (lapsed too)."""
    rows = db.execute(
        """SELECT w.id, g.name, w.ruleset, a.email, w.name, w.preferences, w.came, w.added, w.confirm_by
                         FROM waiting w JOIN accounts a ON a.id = w.account_id
                         LEFT JOIN games g ON g.id = w.game_id
                         WHERE w.seated IS NULL AND (w.game_id = ? OR (w.game_id IS NULL AND w.ruleset = ?))
                         AND (? OR w.confirm_hash IS NULL)
                         ORDER BY w.game_id IS NULL, w.id""",
        [game_id, ruleset, unconfirmed],
    ).fetchall()
    return [Waiting(n, g, r, e, name, tuple(json.loads(p)), c, a, by) for n, g, r, e, name, p, c, a, by in rows]


def mark_seated(db: sqlite_utils.Database, number: int, seat_id: int, now: str) -> None:
    db.execute("UPDATE waiting SET seated = ?, seat_id = ? WHERE id = ?", [now, seat_id, number])


def remove_waiting(db: sqlite_utils.Database, number: int) -> bool:
    """Take entry `number` off its waiting list while it is not seated, inside the caller's
    transaction; False when there is no such unseated entry. The row goes: the audit entry the
    caller writes keeps who it was, what they waited for and why they left."""
    return db.execute("DELETE FROM waiting WHERE id = ? AND seated IS NULL", [number]).rowcount > 0
