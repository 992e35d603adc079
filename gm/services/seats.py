"""Seats leaving a game: a drop-out forfeits every discount; a resignation only if the GM says."""

from __future__ import annotations

import sqlite_utils

from gm.clock import Clock, iso
from gm.errors import GMError
from gm.services import credits
from gm.store import records
from gm.store.database import transaction
from gm.store.records import GameRecord, SeatRecord
from gm.store.seats import set_status

STATUSES = ("active", "dropped", "resigned", "robot")  # robot: seated as one (gm game new --robots)
LEFT = ("dropped", "resigned")  # the player left the game: the NMR policy plays the seat from then on


def leave(
    db: sqlite_utils.Database, game: GameRecord, seat: SeatRecord, status: str, forfeit: bool, now: str, why: str
) -> None:
    """Mark the seat as gone (the robot plays its country from now on) and, when it forfeits,
    take the account's whole discount, which counts in every game (rule D-EMP-15)."""
    set_status(db, seat.id, status)
    have = credits.account_position(db, seat.email).discount
    if forfeit and have:
        credits.post(
            db,
            now,
            seat.email,
            "forfeit",
            discount=-have,
            game=game.name,
            seat=seat.code,
            memo=f"{game.name} seat {seat.code} {why}: all {have} bonus turns forfeited",
        )
    records.audit(
        db, now, game.id, f"seat {status}", {"seat": seat.code, "email": seat.email, "forfeit": forfeit, "why": why}
    )


def leaving(db: sqlite_utils.Database, game_name: str, code: str) -> tuple[GameRecord, SeatRecord]:
    game = records.game_by_name(db, game_name)
    seat = records.seat_by_code(db, game, code)
    if game.status == "over":
        raise GMError(f"game '{game.name}' is over; seats no longer change.")
    if seat.status == "robot":
        raise GMError(f"seat {seat.code} of '{game.name}' is played by the robot for the whole game.")
    if seat.status != "active":
        raise GMError(f"seat {seat.code} of '{game.name}' has already {seat.status} ({seat.name} <{seat.email}>).")
    return game, seat


def drop_out(db: sqlite_utils.Database, clock: Clock, game_name: str, code: str) -> SeatRecord:
    """A drop-out: the player left without the GM's pardon; every discount is forfeited."""
    game, seat = leaving(db, game_name, code)
    with transaction(db):
        leave(db, game, seat, "dropped", True, iso(clock.now()), "dropped out")
    return seat


def resign(db: sqlite_utils.Database, clock: Clock, game_name: str, code: str, forfeit: bool) -> SeatRecord:
    """A resignation: the player leaves with the GM's pardon; discounts stay unless forfeit."""
    game, seat = leaving(db, game_name, code)
    with transaction(db):
        leave(db, game, seat, "resigned", forfeit, iso(clock.now()), "resigned")
    return seat
