"""Reading and writing press: the messages players send each other and the GM's announcements."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sqlite_utils

from gm.store.database import inserted, read_int


@dataclass(frozen=True)
class PressRecord:
    """One message as stored.

    id; turn: the turn being collected when it was sent (it shows in that turn's report);
    kind: 'press' (from a seat) or 'announcement' (from the GM); sender: the sending seat's code
    (None for the GM); signed: whether recipients see the sender's seat; everyone: sent to
    every seat; recipients: the seat codes it reached; text; channel (file, mail, web, gm);
    source (where it came from: a file, mail:<digest>:<n>#<line>, the portal); sent (ISO time);
    withheld: when the GM withheld it (gm game press --withhold), None while it stands.
    """

    id: int
    turn: int
    kind: str
    sender: str | None
    signed: bool
    everyone: bool
    recipients: tuple[str, ...]
    text: str
    channel: str
    source: str
    sent: str
    withheld: str | None = None


_COLUMNS = """p.id, p.turn, p.kind, s.code, p.signed, p.everyone, p.recipients, p.text, p.channel, p.source, p.sent,
              p.withheld FROM press p LEFT JOIN seats s ON s.id = p.sender_seat_id"""


def _record(row: Sequence[Any]) -> PressRecord:
    values = list(row)
    values[4], values[5], values[6] = bool(values[4]), bool(values[5]), tuple(json.loads(values[6]))
    return PressRecord(*values)


def add(
    db: sqlite_utils.Database,
    *,
    game_id: int,
    turn: int,
    kind: str,
    sender_seat_id: int | None,
    signed: bool,
    everyone: bool,
    recipients: tuple[str, ...],
    text: str,
    channel: str,
    source: str,
    archive: str,
    sent: str,
) -> int:
    """Store one message (inside the caller's transaction); returns its id."""
    made = db.execute(
        "INSERT INTO press (game_id, turn, kind, sender_seat_id, signed, everyone, recipients, text, channel, "
        "source, archive, sent) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            game_id,
            turn,
            kind,
            sender_seat_id,
            int(signed),
            int(everyone),
            json.dumps(list(recipients)),
            text,
            channel,
            source,
            archive,
            sent,
        ],
    )
    return inserted(made)


def of_turn(db: sqlite_utils.Database, game_id: int, turn: int) -> list[PressRecord]:
    """Every message of a game sent while `turn` was collected, in the order sent."""
    rows = db.execute(f"SELECT {_COLUMNS} WHERE p.game_id = ? AND p.turn = ? ORDER BY p.id", [game_id, turn])
    return [_record(row) for row in rows.fetchall()]


def of_game(db: sqlite_utils.Database, game_id: int) -> list[PressRecord]:
    """Every message of a game, in the order sent."""
    rows = db.execute(f"SELECT {_COLUMNS} WHERE p.game_id = ? ORDER BY p.id", [game_id])
    return [_record(row) for row in rows.fetchall()]


def of_seat(db: sqlite_utils.Database, game_id: int, seat: str, limit: int) -> list[PressRecord]:
    """The `limit` newest messages a seat sent or received in a game, newest first: what the
    portal lists, read newest first through the game's index and stopped at `limit`. A message
    the GM withheld is its sender's only."""
    rows = db.execute(
        f"""SELECT {_COLUMNS} WHERE p.game_id = ? AND (s.code = ? OR p.withheld IS NULL AND EXISTS (
                              SELECT 1 FROM json_each(p.recipients) r WHERE r.value = ?))
                          ORDER BY p.id DESC LIMIT ?""",
        [game_id, seat, seat, limit],
    )
    return [_record(row) for row in rows.fetchall()]


def from_source(db: sqlite_utils.Database, source_prefix: str) -> list[PressRecord]:
    """The messages stored from one turn file (sources `<prefix>#<line>`), so a mail taken again
    after a crash never sends its press twice."""
    rows = db.execute(
        f"SELECT {_COLUMNS} WHERE p.source >= ? AND p.source < ? ORDER BY p.id",
        [f"{source_prefix}#", f"{source_prefix}$"],
    )
    return [_record(row) for row in rows.fetchall()]


def sent_by(db: sqlite_utils.Database, game_id: int, seat_id: int, turn: int) -> int:
    """How many messages a seat has sent while `turn` was collected."""
    return read_int(
        db.execute(
            "SELECT count(*) FROM press WHERE game_id = ? AND turn = ? AND sender_seat_id = ?", [game_id, turn, seat_id]
        )
    )


def one(db: sqlite_utils.Database, game_id: int, press_id: int) -> PressRecord | None:
    """A game's message by its id (None: the game has no such message)."""
    row = db.execute(f"SELECT {_COLUMNS} WHERE p.game_id = ? AND p.id = ?", [game_id, press_id]).fetchone()
    return None if row is None else _record(row)


def set_withheld(db: sqlite_utils.Database, press_id: int, when: str | None) -> None:
    """Withhold a message (when: the moment) or let it stand again (None)."""
    db.execute("UPDATE press SET withheld = ? WHERE id = ?", [when, press_id])


def cancel_mails(db: sqlite_utils.Database, game_id: int, press_id: int) -> list[str]:
    """Cancel a message's press mails not sent yet; the seats they were for. A press mail's
    Message-ID ends in .<press id>@domain (services/press.py, _thread)."""
    rows = db.execute(
        "SELECT id, seat FROM outbox WHERE game_id = ? AND kind = 'press' AND status = 'queued' AND message_id LIKE ?",
        [game_id, f"<press.%.{press_id}@%"],
    ).fetchall()
    for row in rows:
        db.execute("UPDATE outbox SET status = 'cancelled' WHERE id = ?", [row[0]])
    return [row[1] for row in rows]


def game_now(db: sqlite_utils.Database, game_id: int) -> tuple[int, str]:
    """(the turn being collected, the status) as the database has them at this moment: read
    inside the write transaction, so a message belongs to the turn it really came in."""
    turn, status = db.execute("SELECT turn, status FROM games WHERE id = ?", [game_id]).fetchone()
    return turn, status


def last_mail(db: sqlite_utils.Database, game_id: int, seat: str) -> tuple[str, list[str]] | None:
    """(Message-ID, references) of the last press or announcement mail queued for a seat of a
    game: the next one answers it, so a mail program shows one thread per game and seat."""
    row = db.execute(
        "SELECT message_id, refs FROM outbox WHERE kind IN ('press', 'announcement') AND game_id = ? "
        "AND seat = ? AND status IN ('queued', 'sent') ORDER BY id DESC LIMIT 1",
        [game_id, seat],
    ).fetchone()
    return None if row is None else (row[0], json.loads(row[1]))
