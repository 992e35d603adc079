"""The GM's weekly cycle: schedules and deadlines, holds, absences, NMR drop-outs and standbys."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

import sqlite_utils

from gm.clock import Clock, iso
from gm.core.cycle import GameFacts
from gm.core.schedule import (
    Schedule,
    ScheduleError,
    deadlines_after,
    describe,
    next_deadline,
    parse_moment,
    parse_schedule,
)
from gm.errors import GMError
from gm.seat_secrets import hash_secret, new_secret
from gm.services.game_settings import game_setting
from gm.services.games import check_player
from gm.store import absences, games, records, runs, standbys
from gm.store.database import transaction
from gm.store.records import GameRecord, SeatRecord
from gm.store.seats import hand_over, set_status

NMR_KINDS = ("robot", "repeat", "hold")


def moment(text: str | None) -> datetime | None:
    return stored_moment(text) if text else None


def stored_moment(text: str) -> datetime:
    """A moment as gm stores it (UTC ISO, gm.clock.iso), where one is always stored."""
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def schedule_of(game: GameRecord) -> Schedule | None:
    return Schedule.from_json(game.schedule) if game.schedule else None


def zone_of(game: GameRecord) -> str:
    schedule = schedule_of(game)
    return schedule.zone if schedule else "UTC"


def set_due(db: sqlite_utils.Database, game: GameRecord, slot: datetime | None, due: datetime | None) -> None:
    zone = zone_of(records.game_by_name(db, game.name))
    games.set_due(
        db, game.id, iso(slot) if slot else None, iso(due) if due else None, describe(due, zone) if due else None
    )


def set_schedule(
    db: sqlite_utils.Database, clock: Clock, game_name: str, phrase: str
) -> tuple[Schedule, list[datetime]]:
    """Store a game's schedule and set the deadline of the turn being collected to its next slot."""
    game = records.game_by_name(db, game_name)
    now = clock.now()
    try:
        schedule = parse_schedule(phrase, now)
    except ScheduleError as exc:
        raise GMError(str(exc)) from exc
    upcoming = deadlines_after(schedule, now, 5)
    with transaction(db):
        games.set_schedule(db, game.id, schedule.to_json())
        if game.status != "over":
            first = upcoming[0] if upcoming else None
            set_due(db, game, first, first)
        records.audit(db, iso(now), game.id, "schedule", schedule.to_json())
    return schedule, upcoming


def push_deadline(db: sqlite_utils.Database, clock: Clock, game_name: str, when: str, past: bool = False) -> str:
    """Move this turn's deadline only; the schedule goes on from its next slot after it."""
    game = records.game_by_name(db, game_name)
    if game.status == "over":
        raise GMError(f"game '{game.name}' is over; it has no deadline.")
    try:
        due = parse_moment(when, zone_of(game))
    except ScheduleError as exc:
        raise GMError(str(exc)) from exc
    if due <= clock.now() and not past:
        raise GMError(
            f"{describe(due, zone_of(game))} has passed already. Give a time to come, or --past "
            "to set it anyway (the turn is then due at once)."
        )
    with transaction(db):
        set_due(db, game, moment(game.slot) or due, due)
        records.audit(db, iso(clock.now()), game.id, "deadline", {"due": iso(due)})
    return describe(due, zone_of(game))


def set_held(db: sqlite_utils.Database, clock: Clock, game_name: str, held: bool) -> None:
    game = records.game_by_name(db, game_name)
    with transaction(db):
        games.set_held(db, game.id, held)
        records.audit(db, iso(clock.now()), game.id, "hold" if held else "release", {})


def advance_after_turn(db: sqlite_utils.Database, game: GameRecord, now: datetime, over: bool) -> None:
    """Inside a turn's transaction: the next turn is due at the schedule's first slot at least the
    game's turn-gap after the turn ran (gm.core.schedule.next_deadline), never the slot after the
    old deadline: three turns run early on one Friday leave the fourth due the next Friday."""
    schedule = schedule_of(game)
    if over:
        set_due(db, game, None, None)
        return
    if schedule is None or schedule.manual:
        # No schedule to draw from: a deadline the GM set that is still ahead (the turn ran
        # early) stands for the next turn; one that has passed is gone.
        due = moment(game.due)
        set_due(db, game, *((due, due) if due is not None and due > now else (None, None)))
        return
    nxt = next_slot(game, now)
    set_due(db, game, nxt, nxt)


def next_slot(game: GameRecord, ran: datetime) -> datetime | None:
    """The game's schedule's first slot at least its turn-gap after `ran` (a turn run, or the
    game's start); None without a schedule."""
    schedule = schedule_of(game)
    if schedule is None or schedule.manual:
        return None
    gap = game_setting(game, "turn-gap")
    return next_deadline(schedule, ran, None if gap == "auto" else timedelta(minutes=gap))


# ---------------------------------------------------------------- absences, standbys, NMR


def add_absence(
    db: sqlite_utils.Database, clock: Clock, game_name: str, seat_code: str, starts: str, ends: str, source: str = "gm"
) -> tuple[datetime, datetime]:
    game = records.game_by_name(db, game_name)
    seat = records.seat_by_code(db, game, seat_code)
    try:
        start, end = parse_moment(starts, zone_of(game)), parse_moment(ends, zone_of(game))
    except ScheduleError as exc:
        raise GMError(str(exc)) from exc
    if end <= start:
        raise GMError("an absence must end after it starts.")
    with transaction(db):
        record_absence(db, game, seat, start, end, source, iso(clock.now()))
    return start, end


def record_absence(
    db: sqlite_utils.Database, game: GameRecord, seat: SeatRecord, start: datetime, end: datetime, source: str, now: str
) -> None:
    """Store an absence window (inside the caller's transaction)."""
    absences.add_absence(db, game.id, seat.id, iso(start), iso(end), source, now)


def absent_at(db: sqlite_utils.Database, game: GameRecord, when: datetime | None) -> dict[str, datetime]:
    """Seat code -> end of the absence covering `when`."""
    if when is None:
        return {}
    return {code: stored_moment(ends) for code, ends in absences.absent_at(db, game.id, iso(when))}


def add_standby(db: sqlite_utils.Database, clock: Clock, game_name: str, email: str, name: str) -> int:
    game = records.game_by_name(db, game_name)
    email, name = check_player(email, name)
    if any(s.email.lower() == email.lower() for s in records.seats_of(db, game.id)):
        raise GMError(f"{email} already has a seat in '{game.name}'.")
    waiting = [s["email"].lower() for s in records.waiting_standbys(db, game.id)]
    if email.lower() in waiting:  # twice in line, they would take two seats
        raise GMError(
            f"{email} is standby number {waiting.index(email.lower()) + 1} for '{game.name}' already "
            f"('gm game show {game.name}' lists the standbys)."
        )
    with transaction(db):
        standbys.add_standby(db, game.id, email.strip(), " ".join(name.split()), iso(clock.now()))
    return standbys.standbys_waiting(db, game.id)


def nmr_streaks(turn_orders: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """Missed turns in a row per seat, counted back from the last turn's stored orders."""
    streaks: dict[str, int] = {}
    done: set[str] = set()
    for orders in reversed(turn_orders):
        for code, entry in orders.items():
            if code in done:
                continue
            if entry.get("by") in NMR_KINDS:
                streaks[code] = streaks.get(code, 0) + 1
            else:
                streaks.setdefault(code, 0)
                done.add(code)
    return streaks


def holder_streaks(db: sqlite_utils.Database, game_id: int) -> dict[str, int]:
    """Missed turns in a row of each seat's present player, counted back from the last stored
    turn: a standby's count begins with the turn they play the seat from, and never holds the
    turns the player before them missed."""
    by_turn = records.orders_of(db, game_id, 1)
    since = records.seat_takeovers(db, game_id)
    streaks: dict[str, int] = {}
    for seat in records.seats_of(db, game_id):
        first = since.get(seat.id, 1)
        streaks[seat.code] = nmr_streaks([o for n, o in by_turn.items() if n >= first]).get(seat.code, 0)
    return streaks


@dataclass(frozen=True)
class SeatChange:
    """A seat that changed hands at a turn's drop-outs, for the mails that tell both players.

    seat: its code. left_email, left_name: the player who dropped out. missed: the turns they
    missed in a row. standby_email, standby_name, secret: the standby who took the seat and their
    new secret (None when no standby was waiting: the NMR policy plays it). from_turn: the first
    turn the standby plays; the turn before it is the last one the leaver was charged for."""

    seat: str
    left_email: str
    left_name: str
    missed: int
    from_turn: int
    standby_email: str | None = None
    standby_name: str | None = None
    secret: str | None = None
    told: bool = False  # the leaver left earlier (resigned, or dropped by the GM) and was told then


def drop_outs(
    db: sqlite_utils.Database, game: GameRecord, number: int, now: str, out: Collection[str] = ()
) -> tuple[list[str], list[SeatChange]]:
    """Inside a turn's transaction: seats at the NMR limit drop out; the first standby takes
    each dropped seat with a new secret. Returns notices for the GM (with the new secrets) and
    each seat's change of hands, for the books and the mails. A seat knocked out of the game
    (`out`) sends no orders and misses none: it never drops out (11.7, D-EMP-15)."""
    limit = game_setting(game, "nmr-limit")
    if not limit:
        return [], []
    streaks = holder_streaks(db, game.id)
    notices: list[str] = []
    dropped: list[SeatChange] = []
    # A re-run turn drops no standby who took the seat over after it: they never played it.
    takeovers = records.seat_takeovers(db, game.id)
    for seat in records.seats_of(db, game.id):
        if seat.status != "active" or seat.code in out or streaks.get(seat.code, 0) < limit:
            continue
        if takeovers.get(seat.id, 0) > number:
            continue
        set_status(db, seat.id, "dropped")
        records.audit(db, now, game.id, "drop out", {"seat": seat.code, "email": seat.email, "missed": limit})
        notices.append(f"{seat.code} ({seat.name}) dropped out after {limit} missed turns in a row.")
        standby = standbys.first_standby(db, game.id)
        change = SeatChange(seat.code, seat.email, seat.name, limit, number + 1)
        if standby:
            notice, change = _take_over(db, game, seat, standby, change, now)
            notices.append(notice)
        dropped.append(change)
    return notices, dropped


def standbys_take_left_seats(
    db: sqlite_utils.Database, game: GameRecord, number: int, now: str, out: Collection[str] = ()
) -> tuple[list[str], list[SeatChange]]:
    """Inside a turn's transaction: each seat whose player left before it (`gm seat resign`,
    `gm seat drop`, RESIGN by mail) goes to the first standby waiting, from the next turn; the
    robot played it until then (docs/people.md, "Resigning by mail"). A seat knocked out of the
    game has no orders to send and is taken by no one."""
    notices: list[str] = []
    taken: list[SeatChange] = []
    for seat in records.seats_of(db, game.id):
        if seat.status not in ("dropped", "resigned") or seat.code in out:
            continue
        standby = standbys.first_standby(db, game.id)
        if not standby:
            break
        change = SeatChange(seat.code, seat.email, seat.name, 0, number + 1, told=True)
        notice, change = _take_over(
            db, game, seat, standby, change, now, f"took over from {seat.name}, who {seat.status}"
        )
        notices.append(notice)
        taken.append(change)
    return notices, taken


def _take_over(
    db: sqlite_utils.Database,
    game: GameRecord,
    seat: SeatRecord,
    standby: tuple[int, str, str],
    change: SeatChange,
    now: str,
    why: str = "",
) -> tuple[str, SeatChange]:
    standby_id, email, name = standby
    from_turn = change.from_turn
    secret = new_secret()
    account = records.account_id(db, email, name, now)
    hand_over(
        db, seat.id, account, hash_secret(secret), from_turn, why or f"took over from {seat.name} after NMRs", now
    )
    standbys.mark_taken(db, standby_id, seat.id, now)
    records.audit(db, now, game.id, "standby takes seat", {"seat": seat.code, "email": email})
    return (
        f"{seat.code} is now played by standby {name} <{email}> from turn {from_turn}; secret for {seat.code}: {secret}",
        replace(change, standby_email=email, standby_name=name, secret=secret),
    )


def cycle_facts(db: sqlite_utils.Database, game: GameRecord, now: datetime) -> GameFacts:
    seats = records.seats_of(db, game.id)
    out = games.knocked_out(db, game.id)  # no orders to send: never waited for, reminded nor missing
    current = records.current_submissions(db, game.id, game.turn)
    code = {s.id: s.code for s in seats}
    sent: dict[str, set[str]] = {"reminder": set(), "late": set()}
    for seat_id, kind in runs.reminders_sent(db, game.id, game.turn):
        sent[kind].add(code[seat_id])
    due = moment(game.due)
    return GameFacts(
        due=due,
        grace_minutes=game_setting(game, "grace"),
        held=game.held,
        active=tuple(s.code for s in seats if s.status == "active" and s.code not in out),
        submitted=tuple(code[i] for i in current),
        final_at={code[i]: stored_moment(c["received"]) for i, c in current.items() if c["final"]},
        absent=tuple(absent_at(db, game, due)),
        early=game_setting(game, "early"),
        early_delay_minutes=game_setting(game, "early-delay"),
        reminder_minutes=game_setting(game, "reminder"),
        spike_percent=game_setting(game, "nmr-spike"),
        reminded=tuple(sorted(sent["reminder"])),
        late_noticed=tuple(sorted(sent["late"])),
    )
