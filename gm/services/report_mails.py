"""Report mails: each seat's report mail queued when its turn is published (its thread, its order
form; a held notice instead for a report held for credits), one sent again, and the held reports
that credit releases. Sending what is queued is delivery.py's."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypedDict

import jinja2
import sqlite_utils

from gm.clock import Clock, iso
from gm.crash import crash_point
from gm.home import Home
from gm.mail.settings import mail_settings, mailable
from gm.mail.templates import mail_environment, write_mail
from gm.services.house import paying
from gm.services.seats import LEFT
from gm.services.turn_charges import held_facts, report_held
from gm.services.turn_kits import kit_name, read_report, write_kit
from gm.store import outbox, records
from gm.store.audit import latest_rerun
from gm.store.database import transaction
from gm.store.games import name_of_game
from gm.store.reports import report_files
from gm.store.seats import wants_json


class ReportMail(TypedDict):
    """One seat's report mail as outbox.queue takes it (its kind, domain and thread aside)."""

    recipient: str
    recipient_name: str
    subject: str
    body: str
    attachments: list[dict[str, Any]]
    game_id: int
    seat: str
    turn: int


def report_mail(
    db: sqlite_utils.Database,
    home: Home,
    env: jinja2.Environment,
    game: records.GameRecord,
    seat: records.SeatRecord,
    turn: int,
    again: bool = False,
) -> ReportMail | None:
    """The fields of one seat's report mail for a rendered turn; None when that report is not rendered."""
    files = report_files(db, game.id, turn, seat.code)
    if files is None:
        return None
    pdf, json_path, pdf_sha, json_sha = files.pdf, files.json, files.pdf_sha256, files.json_sha256
    # The turn's state hash goes with each file: a new rendering of this very turn may replace
    # the file before the mail goes (refreshed), a re-run turn's may not.
    turn_hash = records.turn_hash(db, game.id, turn)
    attachments: list[dict[str, Any]] = [
        {
            "path": pdf,
            "filename": f"{game.name}-{turn}-{seat.code}.pdf",
            "type": "application/pdf",
            "sha256": pdf_sha,
            "turn_hash": turn_hash,
        }
    ]
    if wants_json(db, seat.id):
        attachments.append(
            {
                "path": json_path,
                "filename": f"{game.name}-{turn}-{seat.code}.json",
                "type": "application/json",
                "sha256": json_sha,
                "turn_hash": turn_hash,
            }
        )
    context = read_report(home, json_path, f"'gm report render {game.name} --turn {turn}'")
    if not context.get("outcome"):
        kit = write_kit(home, json_path, context, json_sha)
        attachments.append(
            {
                "path": kit.path,
                "filename": kit_name(context),
                "type": "text/html",
                "sha256": kit.sha256,
                "turn_hash": turn_hash,
            }
        )
    form = context.get("order_form") or ""
    if form:
        # The form goes along as text too: a player fills in the attachment or the body's copy.
        attachments.append(
            {"filename": f"{game.name}-{turn + 1}-{seat.code}-orders.txt", "type": "text/plain", "content": form}
        )
    context.update(
        again=again,
        rerun=rerun_note(db, game, turn),
        attachments=[a["filename"] for a in attachments],
        gm_name=mail_settings(home).name,
    )
    written = write_mail(env, "report.txt", context)
    return {
        "recipient": seat.email,
        "recipient_name": seat.name,
        "subject": written.subject,
        "body": written.body,
        "attachments": attachments,
        "game_id": game.id,
        "seat": seat.code,
        "turn": turn,
    }


def rerun_note(db: sqlite_utils.Database, game: records.GameRecord, turn: int) -> dict[str, Any] | None:
    """What a report mail of a turn the GM ran again says of it: the GM's reason and the later
    turns that were discarded (their reports are void, their orders count no more); None for a
    turn not re-run (or run again since in the ordinary way, after an earlier turn's re-run)."""
    latest = latest_rerun(db, game.id)
    if latest is None or latest[0] != turn:
        return None
    number, reason, discarded = latest
    return {"reason": reason, "discarded": [t for t in discarded if t > number]}


def report_thread(db: sqlite_utils.Database, mail: ReportMail, domain: str) -> dict[str, Any]:
    """A report mail's Message-ID and its place in the seat's thread: a reply to the seat's
    previous report mail (queued or sent) of an earlier turn, so a mail program shows one
    conversation per game and seat. The id is made from the game, turn and seat (and how many
    report mails of that turn came before, as a re-run turn's), never drawn at random."""
    before = outbox.report_mails(db, mail["game_id"], mail["seat"], mail["turn"])
    game = name_of_game(db, mail["game_id"])
    label = re.sub(r"[^A-Za-z0-9_.-]", "", f"{game}.{mail['turn']}.{mail['seat']}")
    message_id = f"<report.{label}{f'.{before + 1}' if before else ''}@{domain}>"
    previous = outbox.previous_report_mail(db, mail["game_id"], mail["seat"], mail["turn"])
    if previous is None:
        return {"message_id": message_id}
    replied, earlier = previous
    return {"message_id": message_id, **outbox.follow_up(replied, earlier)}


@dataclass(frozen=True)
class Queued:
    """What queueing a turn's report mails did: how many reports were queued, and the seats
    whose reports are held for want of credits (each got a held notice instead)."""

    reports: int
    held: tuple[str, ...] = ()


def queue_reports(db: sqlite_utils.Database, home: Home, clock: Clock, game_name: str, turn: int) -> Queued:
    """Queue every seat's report mail for a recorded turn (inside the caller's transaction:
    publishing records the reports and queues their mails as one step).

    Seats at an .invalid address (robots, the demo) get none, nor seats their player left. A seat whose report is held for
    want of credits gets the held notice instead (templates/mail/held.txt); credit releases the
    report (queue_released). Sending is 'gm mail send'.
    """
    game = records.game_by_name(db, game_name)
    env = mail_environment(home.templates)
    settings = mail_settings(home)
    now = clock.now()
    # A player who left the seat (dropped, resigned) gets no further report of it (docs/mail.md).
    seats = [s for s in records.seats_of(db, game.id) if mailable(s.email) and s.status not in LEFT]
    held = {s.code: held_facts(db, game, turn, s.code) for s in seats}
    made = [report_mail(db, home, env, game, seat, turn) for seat in seats if not held[seat.code]]
    mails = [m for m in made if m is not None]
    for mail in mails:
        outbox.cancel_reports(db, game.id, mail["seat"], turn)
        outbox.queue(db, now, kind="report", domain=settings.domain, **mail, **report_thread(db, mail, settings.domain))
        crash_point("publish:mid-queue")
    house = paying(home)
    for seat in seats:
        facts = held[seat.code]
        if facts:
            written = write_mail(
                env,
                "held.txt",
                {
                    **facts,
                    **house.to_json(),
                    "name": seat.name,
                    "game": game.name,
                    "seat": seat.code,
                    "turn": turn,
                    "gm_name": settings.name,
                },
            )
            outbox.queue(
                db,
                now,
                kind="notice",  # with its turn: a held notice (outbox.HELD_NOTICE)
                recipient=seat.email,
                recipient_name=seat.name,
                subject=written.subject,
                body=written.body,
                domain=settings.domain,
                game_id=game.id,
                seat=seat.code,
                turn=turn,
            )
    return Queued(len(mails), tuple(s.code for s in seats if held[s.code]))


@dataclass(frozen=True)
class Released:
    """A report held for credits whose mail credit released: the game, the turn and the seat."""

    game: str
    turn: int
    seat: str


def queue_released(db: sqlite_utils.Database, home: Home, clock: Clock) -> list[Released]:
    """Inside the caller's transaction: every report that got a held notice, has had no report
    mail since and is held no longer (its account was paid, credited or given credits, or its
    game stopped holding) gets its report mail queued, once, and its held notice withdrawn if it
    has not gone yet; each is written in the audit log. Returns what was released.

    Every change to the books that can give an account credit runs this (`releasing`), and so
    does every sending of the outbox (delivery.py): a held notice never goes after its report
    was released, whatever released it."""
    if not mail_settings(home).address:
        return []  # a home that mails nothing queued no held notice either
    env = mail_environment(home.templates)
    settings = mail_settings(home)
    released = []
    for name, turn, code in outbox.held_without_report(db):
        game = records.game_by_name(db, name)
        if report_held(db, game, turn, code):
            continue
        mail = report_mail(db, home, env, game, records.seat_by_code(db, game, code), turn)
        if mail is None:
            continue  # a turn a re-run discarded: its new report is mailed when it is published
        outbox.queue(
            db, clock.now(), kind="report", domain=settings.domain, **mail, **report_thread(db, mail, settings.domain)
        )
        outbox.cancel_notices(db, game.id, code, turn)
        records.audit(db, iso(clock.now()), game.id, "report released", {"turn": turn, "seat": code})
        released.append(Released(game.name, turn, code))
    return released


@contextmanager
def releasing(db: sqlite_utils.Database, home: Home, clock: Clock) -> Iterator[list[Released]]:
    """A change to the books and the reports it releases, in one transaction: the with-block
    writes its entries (credits.buy, adjust, transfer, set_policy join the transaction), then
    queue_released runs before the commit; the list yielded holds what was released."""
    released: list[Released] = []
    with transaction(db):
        yield released
        released.extend(queue_released(db, home, clock))


def released_text(released: list[Released]) -> str:
    """'Released 2 held report(s): g1 BR (turn 3), g1 FR (turn 3)' for the GM."""
    shown = ", ".join(f"{r.game} {r.seat} (turn {r.turn})" for r in released)
    return f"Released {len(released)} held report(s): {shown}"
