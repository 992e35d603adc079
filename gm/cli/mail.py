"""gm mail: send the outbox (acknowledgements and reports) and look at what waits in it."""

from __future__ import annotations

from typing import Annotated

import sqlite_utils
import typer

from gm.cli.common import HomeOption, JsonOption, clock, echo_json, open_home
from gm.cli.shown import echo
from gm.clock import iso
from gm.home import Home
from gm.mail.settings import mail_settings
from gm.services import delivery, report_mails
from gm.store import outbox

app = typer.Typer(help="Send queued mail (acknowledgements, reports) and list the outbox.", no_args_is_help=True)


@app.command("send")
def send(home: HomeOption = None) -> None:
    """Send every queued mail that is due, over SMTP or into the outbox folder ([mail] transport)."""
    home_, db = open_home(home)
    if send_and_report(db, home_):
        raise typer.Exit(1)


def send_and_report(db: sqlite_utils.Database, home_: Home) -> bool:
    """Send the outbox and print what happened; True when a mail failed for good in this run."""
    sender = delivery.sender_for(home_)
    with sender:
        report = delivery.send_outbox(db, home_, clock(), sender)
    if report.released:
        echo(f"{report_mails.released_text(report.released)}; their reports go now.")
    for mail, reason, when in report.retry:
        echo(f"Mail {mail.id} to {mail.recipient}: not sent ({reason}); trying again after {iso(when)}.")
    for mail in report.refreshed:
        echo(f"Mail {mail.id} to {mail.recipient}: {delivery.REFRESHED}.")
    for mail, reason in report.failed:
        echo(f"Mail {mail.id} to {mail.recipient} failed for good: {reason}.", err=True)
    for done in report.forgotten:
        echo(done if isinstance(done, str) else f"Forgotten at their request: {done.name} <{done.email}>.")
    settings = mail_settings(home_)
    where = "over SMTP" if settings.transport == "smtp" else f"into {settings.folder}"
    echo(f"Sent {len(report.sent)} mail(s) {where}; {len(report.retry)} to try again; {len(report.failed)} failed.")
    return bool(report.failed)


@app.command("list")
def list_(
    every: Annotated[bool, typer.Option("--all", help="Also list mail that was sent or cancelled.")] = False,
    as_json: JsonOption = False,
    home: HomeOption = None,
) -> None:
    """List the outbox: mail waiting to be sent and mail that failed (with why)."""
    _, db = open_home(home)
    statuses = ("queued", "failed", "sent", "cancelled") if every else ("queued", "failed")
    mails = outbox.listed(db, statuses)
    if as_json:
        echo_json(
            [
                {
                    "id": m.id,
                    "status": m.status,
                    "kind": m.kind,
                    "tries": m.attempts,
                    "to": m.recipient,
                    "subject": m.subject,
                    "turn": m.turn,
                    "seat": m.seat,
                    "last_error": m.last_error,
                }
                for m in mails
            ]
        )
        return
    if not mails:
        echo("The outbox is empty." if not every else "No mail yet.")
        return
    echo(f"{'ID':>5}  {'STATUS':<9} {'KIND':<15} {'TRIES':>5}  {'TO':<32} SUBJECT")
    for mail in mails:
        echo(f"{mail.id:>5}  {mail.status:<9} {mail.kind:<15} {mail.attempts:>5}  {mail.recipient:<32} {mail.subject}")
        if mail.last_error:
            echo(f"{'':>7}last error: {mail.last_error}")
