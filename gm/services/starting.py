"""A game starting: when its last seat is taken, when the GM starts it with the seats it has
(gm game start), or at the latest as turn 1 runs. Its seats are fixed then (no more joins), the
first deadline comes from the schedule, and every player gets the start mail with what turn 1
needs: the board as it starts (its maps as pictures), the order form, the portal's address."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import sqlite_utils

from gm.clock import Clock, iso
from gm.core.envelope import wrap_envelope
from gm.core.model import JSONObject
from gm.core.words import counted
from gm.errors import GMError
from gm.home import Home
from gm.mail.settings import mail_settings, mailable
from gm.mail.templates import mail_environment, write_mail
from gm.render.seat_maps import map_png, seat_maps
from gm.services import cycle
from gm.services.games import ROBOT, SEATS, current_state, game_ruleset, game_seat_codes, seat_robots
from gm.services.house import portal_address
from gm.store import outbox, records
from gm.store.database import atomic
from gm.store.games import set_options, set_turn
from gm.store.records import GameRecord, SeatRecord


@dataclass(frozen=True)
class Started:
    """A game that has started: its seats (in seating order), those the robot plays, the seats
    of the scenario nobody took (left out of the game), its first deadline (or None), how it
    started ("full", "gm" or "turn 1") and how many start mails were queued."""

    game: str
    seats: tuple[str, ...]
    robots: tuple[str, ...]
    left_out: tuple[str, ...]
    deadline: str | None
    how: str
    mailed: int

    def notice(self) -> str:
        """The start in one line of a turn run's notices (gm turn run, gm run-due print the game first)."""
        return (
            f"started with {counted(len(self.seats), 'seat')} ({', '.join(self.seats)}) before turn 1; "
            f"{self.mailed} start mail(s) queued"
        )

    def lines(self) -> list[str]:
        """What the start did, for the GM."""
        lines = [
            f"{self.game} has started with {counted(len(self.seats), 'seat')}: {', '.join(self.seats)}"
            + (f" (the robot plays {', '.join(self.robots)})" if self.robots else "")
            + (f"; first deadline {self.deadline}" if self.deadline else "")
        ]
        if self.left_out:
            lines.append(
                f"{self.game}: the seats nobody took are left out of the game: {', '.join(self.left_out)} "
                "(what that means for the board is the ruleset's: README, 'A game that does not fill')"
            )
        if self.mailed:
            lines.append(f"{self.game}: {self.mailed} start mail(s) queued; send them with 'gm mail send'")
        return lines


def start_game(db: sqlite_utils.Database, home: Home, clock: Clock, game_name: str, robots: bool = False) -> Started:
    """The GM starts a game with the seats it has (gm game start); robots: the robot plays every
    seat of the game still free, else those seats are left out of it."""
    game = records.game_by_name(db, game_name)
    _not_started(game)
    with atomic(db):
        if robots:
            ruleset, scenario = game_ruleset(game)
            taken = {s.code for s in records.seats_of(db, game.id)}
            free = [c for c in game_seat_codes(game, ruleset, scenario) if c not in taken]
            seat_robots(db, game.id, free, iso(clock.now()))
        return _start(db, home, clock, game, "gm")


def start_if_full(db: sqlite_utils.Database, home: Home, clock: Clock, game_name: str) -> Started | None:
    """After a player is seated: the game starts when every one of its seats is taken."""
    game = records.game_by_name(db, game_name)
    if game.status != "open":
        return None
    ruleset, scenario = game_ruleset(game)
    if len(records.seats_of(db, game.id)) < len(game_seat_codes(game, ruleset, scenario)):
        return None
    with atomic(db):
        return _start(db, home, clock, game, "full")


def start_for_turn_one(db: sqlite_utils.Database, home: Home, clock: Clock, game_name: str) -> Started | None:
    """Turn 1 is about to run in a game nobody started (the GM ran it, or its deadline came): it
    starts now with the seats it has, so its players hear of it before their first report."""
    game = records.game_by_name(db, game_name)
    if game.status != "open":
        return None
    with atomic(db):
        return _start(db, home, clock, game, "turn 1")


def _not_started(game: GameRecord) -> None:
    if game.status != "open":
        raise GMError(f"game '{game.name}' has started already; it has its seats.")


def _start(db: sqlite_utils.Database, home: Home, clock: Clock, game: GameRecord, how: str) -> Started:
    """Inside the caller's transaction: fix the seats, set the first deadline, log it, mail it."""
    ruleset, scenario = game_ruleset(game)
    seats = records.seats_of(db, game.id)
    low = ruleset.seat_limits(scenario)[0]
    if len(seats) < low:
        raise GMError(
            f"game '{game.name}' has {len(seats)} seat(s) taken; {ruleset.name} needs at least {low} to start. "
            "Seat more players (gm game join, gm game seat-waiting), or let the robot play the rest: "
            f"gm game start {game.name} --robots."
        )
    order = {code: i for i, code in enumerate(ruleset.seat_codes(scenario))}
    seats = sorted(seats, key=lambda s: order.get(s.code, len(order)))
    left_out = tuple(c for c in game_seat_codes(game, ruleset, scenario) if c not in {s.code for s in seats})
    set_options(db, game.id, dict(game.options, **{SEATS: len(seats)}))
    set_turn(db, game.id, game.turn, "running")
    if how != "turn 1":  # a turn 1 running now keeps the deadline it runs at
        _first_deadline(db, clock, records.game_by_name(db, game.name))
    game = records.game_by_name(db, game.name)
    codes = tuple(s.code for s in seats)
    robots = tuple(s.code for s in seats if s.status == ROBOT)
    records.audit(
        db,
        iso(clock.now()),
        game.id,
        "game start",
        {
            "how": how,
            "seats": list(codes),
            "robots": list(robots),
            "left_out": list(left_out),
            "deadline": game.deadline,
        },
    )
    mailed = _start_mails(db, home, clock, game, seats, how) if mail_settings(home).address else 0
    return Started(game.name, codes, robots, left_out, game.deadline, how, mailed)


def _first_deadline(db: sqlite_utils.Database, clock: Clock, game: GameRecord) -> None:
    """With a schedule, turn 1 is due at its first slot at least the game's turn-gap after the
    start, as every later turn is after the one before: players get the start mail in time. A
    deadline the GM set that is further off stands."""
    first = cycle.next_slot(game, clock.now())
    due = cycle.moment(game.due)
    if first is not None and (due is None or due < first):
        cycle.set_due(db, game, first, first)


def _start_mails(
    db: sqlite_utils.Database, home: Home, clock: Clock, game: GameRecord, seats: list[SeatRecord], how: str
) -> int:
    """The start mail to every player (templates/mail/started.txt); robots get none. Unless turn
    1 runs at once, it carries the board as it starts (the seat's maps as pictures) and the
    order form for turn 1, in its text and attached."""
    ruleset, _ = game_ruleset(game)
    state = current_state(db, game)
    env = mail_environment(home.templates)
    settings = mail_settings(home)
    names = {s.code: s.name for s in seats}
    queued = 0
    for seat in seats:
        if seat.status == ROBOT or not mailable(seat.email):
            continue
        form = (
            ""
            if how == "turn 1"
            else wrap_envelope(game.name, seat.code, 1, list(ruleset.order_form(state, seat.code)))
        )
        pictures = [] if how == "turn 1" else _board(home, game, ruleset.view(state, seat.code), seat.code, names)
        attachments: list[dict[str, Any]] = pictures + (
            [{"filename": f"{game.name}-1-{seat.code}-orders.txt", "type": "text/plain", "content": form}]
            if form
            else []
        )
        written = write_mail(
            env,
            "started.txt",
            {
                "name": seat.name,
                "game": game.name,
                "seat": seat.code,
                "email": seat.email,
                "how": how,
                "seats": [s.code for s in seats],
                "robots": [s.code for s in seats if s.status == ROBOT],
                "turn_label": ruleset.turn_label(state),
                "deadline": game.deadline,
                "order_form": form,
                "attachments": [a["filename"] for a in attachments],
                "portal": portal_address(home),
                "gm_name": settings.name,
            },
        )
        outbox.queue_seat_notice(db, clock.now(), seat, written.subject, written.body, settings.domain, attachments)
        queued += 1
    return queued


def _board(home: Home, game: GameRecord, view: JSONObject, seat: str, names: dict[str, str]) -> list[dict[str, Any]]:
    """The seat's maps of the starting position as PNG files in reports/<game>/start/, as the
    outbox attaches files: a player reads the board before turn 1 (Imperials' set-up corners).
    map_png loads CairoSVG when it first draws (gm/render/seat_maps.py): only a start that
    mails its board pays for it."""
    folder = home.reports / game.name / "start"
    attached: list[dict[str, Any]] = []
    for drawn in seat_maps(view):
        picture = map_png(view, seat, names, drawn.file)
        if picture is None:
            continue
        name = f"{game.name}-start-{seat}-{drawn.file.rsplit('.', 1)[0]}.png"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(picture)
        attached.append(
            {
                "path": str((folder / name).relative_to(home.root)),
                "filename": name,
                "type": "image/png",
                "sha256": hashlib.sha256(picture).hexdigest(),
            }
        )
    return attached
