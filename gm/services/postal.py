"""Orders a GM types in for a seat whose player sends them by post or tells them by phone: no
secret (the GM vouches for the seat), archived first, checked and stored as any turn file,
written in the audit log with the GM's name and the reason, and acknowledged as any other: by
mail to the player's address, or printed for the GM to post or read out when they have none."""

from __future__ import annotations

import hmac
from collections.abc import Callable
from dataclasses import dataclass

import sqlite_utils

from gm.clock import Clock, iso
from gm.core.envelope import PLACEHOLDER, TurnFileError, clean_line, decode_turn_file, read_envelope
from gm.errors import GMError
from gm.home import Home
from gm.intake.finding import TurnFile
from gm.mail.settings import mail_settings, mailable
from gm.mail.templates import Written, mail_environment, write_mail
from gm.services import turnfiles
from gm.services.acknowledgements import Result, from_receipt, shown
from gm.store import outbox, records
from gm.store.acting import acting
from gm.store.archive import archive_bytes
from gm.store.database import transaction
from gm.store.records import GameRecord, SeatRecord

REASON_LENGTH = 500  # the longest reason the audit log keeps for orders typed in
CHANNEL = "postal"  # the submissions' channel: the player's own page says "typed in by your GM"


@dataclass(frozen=True)
class TypedIn:
    """What typing in a seat's orders came to: the submission's receipt, its result as the
    acknowledgement tells it (line numbers of the file the GM typed), the acknowledgement as
    written, and the outbox id it was queued as (None when it goes by the GM's hand: the player
    has no address, or the house no [mail] address)."""

    receipt: turnfiles.Receipt
    result: Result
    written: Written
    mailed_to: str | None
    outbox_id: int | None
    unmailed: str = ""  # why nothing was queued, in the GM's words


def type_in(
    db: sqlite_utils.Database,
    home: Home,
    clock: Clock,
    data: bytes,
    game_name: str,
    seat_code: str,
    reason: str,
    source: str,
) -> TypedIn:
    """Submit `data` for the seat as the GM acting: a file with its own GAME and PLAYER lines
    (gm orders template writes one) must name this game and seat; bare order lines are put in
    an envelope for it. Refused before anything is stored when the reason is missing or the file
    names another seat (it is archived all the same)."""
    game = records.game_by_name(db, game_name)
    seat = records.seat_by_code(db, game, seat_code)
    reason = " ".join(reason.split())
    if not reason:
        raise GMError("say why you type in this seat's orders, for the audit log: --reason 'letter of 3 May'.")
    if len(reason) > REASON_LENGTH:
        raise GMError(f"the reason is {len(reason)} characters long; keep it to {REASON_LENGTH}.")
    if not acting().may_act_on(game.id):
        raise records.NotYourGame(acting().name, game.name)
    if len(data) <= home.setting("submissions", "max_bytes", 1_000_000):
        archive_bytes(home.archive, data)  # as typed, before anything reads it (submit archives what it checks)
    found = _in_envelope(data, source, game, seat)
    now = iso(clock.now())
    with transaction(db):
        receipt = turnfiles.submit(
            db, home, clock, found.text.encode("utf-8"), CHANNEL, source, secret_check=_vouched(seat)
        )
        result = from_receipt(db, receipt, found)
        records.audit(
            db,
            now,
            game.id,
            "orders typed in",
            {"seat": seat.code, "turn": game.turn, "verdict": result["verdict"], "reason": reason, "file": source},
        )
        return _acknowledge(db, home, clock, game, seat, receipt, result)


def _vouched(seat: SeatRecord) -> Callable[[str, str], bool]:
    """The GM vouches for this seat alone: its secret is not asked, any other seat's fails."""
    return lambda _secret, stored: hmac.compare_digest(stored, seat.secret_hash)


@dataclass(frozen=True)
class TypedFile(TurnFile):
    """The turn file submitted for what the GM typed, with the lines gm wrote in (1-based):
    GAME, PLAYER and PASSWORD above bare order lines and END below them, or the PASSWORD line a
    file without one needs (the GM vouches, so any word does). A problem is told at the line
    the GM typed; one on a line gm wrote is the whole file's (line 0)."""

    added: tuple[int, ...] = ()

    def sent_line(self, line: int) -> int:
        if not line or line in self.added:
            return 0
        return line - sum(1 for a in self.added if a < line)


_VOUCHED = "PASSWORD typed-in-by-the-GM"  # one word, checked by nobody: the GM vouches


def _in_envelope(data: bytes, source: str, game: GameRecord, seat: SeatRecord) -> TypedFile:
    """The turn file to submit for what the GM typed: the file itself when it has a GAME line
    (for this game and seat only), else its lines in an envelope for the seat."""
    try:
        text, _ = decode_turn_file(data, len(data))
    except TurnFileError:
        return TypedFile(source, data.decode("utf-8", "replace"))  # submit refuses it, saying why
    lines = text.splitlines()
    envelope = read_envelope(text)
    if envelope.game is None:
        ended = any(_keyword(line) == "END" for line in lines)
        head = [f"GAME {game.name}", f"PLAYER {seat.code}", _VOUCHED]
        body = head + lines + ([] if ended else ["END"])
        added = (1, 2, 3) + (() if ended else (len(body),))
        return TypedFile(source, "\n".join(body) + "\n", added=added)
    if envelope.game != game.name or (envelope.player or "") != seat.code:
        raise GMError(
            f"{source} is for {envelope.player or '(no PLAYER)'} in '{envelope.game}', not {seat.code} in "
            f"'{game.name}': nothing was stored. Check the file's GAME and PLAYER lines, or --for."
        )
    if any(_keyword(line) == "PASSWORD" for line in lines):
        # A form from gm orders template keeps its placeholder: the GM vouches in its place.
        vouched = [_VOUCHED if _keyword(line) == "PASSWORD" and _blank(line) else line for line in lines]
        return TypedFile(source, text if vouched == lines else "\n".join(vouched) + "\n")
    after = next(i for i, line in enumerate(lines) if _keyword(line) in ("PLAYER", "GAME") and i >= _game_line(lines))
    lines.insert(after + 1, _VOUCHED)
    return TypedFile(source, "\n".join(lines) + "\n", added=(after + 2,))


def _keyword(line: str) -> str:
    return clean_line(line).partition(" ")[0].upper()


def _blank(line: str) -> bool:
    return clean_line(line).partition(" ")[2].strip() in ("", PLACEHOLDER)


def _game_line(lines: list[str]) -> int:
    return next(i for i, line in enumerate(lines) if _keyword(line) == "GAME")


def _acknowledge(
    db: sqlite_utils.Database,
    home: Home,
    clock: Clock,
    game: GameRecord,
    seat: SeatRecord,
    receipt: turnfiles.Receipt,
    result: Result,
) -> TypedIn:
    """The acknowledgement any turn file gets, saying the GM typed it in; queued to the player's
    address inside the caller's transaction, when there is one to mail."""
    settings = mail_settings(home)
    written = write_mail(
        mail_environment(home.templates),
        "acknowledgement.txt",
        {
            "reply_subject": f"Your orders for {seat.code} in {game.name}, turn {game.turn}",
            "name": seat.name,
            "results": [shown(result)],
            "unread": None,
            "gm_name": settings.name,
            "typed_in": {"by": acting().name},
        },
    )
    if not settings.address:
        return TypedIn(receipt, result, written, None, None, "gm.toml names no [mail] address to mail it from")
    if not mailable(seat.email):
        return TypedIn(receipt, result, written, None, None, f"the player has no address to mail ({seat.email})")
    queued = outbox.queue(
        db,
        clock.now(),
        kind="acknowledgement",
        recipient=seat.email,
        recipient_name=seat.name,
        subject=written.subject,
        body=written.body,
        domain=settings.domain,
        game_id=game.id,
        seat=seat.code,
        turn=game.turn,
    )
    return TypedIn(receipt, result, written, seat.email, queued)
