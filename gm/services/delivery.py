"""Delivery: sending what the outbox holds that is due, each mail once, temporary failures tried
again later; a report re-rendered after its mail was queued goes as it is now."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Concatenate, ParamSpec, TypeVar

import sqlite_utils

from gm.clock import Clock
from gm.core.model import JSONObject
from gm.core.words import counted
from gm.crash import crash_point
from gm.home import Home
from gm.mail.compose import Unsendable, compose
from gm.mail.senders import FolderSender, Sender, SendFailure, SmtpSender
from gm.mail.settings import mail_settings, server_settings
from gm.services.erasure import Forgotten, forget_asked
from gm.services.report_mails import Released, queue_released
from gm.store import outbox, records
from gm.store.database import transaction
from gm.store.reports import report_files

REFRESHED = "its report was rendered again after it was queued; the new rendering was sent"
_Args = ParamSpec("_Args")  # what an outbox mark takes after the database
_Marked = TypeVar("_Marked")  # and what it gives back


@dataclass
class SendReport:
    """What one run of the outbox did: sent, to be tried again (with when), failed for good;
    refreshed: the sent report mails whose report was rendered again after they were queued;
    released: the held reports (report_mails.Released) queued first because credit released them;
    forgotten: the people forgotten by their FORGET ME once gm's last mail to them went (or why not)."""

    sent: list[outbox.Queued] = field(default_factory=list)
    retry: list[tuple[outbox.Queued, str, datetime]] = field(default_factory=list)  # (mail, why, when again)
    failed: list[tuple[outbox.Queued, str]] = field(default_factory=list)  # (mail, why)
    refreshed: list[outbox.Queued] = field(default_factory=list)
    released: list[Released] = field(default_factory=list)
    forgotten: list[Forgotten | str] = field(default_factory=list)  # FORGET ME by mail, done once its answer went


def send_outbox(db: sqlite_utils.Database, home: Home, clock: Clock, sender: Sender) -> SendReport:
    """Send every queued mail that is due, each once; each result is committed as it happens.
    First every report that credit released since (however it came: a payment, a correction, a
    return slip's transfer, a re-run's reversed charges, a policy change) is queued and its held
    notice withdrawn, so no held notice leaves after its report was paid for."""
    settings = mail_settings(home)
    from_address = settings.sender()
    report = SendReport()
    with transaction(db):
        report.released = queue_released(db, home, clock)
    for mail in outbox.due(db, clock.now()):
        now = clock.now()
        mail, refreshed = current_reports(db, home, mail)
        try:
            sender.send(compose(mail, from_address, home.root, now), outbox.mail_name(db, mail))
        except Unsendable as exc:
            _record(db, outbox.mark_failed, mail, str(exc))
            report.failed.append((mail, str(exc)))
        except SendFailure as exc:
            if exc.temporary and mail.attempts + 1 < settings.max_attempts:
                when = _record(db, outbox.mark_retry, mail, now, str(exc))
                report.retry.append((mail, str(exc), when))
            else:
                reason = (
                    str(exc)
                    if not exc.temporary
                    else f"{exc} (gave up after {counted(mail.attempts + 1, 'try', 'tries')})"
                )
                _record(db, outbox.mark_failed, mail, reason)
                report.failed.append((mail, reason))
        else:
            crash_point("send:mid-send")
            _record(db, outbox.mark_sent, mail, now)
            crash_point("send:after-mark")
            report.sent.append(mail)
            if refreshed:
                report.refreshed.append(mail)
    report.forgotten = forget_asked(db, home, clock)
    return report


def current_reports(db: sqlite_utils.Database, home: Home, mail: outbox.Queued) -> tuple[outbox.Queued, bool]:
    """A report mail whose report was rendered again after it was queued (the GM changed a
    template and ran gm report render) carries the report as it is now; (mail, whether so).

    Only a new rendering of the same turn: the turn's state hash must be the one queued, and the
    reports table must record the file as it is now. Anything else (a re-run turn, a file changed
    by hand) stays as queued, and sending it fails as 'changed after the mail was queued'.
    """
    if mail.kind not in ("report", "resend") or mail.game_id is None or mail.turn is None or mail.seat is None:
        return mail, False  # (a report mail always names its game, turn and seat)
    recorded = report_files(db, mail.game_id, mail.turn, mail.seat)
    turn_hash = records.turn_hash(db, mail.game_id, mail.turn)
    as_recorded = {recorded.pdf: recorded.pdf_sha256, recorded.json: recorded.json_sha256} if recorded else {}
    attachments: list[JSONObject] = []
    for attachment in mail.attachments:
        newer = as_recorded.get(attachment.get("path", ""))  # the order form, carried in the row, has no path
        if (
            newer
            and newer != attachment["sha256"]
            and attachment.get("turn_hash") == turn_hash
            and _digest(home.root / attachment["path"]) == newer
        ):
            attachment = dict(attachment, sha256=newer)
        attachments.append(attachment)
    if attachments == mail.attachments:
        return mail, False
    with transaction(db):
        outbox.set_attachments(db, mail, attachments)
    return replace(mail, attachments=attachments), True


def _digest(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def _record(
    db: sqlite_utils.Database,
    mark: Callable[Concatenate[sqlite_utils.Database, _Args], _Marked],
    *args: _Args.args,
    **kwargs: _Args.kwargs,
) -> _Marked:
    """One outbox mark (sent, retry, failed) in a transaction of its own: each result is kept as it happens."""
    with transaction(db):
        return mark(db, *args, **kwargs)


def sender_for(home: Home) -> FolderSender | SmtpSender:
    """The configured transport: an SmtpSender or a FolderSender, both context managers."""
    settings = mail_settings(home)
    if settings.transport == "folder":
        return FolderSender(settings.folder)
    return SmtpSender(server_settings(home, "smtp", 587, "starttls"))
