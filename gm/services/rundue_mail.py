"""gm run-due's mail: its hooks fetch new mail, queue reminders and late notices, and send the
outbox (publishing queues the reports)."""

from __future__ import annotations

from datetime import timedelta

import sqlite_utils

from gm.clock import Clock
from gm.core.schedule import describe
from gm.errors import GMError
from gm.home import Home
from gm.intake.imap import ImapSource, imap_settings
from gm.mail.settings import mail_settings, mailable
from gm.mail.templates import mail_environment, write_mail
from gm.services import cycle, delivery, turnfiles
from gm.services.game_settings import game_setting
from gm.services.intake import Intake
from gm.services.rundue import Hooks, RunReport
from gm.store import outbox, records
from gm.store.database import atomic
from gm.store.records import GameRecord


class MailHooks(Hooks):
    """The cycle with gm's mail: what [imap] and [mail] in gm.toml configure."""

    def fetch(self, db: sqlite_utils.Database, home: Home, clock: Clock, report: RunReport) -> None:
        if not home.setting("imap", "host", ""):
            return
        server, place = imap_settings(home)
        intake = Intake(db, home, clock, "imap")
        with ImapSource(server, place) as source:
            taken = [t for t in intake.take_all(source) if t.outcome != "already taken"]
        if taken:
            report.lines.append(f"mail: took {len(taken)} new message(s)")
        kept = sum(t.outcome == "fault" for t in taken)
        if kept:
            report.problems.append(
                f"mail: {kept} message(s) could not be processed (a game's ruleset failed reading them); "
                "they are kept and read again at the next fetch (gm status lists them)"
            )

    def remind(
        self,
        db: sqlite_utils.Database,
        home: Home,
        clock: Clock,
        game: GameRecord,
        seats: list[str],
        kind: str,
        report: RunReport,
    ) -> None:
        env = mail_environment(home.templates)
        settings = mail_settings(home)
        by_code = {s.code: s for s in records.seats_of(db, game.id)}
        due = cycle.moment(game.due)
        assert due is not None, "run-due and gm game remind remind only of a game with a deadline"
        until = due + timedelta(minutes=game_setting(game, "grace"))
        limit = game_setting(game, "nmr-limit")
        streaks = cycle.holder_streaks(db, game.id)
        now = clock.now()
        mailed = [code for code in seats if mailable(by_code[code].email)]
        forms = turnfiles.order_forms(db, game, mailed) if mailed else {}
        with atomic(db):  # the GM's reminders (gm/services/reminders.py) queue them in a transaction of their own
            for code in mailed:
                seat = by_code[code]
                written = write_mail(
                    env,
                    f"{kind}.txt",
                    {
                        "game": game.name,
                        "turn": game.turn,
                        "seat": code,
                        "player": seat.name,
                        "deadline": game.deadline,
                        "until": describe(until, cycle.zone_of(game)),
                        "left": max(limit - streaks.get(code, 0), 0) if limit else None,
                        "form": forms[code],
                        "gm_name": settings.name,
                    },
                )
                outbox.queue(
                    db,
                    now,
                    kind=kind,
                    recipient=seat.email,
                    recipient_name=seat.name,
                    subject=written.subject,
                    body=written.body,
                    domain=settings.domain,
                    game_id=game.id,
                    seat=code,
                    turn=game.turn,
                )

    def send(self, db: sqlite_utils.Database, home: Home, clock: Clock, report: RunReport) -> None:
        if not outbox.due(db, clock.now()):
            return
        try:
            sender = delivery.sender_for(home)
            with sender:
                sent = delivery.send_outbox(db, home, clock, sender)
        except GMError as exc:
            report.problems.append(f"mail not sent: {exc}")
            return
        report.lines.append(f"mail: sent {len(sent.sent)}, to try again {len(sent.retry)}, failed {len(sent.failed)}")
        report.problems.extend(f"mail {m.id} to {m.recipient} failed for good: {why}" for m, why in sent.failed)
        report.lines.extend(f"mail {m.id} to {m.recipient}: {delivery.REFRESHED}" for m in sent.refreshed)
        report.lines.extend(f"{r.game}: {r.seat}'s report of turn {r.turn} released (paid for)" for r in sent.released)
        report.lines.extend(
            done if isinstance(done, str) else f"forgotten at their request: {done.email}" for done in sent.forgotten
        )
