"""The mail_taken table: every message intake took, once, by the SHA-256 of its bytes; what came
of it, its answer, and the questions (a person's mail without a turn file) waiting for the GM."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import sqlite_utils

from gm.store import outbox
from gm.store.database import read_int


def taken(db: sqlite_utils.Database, digest: str) -> bool:
    """Whether a message with these very bytes was taken before."""
    return db.execute("SELECT 1 FROM mail_taken WHERE digest = ?", [digest]).fetchone() is not None


# Digests asked about in one statement (taken_of), well under SQLite's limit of variables.
_ASKED_AT_ONCE = 500


def taken_of(db: sqlite_utils.Database, digests: Sequence[str]) -> set[str]:
    """Which of these digests were taken before: `taken` for a whole batch of mail, in one
    statement per _ASKED_AT_ONCE digests."""
    found: set[str] = set()
    for start in range(0, len(digests), _ASKED_AT_ONCE):
        asked = list(digests[start : start + _ASKED_AT_ONCE])
        found.update(
            row[0]
            for row in db.execute(
                f"SELECT digest FROM mail_taken WHERE digest IN ({', '.join('?' * len(asked))})", asked
            ).fetchall()
        )
    return found


def turn_file_taken(db: sqlite_utils.Database, digest: str, number: int) -> tuple[str, str | None] | None:
    """(subject, where in the mail: "body", "attachment x.txt") of the `number`-th turn file (from
    1) of the message taken with these bytes; None when no such message was taken (yet)."""
    row = db.execute(
        "SELECT subject, json_extract(results, ?) FROM mail_taken WHERE digest = ?", [f"$[{number - 1}].where", digest]
    ).fetchone()
    return None if row is None else (row[0], row[1])


def message_ids_with(db: sqlite_utils.Database, content_hash: str) -> set[str]:
    """The Message-IDs ("" for none) of the mail taken with this From and body."""
    return {
        row[0]
        for row in db.execute("SELECT coalesce(message_id, '') FROM mail_taken WHERE content_hash = ?", [content_hash])
    }


def record_taken(
    db: sqlite_utils.Database,
    *,
    digest: str,
    message_id: str | None,
    content_hash: str,
    channel: str,
    source: str,
    sender: str | None,
    subject: str,
    received: str,
    outcome: str,
    results: Sequence[Mapping[str, Any]],
    answer: str,
) -> None:
    """What became of a message (inside the transaction that queued its answer)."""
    db.execute(
        "INSERT INTO mail_taken (digest, message_id, content_hash, channel, source, sender, subject, "
        "received, outcome, results, answer) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            digest,
            message_id,
            content_hash,
            channel,
            source,
            sender,
            subject,
            received,
            outcome,
            json.dumps(results, sort_keys=True),
            answer,
        ],
    )


def questions(
    db: sqlite_utils.Database, every: bool = False, most: int = -1, players_first: bool = False
) -> list[tuple[int, str, str | None, str, str, str | None]]:
    """(id, received, sender, subject, archive digest, when answered) of each question, oldest
    first: those waiting for the GM, or with every=True the answered ones too; the first `most`
    (-1: all). players_first: the questions from addresses the house knows (outbox.is_known)
    before the others, each oldest first, so a flood of strangers' mail cannot push a player's
    question past the first `most`."""
    first = f"NOT ({outbox.known_address('lower(sender)')}), " if players_first else ""
    return db.execute(
        "SELECT id, received, sender, subject, digest, gm_answered FROM mail_taken "
        "WHERE outcome = 'question'" + ("" if every else " AND gm_answered IS NULL") + f" ORDER BY {first}id LIMIT ?",
        [most],
    ).fetchall()


def count_questions(db: sqlite_utils.Database, every: bool = False) -> int:
    """How many questions questions() would give, without reading them."""
    return read_int(
        db.execute(
            "SELECT count(*) FROM mail_taken WHERE outcome = 'question'" + ("" if every else " AND gm_answered IS NULL")
        )
    )


def question(db: sqlite_utils.Database, number: int) -> tuple[int, str, str | None, str, str, str | None] | None:
    """Question `number` as questions() gives each, answered or not; None when there is none."""
    found: tuple[int, str, str | None, str, str, str | None] | None = db.execute(
        "SELECT id, received, sender, subject, digest, gm_answered FROM mail_taken WHERE id = ? AND outcome = 'question'",
        [number],
    ).fetchone()
    return found


def mark_answered(db: sqlite_utils.Database, number: int, now: str) -> bool:
    """The GM answered question `number` (the first time counts); False when there is no such question."""
    return (
        db.execute(
            "UPDATE mail_taken SET gm_answered = coalesce(gm_answered, ?) WHERE id = ? AND outcome = 'question'",
            [now, number],
        ).rowcount
        > 0
    )


def kept(db: sqlite_utils.Database) -> list[tuple[str, str, list[dict[str, Any]]]]:
    """(digest, where it came from, results) of each message kept because a ruleset raised while
    it was read (outcome 'fault'), oldest first."""
    return [
        (digest, source, json.loads(results))
        for digest, source, results in db.execute(
            "SELECT digest, source, results FROM mail_taken WHERE outcome = 'fault' ORDER BY id"
        ).fetchall()
    ]


def forget_kept(db: sqlite_utils.Database, digest: str) -> None:
    """Forget that a kept message was taken, so that it is read again as it came (inside the
    caller's savepoint: put back if it fails again)."""
    db.execute("DELETE FROM mail_taken WHERE digest = ? AND outcome = 'fault'", [digest])
