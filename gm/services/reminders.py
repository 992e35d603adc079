"""Reminders the GM sends now (gm game remind, the portal's GM page), beside those gm run-due
sends by itself a day before the deadline: the same mail, to the seats still without orders."""

from __future__ import annotations

import sqlite_utils

from gm.clock import Clock, iso
from gm.core.cycle import missing_seats
from gm.errors import GMError
from gm.home import Home
from gm.services import cycle
from gm.services.rundue import RunReport
from gm.services.rundue_mail import MailHooks
from gm.store import records
from gm.store.database import transaction


def seats_to_remind(db: sqlite_utils.Database, clock: Clock, game: records.GameRecord) -> tuple[str, ...]:
    """The active seats without valid orders for the game's turn and not away, by code."""
    return tuple(sorted(missing_seats(cycle.cycle_facts(db, game, clock.now()))))


def remind_now(
    db: sqlite_utils.Database, home: Home, clock: Clock, game_name: str, seats: list[str] | None = None
) -> list[str]:
    """Queue a reminder to every active seat of the game without valid orders for this turn (or
    to those of `seats`), written in the audit log; returns the seats reminded.

    The cycle's own reminder (run-due, `reminder` before the deadline) still goes out: the GM's
    is one more. Robot seats, seats away and seats that dropped out get none."""
    game = records.game_by_name(db, game_name)
    if game.status == "over":
        raise GMError(f"game '{game.name}' is over; there are no orders to remind anybody of.")
    if not game.due:
        raise GMError(
            f"game '{game.name}' has no deadline, so a reminder would have no date to give. Set one "
            f"with 'gm game deadline {game.name} WHEN' first."
        )
    if not home.setting("mail", "address", ""):
        raise GMError(
            "reminders go by mail, and gm.toml names no [mail] address. Set one (see docs/mail.md), then remind again."
        )
    missing = seats_to_remind(db, clock, game)
    wanted = [code.strip().upper() for code in seats] if seats else list(missing)
    if seats:
        known = {s.code for s in records.seats_of(db, game.id)}
        unknown = [code for code in wanted if code not in known]
        if unknown:
            raise GMError(
                f"game '{game.name}' has no seat {', '.join(unknown)}. Its seats: {', '.join(sorted(known))}."
            )
        sent = [code for code in wanted if code not in missing]
        if sent:
            raise GMError(
                f"{', '.join(sent)} of '{game.name}' need no reminder (orders in, away, a robot or out "
                f"of the game). Without orders: {', '.join(missing) or 'nobody'}."
            )
    if not wanted:
        raise GMError(f"every active seat of '{game.name}' has sent orders for turn {game.turn}; nobody to remind.")
    with transaction(db):
        MailHooks().remind(db, home, clock, game, wanted, "reminder", RunReport())
        records.audit(db, iso(clock.now()), game.id, "remind", {"seats": wanted, "turn": game.turn})
    return wanted
