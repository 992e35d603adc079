"""The rows erasure rewrites: a person's addresses and name replaced by a pseudonym wherever gm
wrote them, amounts and orders untouched (gm/services/erasure.py decides what and why)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

import sqlite_utils


def replace_address(db: sqlite_utils.Database, old: str, new: str) -> None:
    """Every row naming the address (any case) names the pseudonym instead; texts that hold it
    (mail bodies, audit details, results, memos) have it replaced where it stands."""
    nocase = "COLLATE NOCASE"
    db.execute(f"UPDATE mail_taken SET sender = ? WHERE sender = ? {nocase}", [new, old])
    db.execute(f"UPDATE submissions SET sender = ? WHERE sender = ? {nocase}", [new, old])
    db.execute(f"UPDATE standbys SET email = ? WHERE email = ? {nocase}", [new, old])
    db.execute(f"UPDATE observers SET email = ? WHERE email = ? {nocase}", [new, old])
    db.execute(f"UPDATE outbox SET recipient = ? WHERE recipient = ? {nocase}", [new, old])
    db.execute(f"UPDATE person_requests SET confirm_from = ? WHERE confirm_from = ? {nocase}", [new, old])
    db.execute(f"UPDATE address_changes SET old_email = ? WHERE old_email = ? {nocase}", [new, old])
    db.execute(f"UPDATE address_changes SET new_email = ? WHERE new_email = ? {nocase}", [new, old])
    for table, column in _TEXTS:
        db.execute(
            f"UPDATE {table} SET {column} = replace(replace({column}, ?, ?), ?, ?) WHERE instr(lower({column}), ?) > 0",
            [old, new, old.lower(), new, old.lower()],
        )


def stop_observing(db: sqlite_utils.Database, address: str, now: str) -> int:
    """The address observes no game from now on (a person forgotten): no more public pages by
    mail, and its portal links and sessions end (gm.services.observer_portal); how many it observed."""
    return db.execute(
        "UPDATE observers SET stopped = ? WHERE email = ? COLLATE NOCASE AND stopped IS NULL", [now, address]
    ).rowcount


def observer_ids(db: sqlite_utils.Database, address: str) -> list[int]:
    """The observers rows of the address (any case), stopped or not."""
    rows = db.execute("SELECT id FROM observers WHERE email = ? COLLATE NOCASE", [address.strip()]).fetchall()
    return [row[0] for row in rows]


# The free texts that may hold an address (as gm stored it, or in lower case): a mail's subject
# and body, an audit entry's detail, a mail taken's subject and results, a request's detail, a
# return slip's choices (a transfer names the account), a run's summary.
_TEXTS = (
    ("outbox", "subject"),
    ("outbox", "body"),
    ("audit", "detail"),
    ("mail_taken", "subject"),
    ("mail_taken", "results"),
    ("person_requests", "detail"),
    ("slips", "choices"),
    ("runs", "summary"),
)


def leave_lists(db: sqlite_utils.Database, account_id: int, addresses: Iterable[str]) -> int:
    """Take the person off every waiting list and standby list they are not seated from yet:
    forgotten, they are never seated. Returns how many entries went."""
    gone = db.execute("DELETE FROM waiting WHERE account_id = ? AND seat_id IS NULL", [account_id]).rowcount
    for address in addresses:
        gone += db.execute(
            "DELETE FROM standbys WHERE email = ? COLLATE NOCASE AND seat_id IS NULL", [address]
        ).rowcount
    return int(gone)


def rename_account(db: sqlite_utils.Database, account_id: int, alias: str) -> None:
    db.execute("UPDATE accounts SET email = ? WHERE id = ?", [alias, account_id])


def replace_name(db: sqlite_utils.Database, account_id: int, name: str, new: str, addresses: Iterable[str]) -> None:
    """The account's name, and the name it is listed under (waiting lists, standbys), become the
    pseudonym; a JSON value equal to the name becomes it in the audit and the mail taken; the
    mails to the person (now to the pseudonym's address) have the name replaced in their text."""
    db.execute("UPDATE accounts SET name = ? WHERE id = ?", [new, account_id])
    db.execute("UPDATE waiting SET name = ? WHERE account_id = ?", [new, account_id])
    db.execute(
        "UPDATE standbys SET name = ? WHERE name = ? AND email IN (SELECT email FROM accounts WHERE id = ?)",
        [new, name, account_id],
    )
    for quoted_name, quoted_new in _quoted(name, new):
        for table, column in (("audit", "detail"), ("mail_taken", "results")):
            db.execute(f"UPDATE {table} SET {column} = replace({column}, ?, ?)", [quoted_name, quoted_new])
    for address in addresses:
        db.execute(
            "UPDATE outbox SET recipient_name = ?, subject = replace(subject, ?, ?), body = replace(body, ?, ?) "
            "WHERE recipient = ?",
            [new, name, new, name, new, address],
        )


def _quoted(name: str, new: str) -> list[tuple[str, str]]:
    """The name and the pseudonym as JSON strings, as gm writes them (non-ASCII escaped) and as
    SQLite does: a name is replaced where it is a value ("Ann"), never inside "Annexed"."""
    return list(
        dict.fromkeys(
            (json.dumps(name, ensure_ascii=ascii), json.dumps(new, ensure_ascii=ascii)) for ascii in (True, False)
        )
    )


def replace_in_memos(db: sqlite_utils.Database, old: str, new: str) -> None:
    """The ledger's memos and payment references naming the address (a transfer's "to ann@..."):
    the one change the append-only ledger allows, made with its guard lifted for these statements
    alone and put back as it was, in the caller's transaction; no amount, balance or account
    changes."""
    guard = db.execute("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'ledger_no_update'").fetchone()
    db.execute("DROP TRIGGER IF EXISTS ledger_no_update")
    for column in ("memo", "reference"):  # a payment's reference is the GM's words too
        db.execute(
            f"UPDATE ledger SET {column} = replace(replace({column}, ?, ?), ?, ?) "
            f"WHERE instr(lower({column}), lower(?)) > 0",
            [old, new, old.lower(), new, old],
        )
    if guard is not None:
        db.execute(guard[0])


def turns_of_games(db: sqlite_utils.Database, game_ids: Iterable[int]) -> list[tuple[int, str, str]]:
    """(id, state, events) of every stored turn of these games."""
    ids = sorted(set(game_ids))
    marks = ", ".join("?" * len(ids))
    return db.execute(f"SELECT id, state, events FROM turns WHERE game_id IN ({marks}) ORDER BY id", ids).fetchall()


def rewrite_turn(db: sqlite_utils.Database, turn_id: int, state: Any, events: Any, state_hash: str) -> None:
    """A stored turn's state and events with the pseudonym in them, and the state's new hash."""
    db.execute(
        "UPDATE turns SET state = ?, events = ?, state_hash = ? WHERE id = ?",
        [json.dumps(state, sort_keys=True), json.dumps(events, sort_keys=True), state_hash, turn_id],
    )


def addresses_of(db: sqlite_utils.Database, account_id: int) -> list[str]:
    """Every address the account has had: its own and each in its history."""
    found = [db.execute("SELECT email FROM accounts WHERE id = ?", [account_id]).fetchone()[0]]
    for old, new in db.execute(
        "SELECT old_email, new_email FROM address_changes WHERE account_id = ? ORDER BY id", [account_id]
    ).fetchall():
        found += [old, new]
    return list(dict.fromkeys(address.lower() for address in found))


def archives_of_seat(db: sqlite_utils.Database, seat_id: int, from_turn: int, until_turn: int | None) -> list[str]:
    """The archive digests of the turn files stored for the seat in those turns."""
    until = until_turn if until_turn is not None else 1 << 30
    return [
        row[0]
        for row in db.execute(
            "SELECT DISTINCT archive FROM submissions WHERE seat_id = ? AND turn >= ? AND turn < ?",
            [seat_id, from_turn, until],
        ).fetchall()
    ]
