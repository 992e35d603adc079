"""The submissions table: every turn file stored, which one counts for a seat's turn, and the
versions a seat sent (records.current_submissions gives the ones that count for a turn)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import sqlite_utils

from gm.store.database import read_int


def add_submission(
    db: sqlite_utils.Database,
    *,
    game_id: int,
    seat_id: int,
    turn: int,
    channel: str,
    source: str,
    sender: str | None,
    received: str,
    archive: str,
    encoding: str,
    verdict: str,
    problems: Sequence[Mapping[str, Any]],
    orders: Sequence[Mapping[str, Any]],
    final: bool,
    current: bool,
    vote: Mapping[str, Any] | None = None,
) -> None:
    """Store a checked turn file (inside the caller's transaction). archive: the SHA-256 of its raw
    bytes; verdict: 'accepted' or 'rejected'; current: whether it counts for the seat's turn;
    vote: its DRAW or CONCEDE (gm/core/agreement.py), None without one."""
    # The statement written out, as intake has always run it: mail intake stores thousands in a run.
    db.execute(
        "INSERT INTO submissions (game_id, seat_id, turn, channel, source, sender, received, archive, encoding, "
        "verdict, problems, orders, final, current, vote) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            game_id,
            seat_id,
            turn,
            channel,
            source,
            sender,
            received,
            archive,
            encoding,
            verdict,
            json.dumps(problems),
            json.dumps(orders),
            int(final),
            int(current),
            None if vote is None else json.dumps(vote),
        ],
    )


def uncount(db: sqlite_utils.Database, seat_id: int, turn: int) -> bool:
    """The seat's submission that counted for the turn counts no more; whether there was one."""
    return (
        db.execute(
            "UPDATE submissions SET current = 0 WHERE seat_id = ? AND turn = ? AND current = 1", [seat_id, turn]
        ).rowcount
        > 0
    )


def uncount_after(db: sqlite_utils.Database, game_id: int, turn: int) -> None:
    """No submission for a turn after `turn` counts (they answered a position a re-run undid)."""
    db.execute("UPDATE submissions SET current = 0 WHERE game_id = ? AND turn > ?", [game_id, turn])


def counting_after(db: sqlite_utils.Database, game_id: int, turn: int) -> list[str]:
    """The seat codes with orders that count for a turn after `turn` (a re-run from it undoes them)."""
    return [
        code
        for (code,) in db.execute(
            "SELECT DISTINCT s.code FROM submissions sub JOIN seats s ON s.id = sub.seat_id "
            "WHERE sub.game_id = ? AND sub.turn > ? AND sub.current = 1 ORDER BY s.code",
            [game_id, turn],
        ).fetchall()
    ]


def stored_from(db: sqlite_utils.Database, source: str) -> int | None:
    """The id of the submission stored from `source` (as 'mail:DIGEST:N'), or None."""
    row = db.execute("SELECT id FROM submissions WHERE source = ?", [source]).fetchone()
    return None if row is None else row[0]


# Sources asked about in one statement (stored_from_any), well under SQLite's limit of variables.
_ASKED_AT_ONCE = 500


def stored_from_any(db: sqlite_utils.Database, sources: Sequence[str]) -> dict[str, int]:
    """stored_from for many sources at once (a batch of mail): {source: submission id} of those
    a submission was stored from; a source stored from twice gives the first id, as stored_from."""
    found: dict[str, int] = {}
    for start in range(0, len(sources), _ASKED_AT_ONCE):
        asked = list(sources[start : start + _ASKED_AT_ONCE])
        for source, number in db.execute(
            f"SELECT source, id FROM submissions WHERE source IN ({', '.join('?' * len(asked))}) ORDER BY id",
            asked,
        ).fetchall():
            found.setdefault(source, number)
    return found


@dataclass(frozen=True)
class StoredSubmission:
    """A stored submission as its acknowledgement tells it: the game (name and id), seat code,
    turn, verdict, orders and problems (as stored: JSON-able dicts), whether marked final, the
    game's deadline now, and whether the seat had sent an accepted one for that turn before."""

    game: str
    game_id: int
    seat: str
    turn: int
    verdict: str
    orders: list[dict[str, Any]]
    problems: list[dict[str, Any]]
    final: bool
    deadline: str | None
    earlier: bool


def stored_submission(db: sqlite_utils.Database, submission_id: int) -> StoredSubmission:
    row = db.execute(
        """SELECT g.name, g.id, s.code, sub.turn, sub.verdict, sub.orders, sub.problems, sub.final,
                               g.deadline, EXISTS (SELECT 1 FROM submissions e WHERE e.seat_id = sub.seat_id
                               AND e.turn = sub.turn AND e.id < sub.id AND e.verdict = 'accepted')
                        FROM submissions sub JOIN games g ON g.id = sub.game_id JOIN seats s ON s.id = sub.seat_id
                        WHERE sub.id = ?""",
        [submission_id],
    ).fetchone()
    game, game_id, seat, turn, verdict, orders, problems, final, deadline, earlier = row
    return StoredSubmission(
        game,
        game_id,
        seat,
        turn,
        verdict,
        json.loads(orders),
        json.loads(problems),
        bool(final),
        deadline,
        bool(earlier),
    )


def rejected_seats(db: sqlite_utils.Database, game_id: int, turn: int) -> set[int]:
    """The ids of the seats that sent a rejected turn file for the turn."""
    return {
        row[0]
        for row in db.execute(
            "SELECT DISTINCT seat_id FROM submissions WHERE game_id = ? AND turn = ? AND verdict = 'rejected'",
            [game_id, turn],
        ).fetchall()
    }


def rejected_in_turn(db: sqlite_utils.Database, seat_id: int, turn: int) -> bool:
    return (
        read_int(
            db.execute(
                "SELECT EXISTS (SELECT 1 FROM submissions WHERE seat_id = ? AND turn = ? AND verdict = 'rejected')",
                [seat_id, turn],
            )
        )
        == 1
    )


def current_archive(db: sqlite_utils.Database, seat_id: int, turn: int) -> str | None:
    """The archive digest of the seat's submission that counts for the turn, or None."""
    row = db.execute(
        "SELECT archive FROM submissions WHERE seat_id = ? AND turn = ? AND current = 1", [seat_id, turn]
    ).fetchone()
    return None if row is None else row[0]


@dataclass(frozen=True)
class Version:
    """One turn file a seat sent, as its history lists it: id, turn, channel, source, received,
    verdict, problems (the stored JSON text: counting them is the reader's business), final,
    current (it counts for its turn), archive (the SHA-256 its bytes are archived by)."""

    id: int
    turn: int
    channel: str
    source: str
    received: str
    verdict: str
    problems: str
    final: bool
    current: bool
    archive: str


_VERSION = "SELECT id, turn, channel, source, received, verdict, problems, final, current, archive FROM submissions"


def _version(row: Sequence[Any]) -> Version:
    sid, turn, channel, source, received, verdict, problems, final, current, archive = row
    return Version(sid, turn, channel, source, received, verdict, problems, bool(final), bool(current), archive)


def versions(db: sqlite_utils.Database, seat_id: int, limit: int | None = None) -> list[Version]:
    """The versions the seat sent, newest first: every one, or the `limit` newest."""
    sql = _VERSION + " WHERE seat_id = ? ORDER BY turn DESC, id DESC"
    if limit is None:
        return [_version(row) for row in db.execute(sql, [seat_id]).fetchall()]
    return [_version(row) for row in db.execute(sql + " LIMIT ?", [seat_id, limit]).fetchall()]


def version_count(db: sqlite_utils.Database, seat_id: int) -> int:
    """How many versions the seat sent in all (counted on the (seat_id, turn) index)."""
    return read_int(db.execute("SELECT COUNT(*) FROM submissions WHERE seat_id = ?", [seat_id]))


def version(db: sqlite_utils.Database, seat_id: int, submission_id: int) -> Version | None:
    """One version of the seat's, by its id."""
    row = db.execute(_VERSION + " WHERE seat_id = ? AND id = ?", [seat_id, submission_id]).fetchone()
    return None if row is None else _version(row)


def counting_version(db: sqlite_utils.Database, seat_id: int, turn: int) -> Version | None:
    """The seat's version that counts for the turn (being collected), or None."""
    row = db.execute(_VERSION + " WHERE seat_id = ? AND turn = ? AND current = 1", [seat_id, turn]).fetchone()
    return None if row is None else _version(row)
