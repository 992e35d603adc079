"""People across games: an account's address changed and its history, the requests by mail
waiting for a code, what an export reads of a person, and the rows erasure rewrites."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import sqlite_utils

from gm.store.database import inserted, read_int


@dataclass(frozen=True)
class Person:
    """An account: its id, address, name and when it was made."""

    id: int
    email: str
    name: str
    created: str


@dataclass(frozen=True)
class AddressChange:
    """One change of an account's address: from, to, when, and by whom ('gm', 'mail', 'forgotten')."""

    old_email: str
    new_email: str
    at: str
    by: str


@dataclass(frozen=True)
class Request:
    """A request by mail waiting for its code: its id, the account, its kind ('address',
    'resign', 'forget', 'export'), the address the CONFIRM must come from, its detail (the new
    address; the game and seat), until when it counts, how many wrong codes it has had, and
    how it was settled (None while it waits: 'done', 'superseded', 'too many wrong codes')."""

    id: int
    account_id: int
    kind: str
    confirm_from: str
    detail: dict[str, Any]
    expires: str
    tries: int
    outcome: str | None = None


@dataclass(frozen=True)
class Tenure:
    """A seat a person played: the seat's id, the game's id and name, the seat's code, the first
    turn they played it and the first turn they did not (None: to the end)."""

    seat_id: int
    game_id: int
    game: str
    code: str
    from_turn: int
    until_turn: int | None


def person(db: sqlite_utils.Database, email: str) -> Person | None:
    """The account with that address (any case), or None."""
    row = db.execute("SELECT id, email, name, created FROM accounts WHERE email = ?", [email]).fetchone()
    return None if row is None else Person(*row)


def person_by_id(db: sqlite_utils.Database, account_id: int) -> Person:
    return Person(*db.execute("SELECT id, email, name, created FROM accounts WHERE id = ?", [account_id]).fetchone())


def set_address(db: sqlite_utils.Database, account_id: int, new_email: str, old_email: str, at: str, by: str) -> None:
    """The account's address becomes new_email, and the history says so."""
    db.execute("UPDATE accounts SET email = ? WHERE id = ?", [new_email, account_id])
    db.execute(
        "INSERT INTO address_changes (account_id, old_email, new_email, at, by) VALUES (?, ?, ?, ?, ?)",
        [account_id, old_email, new_email, at, by],
    )


def address_history(db: sqlite_utils.Database, account_id: int) -> list[AddressChange]:
    rows = db.execute(
        "SELECT old_email, new_email, at, by FROM address_changes WHERE account_id = ? ORDER BY id", [account_id]
    ).fetchall()
    return [AddressChange(*row) for row in rows]


def address_now(db: sqlite_utils.Database, old_email: str) -> str | None:
    """The address now of the account that once had old_email, or None when none had it."""
    row = db.execute(
        "SELECT a.email FROM address_changes c JOIN accounts a ON a.id = c.account_id "
        "WHERE c.old_email = ? COLLATE NOCASE ORDER BY c.id DESC LIMIT 1",
        [old_email],
    ).fetchone()
    return None if row is None else str(row[0])


def follow_address(db: sqlite_utils.Database, old_email: str, new_email: str) -> int:
    """Mail not sent yet and standby entries follow a new address; returns the mails re-addressed.
    Sent mail keeps the address it went to: that is what happened."""
    moved = db.execute(
        "UPDATE outbox SET recipient = ? WHERE recipient = ? COLLATE NOCASE AND status IN ('queued', 'failed')",
        [new_email, old_email],
    ).rowcount
    db.execute("UPDATE standbys SET email = ? WHERE email = ? COLLATE NOCASE", [new_email, old_email])
    return int(moved)


def add_request(
    db: sqlite_utils.Database,
    account_id: int,
    kind: str,
    confirm_from: str,
    detail: dict[str, Any],
    code_hash: str,
    expires: str,
    made: str,
) -> int:
    """A request waiting for its code; an earlier one of the same kind and account lapses."""
    db.execute(
        "UPDATE person_requests SET settled = ?, outcome = 'superseded' "
        "WHERE account_id = ? AND kind = ? AND settled IS NULL",
        [made, account_id, kind],
    )
    return inserted(
        db.execute(
            "INSERT INTO person_requests (account_id, kind, confirm_from, detail, code_hash, expires, made) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            [account_id, kind, confirm_from, json.dumps(detail, sort_keys=True), code_hash, expires, made],
        )
    )


_REQUEST = "SELECT id, account_id, kind, confirm_from, detail, expires, tries, outcome FROM person_requests"


def _request(row: Iterable[Any]) -> Request:
    number, account_id, kind, confirm_from, detail, expires, tries, outcome = row
    return Request(number, account_id, kind, confirm_from, json.loads(detail), expires, tries, outcome)


def open_requests(db: sqlite_utils.Database, confirm_from: str) -> list[Request]:
    """The requests waiting for a code from that address, lapsed ones too (never settled)."""
    rows = db.execute(_REQUEST + " WHERE confirm_from = ? AND settled IS NULL ORDER BY id", [confirm_from]).fetchall()
    return [_request(row) for row in rows]


def request_with_code(db: sqlite_utils.Database, confirm_from: str, code_hash: str) -> Request | None:
    """The request of that code waiting on that address, settled or not, lapsed or not."""
    row = db.execute(
        _REQUEST + " WHERE confirm_from = ? AND code_hash = ? ORDER BY id DESC LIMIT 1", [confirm_from, code_hash]
    ).fetchone()
    return None if row is None else _request(row)


def count_wrong_code(db: sqlite_utils.Database, ids: list[int]) -> None:
    db.execute(f"UPDATE person_requests SET tries = tries + 1 WHERE id IN ({', '.join('?' * len(ids))})", ids)


def requests_since(db: sqlite_utils.Database, account_id: int, since: str, proved: bool = False) -> int:
    """Requests a person made since a moment; proved: only those asked with a seat's secret (the
    others, asked by the From address alone, anyone can forge, so they must not spend these)."""
    only = " AND json_extract(detail, '$.unproved') IS NULL" if proved else ""
    return read_int(
        db.execute(
            "SELECT count(*) FROM person_requests WHERE account_id = ? AND made >= ?" + only, [account_id, since]
        )
    )


def requests_settled_as(db: sqlite_utils.Database, kind: str, outcome: str) -> list[Request]:
    rows = db.execute(_REQUEST + " WHERE kind = ? AND outcome = ? ORDER BY id", [kind, outcome]).fetchall()
    return [_request(row) for row in rows]


def mail_waiting(db: sqlite_utils.Database, addresses: list[str]) -> bool:
    """Whether mail to one of these addresses waits to be sent (queued, or to be tried again)."""
    marks = ", ".join("?" * len(addresses))
    return (
        db.execute(
            f"SELECT 1 FROM outbox WHERE recipient COLLATE NOCASE IN ({marks}) AND status = 'queued' LIMIT 1",
            addresses,
        ).fetchone()
        is not None
    )


def settle(db: sqlite_utils.Database, request_id: int, at: str, outcome: str) -> None:
    db.execute("UPDATE person_requests SET settled = ?, outcome = ? WHERE id = ?", [at, outcome, request_id])


def tenures(db: sqlite_utils.Database, account_id: int) -> list[Tenure]:
    """Every seat the account played, and from which turn to which (seat_players: a standby's
    row ends the tenure of the player before)."""
    rows = db.execute(
        """SELECT sp.seat_id, s.game_id, g.name, s.code, sp.from_turn,
                  (SELECT MIN(n.from_turn) FROM seat_players n
                   WHERE n.seat_id = sp.seat_id AND n.from_turn > sp.from_turn)
           FROM seat_players sp JOIN seats s ON s.id = sp.seat_id JOIN games g ON g.id = s.game_id
           WHERE sp.account_id = ? ORDER BY g.name, s.code, sp.from_turn""",
        [account_id],
    ).fetchall()
    return [Tenure(*row) for row in rows]


def mails_from(db: sqlite_utils.Database, addresses: list[str]) -> list[tuple[str, str, str, str]]:
    """(digest, received, outcome, subject) of every mail taken from one of these addresses."""
    marks = ", ".join("?" * len(addresses))
    return db.execute(
        f"SELECT digest, received, outcome, subject FROM mail_taken WHERE sender COLLATE NOCASE IN ({marks}) "
        "ORDER BY id",
        addresses,
    ).fetchall()


def submissions_of(db: sqlite_utils.Database, tenure: Tenure) -> list[dict[str, Any]]:
    """Every turn file stored for the seat in the turns the person played it."""
    until = tenure.until_turn if tenure.until_turn is not None else 1 << 30
    cursor = db.execute(
        """SELECT id, turn, channel, received, archive, verdict, problems, orders, final, current
           FROM submissions WHERE seat_id = ? AND turn >= ? AND turn < ? ORDER BY id""",
        [tenure.seat_id, tenure.from_turn, until],
    )
    columns = [d[0] for d in cursor.description]
    return [dict(zip(columns, row)) for row in cursor.fetchall()]


def reports_of(db: sqlite_utils.Database, tenure: Tenure) -> list[tuple[int, str, str]]:
    """(turn, pdf, json) of the seat's reports of the turns the person played (a report of
    turn N is read before turn N+1: the last one of a tenure is of the turn before it ends)."""
    until = tenure.until_turn if tenure.until_turn is not None else 1 << 30
    return db.execute(
        "SELECT turn, pdf, json FROM reports WHERE game_id = ? AND seat = ? AND turn >= ? AND turn < ? ORDER BY turn",
        [tenure.game_id, tenure.code, max(tenure.from_turn - 1, 0), until - 1],
    ).fetchall()


def taken_by(db: sqlite_utils.Database, account_id: int) -> int:
    """How many seats the account holds now (a person still seated somewhere)."""
    return read_int(db.execute("SELECT count(*) FROM seats WHERE account_id = ?", [account_id]))
