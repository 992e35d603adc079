"""The house's GM accounts (staff) and the games each is limited to (staff_games)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import sqlite_utils

from gm.store.database import inserted

OWNER = "owner"  # the role of the house's first GM, who had gm's one password before there were names


@dataclass(frozen=True)
class StaffRecord:
    """A GM account: its id, name (as typed; unique whatever the case), role (OWNER or 'gm'),
    password hash (None until one is set), when it was added and removed (ISO text; None while
    it stands), and the names of the games it is limited to (empty: every game)."""

    id: int
    name: str
    role: str
    password_hash: str | None
    added: str
    removed: str | None
    games: tuple[str, ...]


def all_staff(db: sqlite_utils.Database) -> list[StaffRecord]:
    """Every GM account, removed ones too, the owner first, then by when they were added."""
    rows = db.execute(
        "SELECT id, name, role, password_hash, added, removed FROM staff ORDER BY role = 'gm', id"
    ).fetchall()
    return [_record(db, *row) for row in rows]


def staff_named(db: sqlite_utils.Database, name: str) -> StaffRecord | None:
    """The account of that name, whatever its case, removed or not; None when there is none."""
    row = db.execute(
        "SELECT id, name, role, password_hash, added, removed FROM staff WHERE name = ?", [name]
    ).fetchone()
    return None if row is None else _record(db, *row)


def staff_by_id(db: sqlite_utils.Database, staff_id: int) -> StaffRecord | None:
    row = db.execute(
        "SELECT id, name, role, password_hash, added, removed FROM staff WHERE id = ?", [staff_id]
    ).fetchone()
    return None if row is None else _record(db, *row)


def owner(db: sqlite_utils.Database) -> StaffRecord:
    """The house's owner account (m020 makes it)."""
    row = db.execute(
        "SELECT id, name, role, password_hash, added, removed FROM staff WHERE role = ? ORDER BY id LIMIT 1", [OWNER]
    ).fetchone()
    return _record(db, *row)


def _record(
    db: sqlite_utils.Database,
    id_: int,
    name: str,
    role: str,
    password_hash: str | None,
    added: str,
    removed: str | None,
) -> StaffRecord:
    games = tuple(
        g
        for (g,) in db.execute(
            "SELECT g.name FROM staff_games sg JOIN games g ON g.id = sg.game_id WHERE sg.staff_id = ? ORDER BY g.name",
            [id_],
        ).fetchall()
    )
    return StaffRecord(id_, name, role, password_hash, added, removed, games)


def game_ids_of(db: sqlite_utils.Database, staff_id: int) -> frozenset[int]:
    """The ids of the games a GM is limited to (empty: every game)."""
    return frozenset(g for (g,) in db.execute("SELECT game_id FROM staff_games WHERE staff_id = ?", [staff_id]))


def add_staff(db: sqlite_utils.Database, name: str, added: str, game_ids: Iterable[int]) -> int:
    """A new GM account (role 'gm', no password yet), limited to the games given; its id."""
    staff_id = inserted(db.execute("INSERT INTO staff (name, role, added) VALUES (?, 'gm', ?)", [name, added]))
    set_games(db, staff_id, game_ids)
    return staff_id


def set_games(db: sqlite_utils.Database, staff_id: int, game_ids: Iterable[int]) -> None:
    """The games a GM is limited to from now on (none: every game)."""
    db.execute("DELETE FROM staff_games WHERE staff_id = ?", [staff_id])
    for game_id in game_ids:
        db.execute("INSERT INTO staff_games (staff_id, game_id) VALUES (?, ?)", [staff_id, game_id])


def set_password_hash(db: sqlite_utils.Database, staff_id: int, password_hash: str) -> None:
    """A new password's hash; any one-time link made before is void."""
    db.execute(
        "UPDATE staff SET password_hash = ?, link_nonce = NULL, link_expires = NULL WHERE id = ?",
        [password_hash, staff_id],
    )


def mark_removed(db: sqlite_utils.Database, staff_id: int, removed: str) -> None:
    """The account stays (its name stays in the audit log, never given to another), unusable."""
    db.execute("UPDATE staff SET removed = ?, link_nonce = NULL, link_expires = NULL WHERE id = ?", [removed, staff_id])


def set_link(db: sqlite_utils.Database, staff_id: int, nonce: str, expires: str) -> None:
    """The GM's one-time link (one at a time: a new one voids the last)."""
    db.execute("UPDATE staff SET link_nonce = ?, link_expires = ? WHERE id = ?", [nonce, expires, staff_id])


def use_link(db: sqlite_utils.Database, staff_id: int, nonce: str, now: str) -> bool:
    """Use up the GM's link if it is this one and unexpired: one UPDATE, so of two requests with
    the same link only one gets it, whichever worker answers."""
    used = db.execute(
        "UPDATE staff SET link_nonce = NULL, link_expires = NULL "
        "WHERE id = ? AND link_nonce = ? AND link_expires > ? AND removed IS NULL",
        [staff_id, nonce, now],
    )
    return used.rowcount == 1
