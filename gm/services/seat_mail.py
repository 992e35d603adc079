"""Mail when a seat changes hands: the standby's welcome with the secret, the leaver's notice."""

from __future__ import annotations

from typing import Any

import sqlite_utils

from gm.clock import Clock
from gm.home import Home
from gm.mail.settings import mail_settings, mailable
from gm.mail.templates import mail_environment, write_mail
from gm.services.cycle import SeatChange
from gm.store import outbox, records
from gm.store.records import GameRecord


def queue_seat_changes(
    db: sqlite_utils.Database, home: Home, clock: Clock, game: GameRecord, changes: list[SeatChange]
) -> int:
    """Inside the turn's transaction (so each mail is queued exactly once, with the turn): the
    standby who took a seat gets the welcome (their secret; the last report follows as the
    seat's report mail when the turn is published), the player who dropped out a notice.
    Nothing without a [mail] address in gm.toml, nor to an .invalid address. Returns how many.

    The mails carry no seat or turn in the outbox: they are not a turn's report or its held
    notice, so neither the report queue nor releasing held reports ever takes them for one."""
    if not changes:  # most turns: gm.toml is not even read
        return 0
    settings = mail_settings(home)
    if not settings.address:
        return 0
    env = mail_environment(home.templates)
    game = records.game_by_name(db, game.name)  # the next turn's deadline, set in this transaction
    queued = 0
    for change in changes:
        common = {
            "game": game.name,
            "seat": change.seat,
            "turn": change.from_turn,
            "last_turn": change.from_turn - 1,
            "deadline": game.deadline,
            "gm_name": settings.name,
            "missed": change.missed,
            "standby": change.standby_email is not None,
        }
        letters: list[tuple[str, str, str, dict[str, Any]]] = (
            [] if change.told else [("dropped.txt", change.left_email, change.left_name, {})]
        )
        if change.standby_email:  # a standby has a name too: cycle.drop_outs sets both at once
            standby = change.standby_name or ""
            letters.append(("welcome.txt", change.standby_email, standby, {"secret": change.secret}))
        for template, email, name, extra in letters:
            if not mailable(email):
                continue
            written = write_mail(env, template, {**common, "player": name, **extra})
            outbox.queue(
                db,
                clock.now(),
                kind="notice",
                recipient=email,
                recipient_name=name,
                subject=written.subject,
                body=written.body,
                domain=settings.domain,
                game_id=game.id,
            )
            queued += 1
    return queued
