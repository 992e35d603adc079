"""The outbox: mail waiting to be sent, one row per mail, with its status and retries."""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import sqlite_utils

from gm.clock import iso
from gm.store.database import inserted, read_int
from gm.store.records import SeatRecord

# Temporary failures are tried again after 5 minutes, then 10, 20, ... at most 12 hours apart.
FIRST_RETRY = timedelta(minutes=5)
LONGEST_WAIT = timedelta(hours=12)
# Characters of a subject in the name of a mail about no game (a folder's file name stays short).
SUBJECT_IN_NAME = 60


@dataclass(frozen=True)
class Queued:
    """A mail in the outbox.

    kind: acknowledgement, report or resend. recipient/recipient_name: where it goes (an addr-spec
    and a display name; the header is built from them by email.headerregistry, never by hand).
    attachments: [{path (relative to the GM home), filename, type, sha256}], or
        [{filename, type, content}] for text carried in the row itself (the order form).
    message_id: ours, fixed when queued. in_reply_to/references: threading for answers.
    """

    id: int
    kind: str
    game_id: int | None
    seat: str | None
    turn: int | None
    recipient: str
    recipient_name: str
    subject: str
    body: str
    attachments: list[dict[str, Any]]
    message_id: str
    in_reply_to: str | None
    references: list[str]
    status: str
    attempts: int
    next_attempt: str
    last_error: str | None


def new_message_id(domain: str) -> str:
    # make_msgid() would ask the resolver for this host's name on every call; a random id is enough.
    return f"<{secrets.token_hex(12)}@{domain}>"


def queue(
    db: sqlite_utils.Database,
    now: datetime,
    *,
    kind: str,
    recipient: str,
    recipient_name: str,
    subject: str,
    body: str,
    domain: str,
    attachments: Sequence[Mapping[str, Any]] = (),
    in_reply_to: str | None = None,
    references: Sequence[str] = (),
    game_id: int | None = None,
    seat: str | None = None,
    turn: int | None = None,
    message_id: str | None = None,
    proved: bool = False,
) -> int:
    """Put a mail in the outbox (inside the caller's transaction); returns its id.
    message_id: one the caller made (a report's, so its thread is known); default a random one.
    proved: an answer to a mail that proved a seat's secret (answers_since)."""
    made = db.execute(
        "INSERT INTO outbox (kind, game_id, seat, turn, recipient, recipient_name, subject, body, attachments, "
        "message_id, in_reply_to, refs, status, attempts, next_attempt, queued, proved) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'queued', 0, ?, ?, ?)",
        [
            kind,
            game_id,
            seat,
            turn,
            recipient,
            recipient_name,
            subject,
            body,
            json.dumps(list(attachments)),
            message_id or new_message_id(domain),
            in_reply_to,
            json.dumps(list(references)),
            iso(now),
            iso(now),
            int(proved),
        ],
    )
    return inserted(made)


def queue_seat_notice(
    db: sqlite_utils.Database,
    now: datetime,
    seat: SeatRecord,
    subject: str,
    body: str,
    domain: str,
    attachments: Sequence[Mapping[str, Any]] = (),
) -> int:
    """Queue a notice to a seat's player (the game's start, a sign-up's seat, a slip's answer),
    filed under the seat but under no turn: neither the report queue nor releasing held
    reports takes it for a turn's. Returns its id."""
    return queue(
        db,
        now,
        kind="notice",
        recipient=seat.email,
        recipient_name=seat.name,
        subject=subject,
        body=body,
        domain=domain,
        attachments=attachments,
        game_id=seat.game_id,
        seat=seat.code,
    )


def follow_up(message_id: str, references: Sequence[str]) -> dict[str, Any]:
    """The threading of a mail that answers the one with this Message-ID and References: the
    thread's root and the last few ancestors are enough for every mail program (RFC 5322 3.6.4)."""
    ancestors = list(references) + [message_id]
    return {
        "in_reply_to": message_id,
        "references": ancestors if len(ancestors) <= 10 else ancestors[:1] + ancestors[-9:],
    }


_COLUMNS = (
    "id, kind, game_id, seat, turn, recipient, recipient_name, subject, body, attachments, "
    "message_id, in_reply_to, refs, status, attempts, next_attempt, last_error"
)


def _queued(row: Sequence[Any]) -> Queued:
    values = list(row)
    values[9] = json.loads(values[9])
    values[12] = json.loads(values[12])
    return Queued(*values)


def due(db: sqlite_utils.Database, now: datetime) -> list[Queued]:
    """Queued mail whose time has come, oldest first."""
    rows = db.execute(
        f"SELECT {_COLUMNS} FROM outbox WHERE status = 'queued' AND next_attempt <= ? ORDER BY id", [iso(now)]
    ).fetchall()
    return [_queued(r) for r in rows]


def listed(db: sqlite_utils.Database, statuses: Sequence[str] = ("queued", "failed")) -> list[Queued]:
    marks = ", ".join("?" for _ in statuses)
    rows = db.execute(f"SELECT {_COLUMNS} FROM outbox WHERE status IN ({marks}) ORDER BY id", list(statuses)).fetchall()
    return [_queued(r) for r in rows]


def mark_sent(db: sqlite_utils.Database, mail: Queued, now: datetime) -> None:
    db.execute(
        "UPDATE outbox SET status = 'sent', sent = ?, attempts = attempts + 1, last_error = NULL WHERE id = ?",
        [iso(now), mail.id],
    )


def mark_retry(db: sqlite_utils.Database, mail: Queued, now: datetime, error: str) -> datetime:
    """Count a temporary failure and set the next try; returns when that is."""
    wait: timedelta = min(FIRST_RETRY * (2**mail.attempts), LONGEST_WAIT)  # int ** int is typed Any
    db.execute(
        "UPDATE outbox SET attempts = attempts + 1, next_attempt = ?, last_error = ? WHERE id = ?",
        [iso(now + wait), error, mail.id],
    )
    return now + wait


def mark_failed(db: sqlite_utils.Database, mail: Queued, error: str) -> None:
    db.execute(
        "UPDATE outbox SET status = 'failed', attempts = attempts + 1, last_error = ? WHERE id = ?", [error, mail.id]
    )


def cancel_reports(db: sqlite_utils.Database, game_id: int, seat: str, turn: int) -> None:
    """An unsent report mail for a turn whose reports were made again is replaced, not sent twice."""
    db.execute(
        "UPDATE outbox SET status = 'cancelled' WHERE kind = 'report' AND status = 'queued' "
        "AND game_id = ? AND seat = ? AND turn = ?",
        [game_id, seat, turn],
    )


# A held notice (sent instead of a report held for credits) is the only notice queued with a turn;
# the others (a seat taken, a game started, a drop-out, a slip's default) have none.
HELD_NOTICE = "(kind = 'notice' AND turn IS NOT NULL)"


def cancel_notices(db: sqlite_utils.Database, game_id: int, seat: str, turn: int) -> int:
    """A held notice still waiting when a payment released the report it was about is withdrawn:
    the player would read it after the report itself. Returns how many."""
    return db.execute(
        f"UPDATE outbox SET status = 'cancelled' WHERE {HELD_NOTICE} AND status = 'queued' "
        "AND game_id = ? AND seat = ? AND turn = ?",
        [game_id, seat, turn],
    ).rowcount


def answers_since(db: sqlite_utils.Database, recipient: str, since: datetime, proved: bool = False) -> int:
    """How many answers (acknowledgements, reports sent again) were queued for an address since a
    moment: the rate limit that keeps two robots from answering each other for ever. proved: only
    the answers to mails that proved a seat's secret, which mail forged from the address cannot
    bring (so it cannot spend the player's own answers)."""
    return read_int(
        db.execute(
            "SELECT count(*) FROM outbox WHERE recipient = ? AND kind IN ('acknowledgement', 'resend') AND queued >= ?"
            + (" AND proved = 1" if proved else ""),
            [recipient, iso(since)],
        )
    )


# An address the house knows: it holds (or held) a seat, or its sign-up was confirmed from it.
# Any other is a stranger's, and anyone may write it in a From (answers_to_strangers_since).
_KNOWN = """EXISTS (SELECT 1 FROM accounts a WHERE a.email = {address} AND (
    EXISTS (SELECT 1 FROM seats s WHERE s.account_id = a.id)
    OR EXISTS (SELECT 1 FROM waiting w WHERE w.account_id = a.id AND w.confirm_hash IS NULL)))"""


def known_address(expression: str) -> str:
    """SQL that is true when the address `expression` gives (a column, or ?) is one the house
    knows (is_known), for a query to put players before strangers."""
    return _KNOWN.format(address=expression)


def is_known(db: sqlite_utils.Database, address: str) -> bool:
    """Whether an address holds or held a seat here, or confirmed a sign-up from it."""
    return bool(read_int(db.execute("SELECT " + _KNOWN.format(address="?"), [address])))


def answers_to_strangers_since(db: sqlite_utils.Database, since: datetime, proved: bool = False) -> int:
    """How many answers were queued since a moment for addresses the house does not know, less
    those cancelled unsent: the house-wide bound that keeps a flood of mails from forged senders
    from making gm a reflector. proved: those to mails that proved a seat's secret instead, a
    bound of their own, so strangers' mail cannot spend it, nor a player's Reply-Tos go past it."""
    return read_int(
        db.execute(
            "SELECT count(*) FROM outbox o WHERE o.kind = 'acknowledgement' AND o.queued >= ? "
            "AND o.status != 'cancelled' AND o.proved = ? AND NOT " + _KNOWN.format(address="o.recipient"),
            [iso(since), int(proved)],
        )
    )


def cancel_answers_to_strangers(db: sqlite_utils.Database, addresses: Sequence[str]) -> int:
    """Cancel the unsent answers to these addresses where the house does not know them (a flood of
    sign-ups the GM cleared), inside the caller's transaction, so they neither go out nor count
    against the hour's answers to strangers; how many."""
    cancelled = 0
    for address in addresses:
        cancelled += db.execute(
            "UPDATE outbox SET status = 'cancelled' WHERE recipient = ? AND kind = 'acknowledgement' "
            "AND status = 'queued' AND NOT " + _KNOWN.format(address="?"),
            [address.lower(), address.lower()],
        ).rowcount
    return cancelled


def is_answer(db: sqlite_utils.Database, message_id: str) -> bool:
    """Whether a Message-ID is one of an answer gm wrote by itself (an acknowledgement)."""
    row = db.execute("SELECT kind FROM outbox WHERE message_id = ?", [message_id]).fetchone()
    return row is not None and row[0] == "acknowledgement"


def mail_name(db: sqlite_utils.Database, mail: Queued) -> str:
    """What a mail is, for a GM reading a folder of them: <game>-<turn>-<seat>-<kind>; a mail
    about no game (the answer to a question, a sign-up's confirmation, a refusal) is named by
    whom it goes to and its subject instead: acknowledgement-ann@example.org-Re-Can-I-join."""
    game = None
    if mail.game_id is not None:
        row = db.execute("SELECT name FROM games WHERE id = ?", [mail.game_id]).fetchone()
        game = row[0] if row else None
    if game is None:
        subject = re.sub(r"[^A-Za-z0-9]+", "-", mail.subject).strip("-")[:SUBJECT_IN_NAME]
        return "-".join(p for p in (mail.kind, mail.recipient, subject) if p)
    return "-".join(str(p) for p in (game, mail.turn, mail.seat, mail.kind) if p is not None)


def cancel_from(db: sqlite_utils.Database, game_id: int, turn: int) -> int:
    """Unsent mails about turn `turn` and later (reports, reports sent again, held notices,
    reminders and late notices): a re-run discards those turns, so the reports would carry the
    new turns' files and the notices speak of reports and deadlines that no longer hold.
    Returns how many."""
    return db.execute(
        "UPDATE outbox SET status = 'cancelled' WHERE game_id = ? AND turn >= ? "
        f"AND (kind IN ('report', 'resend', 'reminder', 'late') OR {HELD_NOTICE}) AND status = 'queued'",
        [game_id, turn],
    ).rowcount


def reports_sent_from(db: sqlite_utils.Database, game_id: int, turn: int) -> list[int]:
    """The turns from `turn` on whose report mails some player already got."""
    return [
        number
        for (number,) in db.execute(
            "SELECT DISTINCT turn FROM outbox WHERE game_id = ? AND turn >= ? AND kind IN ('report', 'resend') "
            "AND status = 'sent' ORDER BY turn",
            [game_id, turn],
        ).fetchall()
    ]


def report_mails(db: sqlite_utils.Database, game_id: int, seat: str, turn: int) -> int:
    """How many report mails of the seat's turn were ever queued (cancelled ones too)."""
    return read_int(
        db.execute(
            "SELECT count(*) FROM outbox WHERE kind = 'report' AND game_id = ? AND seat = ? AND turn = ?",
            [game_id, seat, turn],
        )
    )


def mailed_report_turns(db: sqlite_utils.Database, game_id: int, seat: str) -> set[int]:
    """The turns whose report mail of the seat is queued or sent: released, once and for all."""
    return {
        turn
        for (turn,) in db.execute(
            "SELECT DISTINCT turn FROM outbox WHERE kind = 'report' AND game_id = ? AND seat = ? "
            "AND status IN ('queued', 'sent') AND turn IS NOT NULL",
            [game_id, seat],
        ).fetchall()
    }


def previous_report_mail(db: sqlite_utils.Database, game_id: int, seat: str, turn: int) -> tuple[str, list[str]] | None:
    """(Message-ID, references) of the seat's latest report mail (queued or sent) of a turn
    before `turn`, or None: the mail a new report answers, so the seat's reports make one thread."""
    row = db.execute(
        "SELECT message_id, refs FROM outbox WHERE kind = 'report' AND game_id = ? AND seat = ? "
        "AND turn < ? AND status IN ('queued', 'sent') ORDER BY turn DESC, id DESC LIMIT 1",
        [game_id, seat, turn],
    ).fetchone()
    return None if row is None else (row[0], json.loads(row[1]))


def held_without_report(db: sqlite_utils.Database) -> list[tuple[str, int, str]]:
    """(game name, turn, seat) of every report that got a held notice and whose report mail has
    not been queued since, oldest first, once each: the reports a payment may release."""
    rows = db.execute(
        """SELECT DISTINCT g.name, o.turn, o.seat FROM outbox o JOIN games g ON g.id = o.game_id
           WHERE o.kind = 'notice' AND o.turn IS NOT NULL
           AND o.seat IS NOT NULL AND NOT EXISTS (
               SELECT 1 FROM outbox r WHERE r.kind = 'report' AND r.game_id = o.game_id AND r.turn = o.turn
               AND r.seat = o.seat AND r.status IN ('queued', 'sent'))
           ORDER BY o.turn, g.name, o.seat""",
    ).fetchall()
    return [(name, turn, seat) for name, turn, seat in rows]


def set_attachments(db: sqlite_utils.Database, mail: Queued, attachments: Sequence[Mapping[str, Any]]) -> None:
    db.execute("UPDATE outbox SET attachments = ? WHERE id = ?", [json.dumps(attachments), mail.id])


def links_since(db: sqlite_utils.Database, game_id: int, seat: str, since: datetime) -> int:
    """Sign-in link mails queued for a seat since a moment (whoever asked, whatever became of them)."""
    return read_int(
        db.execute(
            "SELECT count(*) FROM outbox WHERE kind = 'link' AND game_id = ? AND seat = ? AND queued >= ?",
            [game_id, seat, iso(since)],
        )
    )
