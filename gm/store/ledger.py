"""The ledger table: the credit and discount books, append-only (its triggers refuse UPDATE and
DELETE), read as gm.core.ledger Entry values; the arithmetic is gm/core/ledger.py's."""

from __future__ import annotations

import sqlite_utils

from gm.core.ledger import Entry
from gm.store.database import read_int

_ENTRIES = """SELECT l.id, l.date, a.email, g.name, l.kind, l.credits, l.money, l.discount, l.turn,
                     l.seat, l.ref, l.balance, l.discount_after, l.memo, l.reference
              FROM ledger l JOIN accounts a ON a.id = l.account_id
              LEFT JOIN games g ON g.id = l.game_id"""
# An entry reversed by an adjustment (a re-run discarded its turn) no longer counts.
_NOT_REVERSED = "NOT EXISTS (SELECT 1 FROM ledger r WHERE r.ref = l.id AND r.kind = 'adjustment')"


def all_entries(db: sqlite_utils.Database) -> list[Entry]:
    return [Entry(*row) for row in db.execute(_ENTRIES + " ORDER BY l.id").fetchall()]


def entry(db: sqlite_utils.Database, number: int) -> Entry:
    return Entry(*db.execute(_ENTRIES + " WHERE l.id = ?", [number]).fetchone())


def account_entries(db: sqlite_utils.Database, email: str) -> list[Entry]:
    return [Entry(*row) for row in db.execute(_ENTRIES + " WHERE a.email = ? ORDER BY l.id", [email]).fetchall()]


def position(db: sqlite_utils.Database, email: str) -> tuple[int, int]:
    """(credits, discount) of the account: the sums of its entries."""
    row = db.execute(
        """SELECT COALESCE(SUM(l.credits), 0), COALESCE(SUM(l.discount), 0)
                        FROM ledger l JOIN accounts a ON a.id = l.account_id WHERE a.email = ?""",
        [email],
    ).fetchone()
    return row[0], row[1]


def position_at_end(db: sqlite_utils.Database, game_id: int, email: str, turn: int, ended: str) -> tuple[int, int]:
    """(credits, discount) of the account as of its last entry for the game (its end); when the
    game booked nothing to it (free turns, no award), as of the game's last entry for its last
    turn `turn` to anyone (another's award); only when there is none, its last entry dated by
    `ended`. Entry numbers are the order entries were written in, whatever the clock said: a
    payment booked before the end while the machine's date was wrong still counts."""
    row = db.execute(
        """SELECT COALESCE(SUM(l.credits), 0), COALESCE(SUM(l.discount), 0) FROM ledger l
           JOIN accounts a ON a.id = l.account_id WHERE a.email = ? AND l.id <= COALESCE(
           (SELECT MAX(m.id) FROM ledger m WHERE m.account_id = a.id AND m.game_id = ?),
           (SELECT MAX(m.id) FROM ledger m WHERE m.game_id = ? AND m.turn >= ?),
           (SELECT MAX(m.id) FROM ledger m WHERE m.account_id = a.id AND m.date <= ?), 0)""",
        [email, game_id, game_id, turn, ended],
    ).fetchone()
    return row[0], row[1]


def discount_awarded(db: sqlite_utils.Database, game_id: int, email: str) -> int:
    """The bonus turns the account won in the game (awards, and adjustments that added some),
    leaving out an award a re-run reversed (the re-run's own award counts instead)."""
    return read_int(
        db.execute(
            f"""SELECT COALESCE(SUM(l.discount), 0) FROM ledger l JOIN accounts a
                         ON a.id = l.account_id WHERE a.email = ? AND l.game_id = ?
                         AND l.kind IN ('discount award', 'adjustment') AND l.discount > 0
                         AND {_NOT_REVERSED}""",
            [email, game_id],
        )
    )


def lowest_discount_since(db: sqlite_utils.Database, email: str, number: int) -> int:
    """The lowest discount the account has held from entry `number` (one of its own) on."""
    return read_int(
        db.execute(
            """SELECT MIN(l.discount_after) FROM ledger l JOIN accounts a ON a.id = l.account_id
               WHERE a.email = ? AND l.id >= ?""",
            [email, number],
        )
    )


def with_reference(db: sqlite_utils.Database, reference: str) -> Entry | None:
    """The payment booked with this reference (in any case of its letters), or None."""
    row = db.execute(_ENTRIES + " WHERE l.reference = ? COLLATE NOCASE", [reference]).fetchone()
    return None if row is None else Entry(*row)


def next_number(db: sqlite_utils.Database) -> int:
    """The number the next entry gets (the caller holds the transaction it is written in)."""
    return read_int(db.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM ledger"))


def add_entries(db: sqlite_utils.Database, made: list[Entry]) -> None:
    """Write entries made by gm/core/ledger.py; their account and game must exist."""
    for made_entry in made:
        account_id = db.execute("SELECT id FROM accounts WHERE email = ?", [made_entry.account]).fetchone()[0]
        game_id = None
        if made_entry.game is not None:
            game_id = db.execute("SELECT id FROM games WHERE name = ?", [made_entry.game]).fetchone()[0]
        db.table("ledger").insert(
            {
                "id": made_entry.number,
                "date": made_entry.date,
                "account_id": account_id,
                "game_id": game_id,
                "kind": made_entry.kind,
                "credits": made_entry.credits,
                "money": made_entry.money,
                "discount": made_entry.discount,
                "turn": made_entry.turn,
                "seat": made_entry.seat,
                "ref": made_entry.ref,
                "balance": made_entry.balance,
                "discount_after": made_entry.discount_after,
                "memo": made_entry.memo,
                "reference": made_entry.reference,
            }
        )


def standing_from(db: sqlite_utils.Database, game_id: int, turn: int, kinds: tuple[str, ...]) -> list[int]:
    """The numbers of the game's entries of these kinds for turn `turn` and later, not reversed
    yet, oldest first: what a re-run from that turn reverses."""
    marks = ", ".join("?" * len(kinds))
    return [
        row[0]
        for row in db.execute(
            f"""SELECT l.id FROM ledger l WHERE l.game_id = ? AND l.turn >= ?
                                             AND l.kind IN ({marks}) AND {_NOT_REVERSED} ORDER BY l.id""",
            [game_id, turn, *kinds],
        ).fetchall()
    ]


def turn_charge(db: sqlite_utils.Database, game_id: int, turn: int, seat: str) -> int | None:
    """The number of the seat's standing charge for the turn (the latest, if charged again), or None."""
    row = db.execute(
        f"""SELECT l.id FROM ledger l WHERE l.game_id = ? AND l.turn = ? AND l.seat = ?
                         AND l.kind = 'turn charge' AND {_NOT_REVERSED} ORDER BY l.id DESC LIMIT 1""",
        [game_id, turn, seat],
    ).fetchone()
    return None if row is None else row[0]


def newest_charges(db: sqlite_utils.Database, email: str, count: int) -> list[int]:
    """The numbers of the account's `count` newest standing turn charges, in any game."""
    return [
        row[0]
        for row in db.execute(
            f"""SELECT l.id FROM ledger l JOIN accounts a ON a.id = l.account_id
                                             WHERE a.email = ? AND l.kind = 'turn charge' AND {_NOT_REVERSED}
                                             ORDER BY l.id DESC LIMIT ?""",
            [email, count],
        ).fetchall()
    ]
