"""Press and announcements: messages between players through gm, and the GM's notes to every seat.

A message is checked against the game (press allowed, seats, length), stored with the turn being
collected, and mailed at once to each recipient from the house address; it shows in that turn's
report. Nobody's address reaches anybody: the mail comes from gm, names the sender's seat (or
nobody, in an anonymous game) and has no Reply-To. Robot seats and seats that left the game get
their press in the report only. Press lives outside the ruleset's state, so turns replay as before.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager
from dataclasses import dataclass, replace
from typing import Any

import sqlite_utils

from gm.clock import Clock, iso
from gm.core.press import PressDraft, addressed, addressee_text, passed_on
from gm.core.press_budget import fit
from gm.errors import GMError
from gm.home import Home
from gm.mail.settings import MailSettings, mail_settings, mailable
from gm.mail.templates import mail_environment, write_mail
from gm.services.game_settings import game_setting
from gm.store import outbox, press as stored, records
from gm.store.archive import TOO_LARGE, archive_bytes, note_bytes
from gm.store.database import atomic
from gm.store.records import GameRecord, SeatRecord

ANNOUNCEMENT_LIMIT = 20_000  # characters; far above a note to the players, only against a wrong file
PORTAL_SHOWN = 20  # the newest messages the seat page lists


@dataclass(frozen=True)
class PressResult:
    """What became of one press message: line (of its PRESS line; 0 from the portal), to (whom,
    as the sender reads it), sent (stored and on its way), reason (why not, when not sent)."""

    line: int
    to: str
    sent: bool
    reason: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"line": self.line, "to": self.to, "sent": self.sent, "reason": self.reason}


def send_drafts(
    db: sqlite_utils.Database,
    home: Home,
    clock: Clock,
    game: GameRecord,
    seat: SeatRecord,
    drafts: Iterable[PressDraft],
    channel: str,
    source: str,
    digest: str,
) -> list[PressResult]:
    """Check and send each message of a turn file (inside the caller's transaction, or one of
    its own), each in a savepoint of its own: one bad message never stops the others.

    source: where the turn file came from; each message is stored as `<source>#<line>`.
    digest: the archived bytes it came in (archived before anything here reads them).

    Only the first press-per-turn messages of a file are read (a seat sends no more in a turn),
    and one result says so for the rest: a file of 30,000 one-line messages got an answer of
    30,000 lines (4 MB), each saying it was not sent."""
    post = _Post(db, home, clock)
    drafts = list(drafts)
    most = game_setting(game, "press-per-turn")
    results = []
    for draft in drafts[:most]:
        with atomic(db):
            results.append(post.send(game, seat, draft, channel, f"{source}#{draft.line}", digest))
    if len(drafts) > most:
        results.append(_unread(game, drafts, most))
    return results


def _unread(game: GameRecord, drafts: list[PressDraft], most: int) -> PressResult:
    """The one result for the messages of a file past the press-per-turn it may send, unread."""
    after = len(drafts) - most - 1
    left = f"this one and the {after:,} after it were not read" if after else "this one was not read"
    return PressResult(
        drafts[most].line,
        "",
        False,
        f"this turn file holds {len(drafts):,} press messages and gm reads at most {most:,} of one file "
        f"(the most a seat sends in a turn of '{game.name}'): {left}",
    )


def sent_before(db: sqlite_utils.Database, source: str) -> list[PressResult]:
    """The press a turn file sent in an earlier run that a crash cut short: told, never sent again."""
    return [
        PressResult(int(p.source.rpartition("#")[2] or 0), addressee_text(p.recipients, p.everyone, True, None), True)
        for p in stored.from_source(db, source)
    ]


def send_from_portal(
    db: sqlite_utils.Database,
    home: Home,
    clock: Clock,
    game: GameRecord,
    seat: SeatRecord,
    to: list[str],
    text: str,
    writing: Callable[[], AbstractContextManager[None]],
) -> PressResult:
    """The portal's press form: archived as received, then checked and sent like a turn file's;
    a message longer than the game takes is refused, and only a note of it is archived.
    to: the seat codes ticked ("ALL" for everyone); writing(): the portal's write lock."""
    # Line ends made \n; the characters no message passes on (a NUL, the other controls, bidi
    # overrides) are left out again in _Post.send, and here for the archive and the checks.
    text = passed_on(text).strip("\n")
    codes = tuple(dict.fromkeys(code.strip().upper() for code in to if code.strip()))
    if not codes:
        return PressResult(0, "", False, "choose whom the press is for: tick one seat or more, or everyone")
    if not text.strip():
        return PressResult(0, "", False, "write the message first")
    received = json.dumps(
        {"game": game.name, "seat": seat.code, "to": list(codes), "text": text}, ensure_ascii=False, sort_keys=True
    ).encode("utf-8")
    if len(text) > game_setting(game, "press-length"):  # refused below; a note of it is kept, not the bytes
        digest = note_bytes(home.archive, received, channel="web", sender=f"{game.name}/{seat.code}", reason=TOO_LARGE)
    else:
        digest = archive_bytes(home.archive, received)
    everyone = "ALL" in codes
    draft = PressDraft(
        0,
        () if everyone else codes,
        everyone,
        text,
        "choose either everyone or seats, not both" if everyone and len(codes) > 1 else None,
    )
    with writing():
        return send_drafts(db, home, clock, game, seat, [draft], "web", f"portal:{digest}", digest)[0]


@dataclass
class _Post:
    """One run's mail settings and templates, read once however many messages it sends."""

    db: sqlite_utils.Database
    home: Home
    clock: Clock

    def __post_init__(self) -> None:
        self.settings = mail_settings(self.home)
        self.env = mail_environment(self.home.templates)

    def send(
        self, game: GameRecord, seat: SeatRecord, draft: PressDraft, channel: str, source: str, digest: str
    ) -> PressResult:
        turn, status = stored.game_now(self.db, game.id)
        seats = records.seats_of(self.db, game.id)
        draft = replace(draft, text=passed_on(draft.text).strip("\n"))
        recipients, refusal = addressed(draft, [s.code for s in seats], seat.code)
        refusal = _refusal(game, status, seat, draft, len(recipients)) or refusal
        if refusal is None:
            refusal = _flooding(game, stored.sent_by(self.db, game.id, seat.id, turn))
        shown = addressee_text(recipients or draft.to, draft.everyone, True, None)
        if refusal:
            return PressResult(draft.line, shown, False, refusal)
        signed = game_setting(game, "press") == "signed"
        press_id = stored.add(
            self.db,
            game_id=game.id,
            turn=turn,
            kind="press",
            sender_seat_id=seat.id,
            signed=signed,
            everyone=draft.everyone,
            recipients=recipients,
            text=draft.text,
            channel=channel,
            source=source,
            archive=digest,
            sent=iso(self.clock.now()),
        )
        letter = {
            "sender": seat.code if signed else None,
            "signed": signed,
            "everyone": draft.everyone,
            "recipients": recipients,
            "text": draft.text,
            "turn": turn,
            "to_all_only": game_setting(game, "press-to") == "all",
        }
        self.mail(game, [s for s in seats if s.code in recipients], "press", press_id, letter)
        return PressResult(draft.line, shown, True)

    def mail(
        self, game: GameRecord, seats: list[SeatRecord], kind: str, press_id: int, letter: dict[str, Any]
    ) -> list[str]:
        """Queue the message to each seat a player holds (none without a [mail] address); the
        seats mailed. A robot seat, or one that left the game, reads it in the report only."""
        if not self.settings.address:
            return []
        mailed: list[str] = []
        for seat in seats:
            if seat.status != "active" or not mailable(seat.email):
                continue
            written = write_mail(
                self.env,
                f"{kind}.txt",
                {
                    **letter,
                    "game": game.name,
                    "seat": seat.code,
                    "player": seat.name,
                    "gm_name": self.settings.name,
                    "to": addressee_text(letter["recipients"], letter["everyone"], letter["signed"], seat.code),
                },
            )
            outbox.queue(
                self.db,
                self.clock.now(),
                kind=kind,
                recipient=seat.email,
                recipient_name=seat.name,
                subject=written.subject,
                body=written.body,
                domain=self.settings.domain,
                game_id=game.id,
                seat=seat.code,
                turn=letter["turn"],
                **_thread(self.db, self.settings, game, seat.code, kind, press_id),
            )
            mailed.append(seat.code)
        return mailed


def _refusal(game: GameRecord, status: str, seat: SeatRecord, draft: PressDraft, reached: int) -> str | None:
    """Why a message may not go, in the words of the acknowledgement's "NOT SENT: ..."."""
    if status == "over":
        return f"game '{game.name}' is over; it takes no more press"
    if seat.status != "active":
        return f"seat {seat.code} has left '{game.name}'; only the players in the game send press"
    if game_setting(game, "press") == "none":
        return f"the GM allows no press in '{game.name}'"
    if draft.problem:
        return draft.problem
    if not draft.text.strip():
        return "the press has no text but control characters, which gm does not pass on: write the message"
    if game_setting(game, "press-to") == "all" and not draft.everyone:
        return f"press in '{game.name}' goes to everyone or to nobody: write PRESS TO ALL"
    limit = game_setting(game, "press-length")
    if len(draft.text) > limit:
        return (
            f"the press is {len(draft.text):,} characters long and '{game.name}' takes at most {limit:,}: "
            "shorten it, or send it in parts"
        )
    if draft.everyone and not reached:
        return "there is no other seat in the game yet to send it to"
    return None


def _flooding(game: GameRecord, sent: int) -> str | None:
    """A seat may send at most press-per-turn messages while one turn is collected: a player (or
    whoever has their secret) cannot bury the other players' mailboxes."""
    limit = game_setting(game, "press-per-turn")
    if sent < limit:
        return None
    return (
        f"this seat has sent {sent} press messages this turn, the most '{game.name}' takes in one turn; "
        "send it after the turn has run"
    )


def _thread(
    db: sqlite_utils.Database, settings: MailSettings, game: GameRecord, seat: str, kind: str, press_id: int
) -> dict[str, Any]:
    """A press mail's Message-ID, made from the game, the seat and the message (never drawn at
    random), answering the seat's last press mail of the game: one thread per game and seat."""
    label = re.sub(r"[^A-Za-z0-9_.-]", "", f"{game.name}.{seat}.{press_id}")
    message_id = f"<{kind}.{label}@{settings.domain}>"
    previous = stored.last_mail(db, game.id, seat)
    if previous is None:
        return {"message_id": message_id}
    return {"message_id": message_id, **outbox.follow_up(*previous)}


@dataclass(frozen=True)
class Announced:
    """An announcement made: its id, the seats mailed, the seats that read it in the report
    only, and whether gm mails at all (gm.toml has a [mail] address)."""

    id: int
    mailed: tuple[str, ...]
    silent: tuple[str, ...]
    mailing: bool


def announce(db: sqlite_utils.Database, home: Home, clock: Clock, game_name: str, text: str) -> Announced:
    """The GM's note to every seat of a game: archived, mailed to each player at once, put in
    the next report, and written in the audit log."""
    game = records.game_by_name(db, game_name)
    text = text.replace("\r\n", "\n").strip("\n")
    if not text.strip():
        raise GMError("the announcement has no text. Give it with --message, --file or on standard input.")
    if len(text) > ANNOUNCEMENT_LIMIT:
        raise GMError(
            f"the announcement is {len(text):,} characters long; at most {ANNOUNCEMENT_LIMIT:,}. "
            "Check that you gave the right file."
        )
    digest = archive_bytes(home.archive, text.encode("utf-8"))
    post = _Post(db, home, clock)
    with atomic(db):
        turn, status = stored.game_now(db, game.id)
        if status == "over":
            raise GMError(
                f"game '{game.name}' is over; there is no next report to put the note in. "
                "Write to the players yourself."
            )
        seats = records.seats_of(db, game.id)
        codes = tuple(s.code for s in seats)
        if not codes:
            raise GMError(f"game '{game.name}' has no seats yet. Seat players first (gm game join).")
        now = iso(clock.now())
        press_id = stored.add(
            db,
            game_id=game.id,
            turn=turn,
            kind="announcement",
            sender_seat_id=None,
            signed=True,
            everyone=True,
            recipients=codes,
            text=text,
            channel="gm",
            source=f"gm:{digest}",
            archive=digest,
            sent=now,
        )
        mailed = post.mail(
            game,
            seats,
            "announcement",
            press_id,
            {"sender": None, "signed": True, "everyone": True, "recipients": codes, "text": text, "turn": turn},
        )
        records.audit(db, now, game.id, "announcement", {"id": press_id, "turn": turn, "mailed": mailed, "text": text})
    return Announced(press_id, tuple(mailed), tuple(c for c in codes if c not in mailed), bool(post.settings.address))


def game_press(db: sqlite_utils.Database, game_id: int) -> list[stored.PressRecord]:
    """Every message of a game as the GM sees it (anonymous senders too), in the order sent."""
    return stored.of_game(db, game_id)


def press_how(game: GameRecord, seats: list[SeatRecord], reader: str) -> str | None:
    """How the reader's seat sends press in this game, for the report's order form (None: no
    press); the example names other seats a player holds, two at most, a robot's only when no
    other player is in the game, and never the reader's own."""
    others = [s for s in seats if s.code != reader]
    if game_setting(game, "press") == "none" or not others:
        return None
    players = [s for s in others if s.status == "active" and mailable(s.email)]
    example = ",".join(s.code for s in (players or others)[:2])
    whom = "PRESS TO ALL" if game_setting(game, "press-to") == "all" else f"PRESS TO {example} (or PRESS TO ALL)"
    signed = "signed with your seat" if game_setting(game, "press") == "signed" else "anonymous"
    return f"{whom}, the message on the lines below, then ENDPRESS ({signed})."


def report_press(
    db: sqlite_utils.Database, game: GameRecord, seat: str, turn: int
) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """The press and announcements a seat's report of `turn` prints, within the press budget
    (gm/core/press_budget.py): what the seat received and sent, in the order sent, each as the
    seat may read it, cut where the budget ends; and what was left out (None: nothing), as
    {"messages": left out whole, "cut": printed in part, "from": {sender: messages}}.
    A message the GM withheld is its sender's only, printed without its text."""
    shown = turn_press(db, game, seat, turn)
    printed = fit([(m["from"], m["text"]) for m in shown])
    messages: list[dict[str, Any]] = []
    left_out: Counter[str] = Counter()
    cut = 0
    for message, part in zip(shown, printed):
        if not part.shown:
            left_out[message["from"]] += 1
            continue
        cut += not part.whole
        more = None if part.whole else {"lines": part.lines_left, "characters": part.characters_left}
        messages.append(dict(message, text=part.text, cut=more))
    if not left_out and not cut:
        return messages, None
    return messages, {"messages": sum(left_out.values()), "cut": cut, "from": dict(left_out)}


def turn_press(db: sqlite_utils.Database, game: GameRecord, seat: str, turn: int) -> list[dict[str, Any]]:
    """Every message of `turn` a seat reads, whole, in the order sent: the portal's page of a
    turn's press, where a report's press budget sends the reader for the rest."""
    return [_shown(p, seat) for p in stored.of_turn(db, game.id, turn) if _reads(p, seat)]


def where_in_full(home: Home, seat: SeatRecord, turn: int) -> dict[str, Any]:
    """Where a seat reads a turn's press whole, for the report's line about what it left out:
    mailed (each message was mailed to the seat as it was sent: the house mails, the seat is a
    player's) and portal (the portal's page of the turn's press)."""
    mailed = bool(mail_settings(home).address) and seat.status == "active" and mailable(seat.email)
    base = home.setting("portal", "base_url", "http://127.0.0.1:8000").rstrip("/")
    return {"mailed": mailed, "portal": f"{base}/press/{turn}"}


def _reads(press: stored.PressRecord, seat: str) -> bool:
    """Whether a seat reads a message: its sender always, a recipient unless the GM withheld it."""
    return press.sender == seat or (seat in press.recipients and press.withheld is None)


def seat_press(
    db: sqlite_utils.Database, game: GameRecord, seat: SeatRecord, seats: list[SeatRecord] | None = None
) -> dict[str, Any]:
    """What the portal's press section shows a seat: its newest messages (received and sent,
    newest first; `older`: there are more) and what its form may do (whether press is open, signed, to everyone only).
    seats: the game's seats if the caller read them already."""
    newest = stored.of_seat(db, game.id, seat.code, PORTAL_SHOWN + 1)  # one more: are there older ones?
    mode = game_setting(game, "press")
    closed = (
        "This game is over."
        if game.status == "over"
        else "The GM allows no press in this game."
        if mode == "none"
        else "You have left this game."
        if seat.status != "active"
        else None
    )
    return {
        "messages": [dict(_shown(p, seat.code), turn=p.turn) for p in newest[:PORTAL_SHOWN]],
        "older": len(newest) > PORTAL_SHOWN,
        "closed": closed,
        "mode": mode,
        "to_all_only": game_setting(game, "press-to") == "all",
        "limit": game_setting(game, "press-length"),
        "seats": [s.code for s in seats or records.seats_of(db, game.id) if s.code != seat.code],
    }


def _shown(press: stored.PressRecord, reader: str) -> dict[str, Any]:
    """A message as `reader` may read it. "from" is the sender as the reader knows it ("the GM",
    "you", a seat, "anonymous"), which is also whose press budget it spends. A withheld message
    (only its sender reads it) shows without its text."""
    mine = press.sender == reader
    sender = (
        "the GM" if press.kind == "announcement" else "you" if mine else press.sender if press.signed else "anonymous"
    )
    return {
        "kind": press.kind,
        "from": sender,
        "mine": mine,
        "text": "" if press.withheld else press.text,
        "sent": press.sent,
        "to": addressee_text(press.recipients, press.everyone, press.signed, None if mine else reader),
        "withheld": press.withheld is not None,
    }
