"""Sign-up by mail: JOIN puts a player on a waiting list once confirmed from the address it names
(CONFIRM and the code mailed there); the GM (or the game itself, with signups auto) seats the
waiting players, mails each their secret, and starts the game once full (starting.py)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import sqlite_utils

from gm.clock import Clock, iso
from gm.core.schedule import describe
from gm.core.signup import HOW, Join
from gm.errors import GMError
from gm.home import Home
from gm.intake.letter import Letter
from gm.mail.settings import mail_settings
from gm.mail.templates import mail_environment, write_mail
from gm.seat_secrets import new_secret
from gm.services import starting, waiting
from gm.services.game_settings import game_setting
from gm.services.games import check_player, game_ruleset, game_seat_codes, join_game
from gm.store import outbox, records
from gm.store.database import atomic
from gm.store.records import GameRecord
from gm.store.waiting import mark_seated

# An unconfirmed sign-up by mail lapses this long after it came (docs/mail.md, "Sign-ups").
CONFIRM_HOURS = 48
# A confirmation code is four groups of four, like a seat secret with one group more: about 79 bits.
CODE_GROUPS = 4


@dataclass(frozen=True)
class Confirmation:
    """A sign-up waiting for its confirmation, for the mail that asks for it: the code (mailed
    once to the address that signed up, kept only as its hash), until when it counts (in
    words), what was signed up for (in words) and the seats wished for."""

    code: str
    until: str
    wanted: str
    preferences: tuple[str, ...]


def take_join(
    db: sqlite_utils.Database,
    home: Home,
    clock: Clock,
    letter: Letter,
    join: Join | None,
    problem: str | None,
    source: str,
) -> tuple[dict[str, Any], Confirmation | None]:
    """Act on a sign-up mail inside the caller's transaction: the result for the record and the
    answer (verdict signup or refused, with a note or the reason), and the confirmation to mail
    to the sender's own address when the sign-up waits for one. A refusal changes nothing.

    Anyone can write any From, so a sign-up counts (is seated, under signups auto at once) only
    once confirmed from that address: its code goes there, and only there."""
    try:
        if problem or join is None:  # read_join gives the one or the other
            raise GMError(problem or "the mail asks for no game")
        name = (
            join.name
            or (letter.answer_to.display_name if letter.answer_to else "")
            or (letter.sender or "").split("@")[0]
        )
        now = clock.now()
        code, until = new_secret(CODE_GROUPS), now + timedelta(hours=CONFIRM_HOURS)
        with atomic(db):
            email, name = check_player(letter.sender or "", name)
            listed, pending = waiting.add(
                db,
                iso(now),
                join.target,
                email,
                name,
                list(join.preferences),
                "mail",
                source,
                (code_hash(code), iso(until)),
            )
    except GMError as exc:
        return _not_taken(exc), None
    result: dict[str, Any] = {"verdict": "signup", "taken": True, "target": join.target}
    if not pending:
        return dict(result, note=f"{name} <{email}> is on the waiting list for {listed} already."), None
    note = f"{name} <{email}> signed up for {listed}; it counts once confirmed, by {describe(until, 'UTC')}."
    return dict(result, note=note), Confirmation(code, describe(until, "UTC"), listed, join.preferences)


def take_confirm(
    db: sqlite_utils.Database, home: Home, clock: Clock, letter: Letter, code: str | None, problem: str | None
) -> dict[str, Any]:
    """Act on a CONFIRM mail inside the caller's transaction: the sender's sign-up waiting for
    that code counts from now (seated at once under signups auto); the result for the answer."""
    try:
        if problem:
            raise GMError(problem)
        with atomic(db):
            email = letter.sender or ""
            found = waiting.confirm(db, iso(clock.now()), email, code_hash(code or ""))
            if found is None:
                raise GMError(
                    f"no sign-up from {email or 'this address'} waits for that code: it may have lapsed "
                    f"({CONFIRM_HOURS} hours after the sign-up) or count already; send your JOIN again "
                    "for a new code"
                )
            target, described = found
            notes = [f"Confirmed: {email} is on the waiting list for {described}."]
            notes += _seat_automatically(db, home, clock, target, email)
    except GMError as exc:
        return _not_taken(exc)
    return {"verdict": "signup", "taken": True, "target": target, "note": "\n".join(notes)}


def _not_taken(exc: GMError) -> dict[str, Any]:
    # Not the acknowledgement's "refused", whose advice is about turn files.
    return {
        "verdict": "signup",
        "taken": False,
        "note": f"NOT TAKEN: your sign-up: {exc}.\nNothing was stored. Write {HOW}.",
    }


def code_hash(code: str) -> str:
    """What is kept of a confirmation code: its SHA-256 (the code has about 79 bits and lapses
    in CONFIRM_HOURS, so a fast hash is enough)."""
    return hashlib.sha256(code.strip().lower().encode("utf-8")).hexdigest()


def _seat_automatically(db: sqlite_utils.Database, home: Home, clock: Clock, target: str, email: str) -> list[str]:
    """Games that take sign-ups automatically (setting signups auto) seat the player at once."""
    game = records.find_game(db, target)
    games = [game] if game else [g for g in records.all_games(db) if g.ruleset == target and g.status == "open"]
    for candidate in games:
        if game_setting(candidate, "signups") == "auto":
            seat_waiting(db, home, clock, candidate.name, only=email)
            seat = next((s for s in records.seats_of(db, candidate.id) if s.email.lower() == email.lower()), None)
            if seat is not None:
                return [f"You have seat {seat.code} in {candidate.name}; your secret comes in a mail of its own."]
    return ["The game master seats players from the list; you will get your secret by mail."]


def seat_waiting(
    db: sqlite_utils.Database, home: Home, clock: Clock, game_name: str, only: str | None = None
) -> list[str]:
    """Seat the players waiting for a game, first come first, each in the first free seat they
    asked for (else the first free one), and mail each their secret; once every seat is taken
    the game starts. only: seat just this e-mail address. One line per thing done."""
    game = records.game_by_name(db, game_name)
    if game.status != "open":
        raise GMError(f"game '{game.name}' has started; only a game still open for players seats the waiting list.")
    ruleset, scenario = game_ruleset(game)
    codes = game_seat_codes(game, ruleset, scenario)
    high = len(codes)
    lines = []
    with atomic(db):
        for entry in waiting.waiting_for(db, game.name):
            seats = records.seats_of(db, game.id)
            free = [c for c in codes if c not in {s.code for s in seats}]
            if len(seats) >= high or not free:
                break
            if (only and entry.email.lower() != only.lower()) or any(
                s.email.lower() == entry.email.lower() for s in seats
            ):
                continue
            wanted = next((c for c in entry.preferences if c in free), free[0])
            code, secret = join_game(db, clock, game.name, entry.email, entry.name, wanted)
            seat = records.seat_by_code(db, game, code)
            mark_seated(db, entry.number, seat.id, iso(clock.now()))
            _mail(db, home, clock, game, "seated.txt", seat, {"secret": secret, "seats": high, "taken": len(seats) + 1})
            lines.append(f"seated {entry.email} in {code} of {game.name}")
        started = starting.start_if_full(db, home, clock, game.name) if lines else None
        if started is not None:
            lines += started.lines()
    return lines


def _mail(
    db: sqlite_utils.Database,
    home: Home,
    clock: Clock,
    game: GameRecord,
    template: str,
    seat: records.SeatRecord,
    extra: dict[str, Any],
) -> None:
    settings = mail_settings(home)
    written = write_mail(
        mail_environment(home.templates),
        template,
        {
            "name": seat.name,
            "game": game.name,
            "seat": seat.code,
            "email": seat.email,
            "deadline": game.deadline,
            "gm_name": settings.name,
            **extra,
        },
    )
    outbox.queue_seat_notice(db, clock.now(), seat, written.subject, written.body, settings.domain)
