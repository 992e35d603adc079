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


# What each column of an entry holds (SQLite keeps what a hand edit puts in a column it cannot
# convert: text in credits, a real in balance): whole numbers and text, NULL where the migrations
# allow it. A row that holds anything else is named by unreadable() and left out of the sums.
_COLUMNS = (
    *((c, ("integer",)) for c in ("credits", "money", "discount", "balance", "discount_after", "account_id")),
    *((c, ("integer", "null")) for c in ("turn", "ref", "game_id")),
    *((c, ("text",)) for c in ("date", "kind", "memo")),
    *((c, ("text", "null")) for c in ("seat", "reference")),
)
_HOLDS = {"integer": "a whole number", "real": "a fraction", "text": "text", "blob": "bytes", "null": "nothing"}
_GUARDS = ("ledger_no_update", "ledger_no_delete")  # the triggers that keep the books append-only


def unreadable(db: sqlite_utils.Database) -> list[tuple[int, str, bool]]:
    """(number, why, summed) of each row the books cannot read as an entry, in order: numbered
    below 1, a value of the wrong type, an account or a game that is not there; summed: whether
    its values are of their types all the same, so that it still counts in its account's sums.
    Only a hand edit of the database makes one (gm writes every entry through add_entries)."""
    found = []
    for number, account_id, game_id, no_account, no_game, *types in db.execute(
        f"""SELECT l.id, l.account_id, l.game_id, a.id IS NULL, l.game_id IS NOT NULL AND g.id IS NULL,
                   {", ".join(f"typeof(l.{column})" for column, _ in _COLUMNS)}
            FROM ledger l LEFT JOIN accounts a ON a.id = l.account_id LEFT JOIN games g ON g.id = l.game_id
            ORDER BY l.id"""
    ).fetchall():
        why = [
            f"its {column} holds {_HOLDS[kind]}, not " + " or ".join(_HOLDS[k] for k in allowed)
            for (column, allowed), kind in zip(_COLUMNS, types, strict=True)
            if kind not in allowed
        ]
        typed = not why
        if number < 1:
            why.insert(0, "the books number their entries from 1")
        if no_account and isinstance(account_id, int):
            why.append(f"its account {account_id} is not in the accounts table")
        if no_game and isinstance(game_id, int):
            why.append(f"its game {game_id} is not in the games table")
        if why:
            found.append((number, "; ".join(why), typed))
    return found


def gaps(db: sqlite_utils.Database) -> list[tuple[int, int]]:
    """(first, last) of each run of numbers missing from the books: entries are numbered 1, 2,
    3, ... as they are written (next_number) and never deleted, so a gap is an entry gone."""
    return [
        (first, last)
        for first, last in db.execute(
            """SELECT before + 1, id - 1 FROM
                 (SELECT id, LAG(id, 1, 0) OVER (ORDER BY id) AS before FROM ledger WHERE id >= 1)
               WHERE id > before + 1 ORDER BY id"""
        ).fetchall()
    ]


def missing_guards(db: sqlite_utils.Database) -> list[str]:
    """The triggers keeping the books append-only that are not in the database."""
    there = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'").fetchall()}
    return [name for name in _GUARDS if name not in there]


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
