"""The return slip by mail (rule 11.5): SLIP lines checked and done through the books and the
waiting lists, and the GM's default for the slips that never came back."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import timedelta
from typing import Any

import sqlite_utils

from gm.clock import Clock, iso
from gm.core import ledger
from gm.core.envelope import Envelope
from gm.core.slip import ALL, NEXT, Slip, read_slip
from gm.core.words import counted
from gm.errors import GMError
from gm.home import Home
from gm.mail.settings import mail_settings
from gm.mail.templates import mail_environment, write_mail
from gm.services import credits, waiting
from gm.services.cycle import moment
from gm.services.game_settings import game_setting
from gm.services.games import check_player
from gm.services.requests import check_seat
from gm.store import outbox, records
from gm.store.database import atomic
from gm.store.records import GameRecord, SeatRecord
from gm.store.slips import add_slip, slip_of, slips_of
from gm.store.turns import last_resolved


def answer_slip(
    db: sqlite_utils.Database,
    clock: Clock,
    secret_check: Callable[[str, str], bool],
    envelope: Envelope,
    where: str,
    source: str,
    near: Callable[[], Iterable[str]] = tuple,
) -> dict[str, Any]:
    """Check the seat and secret as for orders, then act on the slip; the result for the
    acknowledgement. A slip with any problem is refused whole and changes nothing. near(): the
    games an unknown GAME line may be corrected to (requests.check_seat)."""
    refusal, game, seat = check_seat(db, secret_check, envelope, near)
    if game is None or seat is None:
        return {"where": where, "verdict": "refused", "reason": refusal}
    slip, problems = read_slip(list(envelope.lines))
    try:
        if problems:
            raise GMError("; ".join(f"line {p.line}: {p.message}" for p in problems))
        with atomic(db):
            notes = act(db, clock, game, seat, slip, "player", source)
    except GMError as exc:
        return {
            "where": where,
            "verdict": "refused",
            "reason": f"your return slip for {seat.code} in {game.name} was not used: {exc}",
        }
    return {"where": where, "verdict": "request", "game": game.name, "seat": seat.code, "note": "\n".join(notes)}


def act(
    db: sqlite_utils.Database, clock: Clock, game: GameRecord, seat: SeatRecord, slip: Slip, by: str, source: str
) -> list[str]:
    """Do what a slip says, inside the caller's transaction; the sentences that tell the player.
    Raises GMError (and the caller rolls back) when any part cannot be done."""
    if game.status != "over":
        raise GMError(f"{game.name} is not over yet; the return slip comes with the end-of-game report")
    taken = slip_of(db, seat.id)
    if taken:
        raise GMError(
            f"the slip for this seat was already acted on ({taken.by}, {taken.taken}); write to the GM to change it"
        )
    now = iso(clock.now())
    notes = []
    if slip.transfer_to:
        notes.append(_transfer(db, now, game, seat, slip.transfer_to, slip.transfer_credits))
    elif slip.carry:
        left = credits.account_position(db, seat.email).balance
        notes.append(f"Your {counted(left, 'leftover credit')} stay on your account for your next game.")
    if slip.decided:
        notes.append(_next_game(db, now, game, seat, slip, by, source))
    if not notes:
        raise GMError("it says nothing to do")
    choices = {
        "join": slip.join,
        "decided": slip.decided,
        "carry": slip.carry,
        "transfer_to": slip.transfer_to,
        "transfer_credits": slip.transfer_credits,
    }
    add_slip(db, game.id, seat.id, now, by, source, choices)
    records.audit(db, now, game.id, "return slip", {"seat": seat.code, "by": by, **choices})
    return notes


def _transfer(
    db: sqlite_utils.Database, now: str, game: GameRecord, seat: SeatRecord, to: str, wanted: int | None
) -> str:
    """Give the seat's leftover credits (`wanted` of them; ALL: every one) to the account `to`.
    An address gm has no account for gets one, where the credits wait until its owner plays: the
    answer (and the giver's books) are the same whether `to` plays here or not, so a slip cannot
    find out who does (D-ALL-5, hidden information stays hidden)."""
    # Its form only (nothing said of who plays); a new account is named by the address's first part.
    to, name = check_player(to, to.split("@")[0][:60])
    found = credits.known_account(db, to)
    if found is not None and ledger.account_key(found[1]) == ledger.account_key(seat.email):
        raise GMError("the credits are yours already; SLIP CARRY keeps them on your account")
    has = credits.account_position(db, seat.email).balance
    amount = has if wanted is ALL else wanted
    if amount < 1 or amount > has:
        raise GMError(f"you have {counted(has, 'credit')} left, so {amount} cannot be given")
    if found is None:
        records.account_id(db, to, name, now)
    taker = found[1] if found is not None else to
    credits.move(db, now, seat.email, taker, amount, f"return slip of {seat.code} in {game.name}", game.id, to)
    return f"{counted(amount, 'credit')} went from your account to {to}."


def _next_game(
    db: sqlite_utils.Database, now: str, game: GameRecord, seat: SeatRecord, slip: Slip, by: str, source: str
) -> str:
    if slip.join is None:
        return "You asked for no new game for now; write to the GM when you want one."
    target = slip.join or game.ruleset
    came = "slip" if by == "player" else "default"
    listed, _ = waiting.add(db, now, target, seat.email, seat.name, [seat.code], came, source)
    return f"You are on the waiting list for {listed}, asking for seat {seat.code} again."


# ----------------------------------------------------------------------------------------------
# Slips that never came back: the game's slip-default after slip-days (rule 11.5).


def apply_defaults(db: sqlite_utils.Database, home: Home, clock: Clock) -> list[str]:
    """For every game over for at least its `slip-days`, act on each slip not returned as the
    game's `slip-default` says, and tell the player by mail; one line per seat for run-due."""
    lines = []
    for game in records.all_games(db):
        if game.status != "over" or not _default_due(db, game, clock):
            continue
        for seat in _without_slip(db, game):
            lines.append(_apply_default(db, home, clock, game, seat))
    return lines


def _default_due(db: sqlite_utils.Database, game: GameRecord, clock: Clock) -> bool:
    ended = moment(last_resolved(db, game.id))
    days = game_setting(game, "slip-days")
    return ended is not None and clock.now() >= ended + timedelta(days=days)


def _without_slip(db: sqlite_utils.Database, game: GameRecord) -> list[SeatRecord]:
    answered = slips_of(db, game.id)
    return [s for s in records.seats_of(db, game.id) if s.status == "active" and s.id not in answered]


def _apply_default(db: sqlite_utils.Database, home: Home, clock: Clock, game: GameRecord, seat: SeatRecord) -> str:
    # 11.5: only a player who still has leftover credits goes straight into the next game.
    left = credits.account_position(db, seat.email).balance
    join = game_setting(game, "slip-default") == "join" and left > 0
    slip = Slip(NEXT if join else None, True, not join)
    with atomic(db):
        notes = act(db, clock, game, seat, slip, "default", "default")
        _tell(db, home, clock, game, seat, notes)
    return f"{game.name}: no return slip from {seat.code} ({seat.email}): " + " ".join(notes)


def _tell(
    db: sqlite_utils.Database, home: Home, clock: Clock, game: GameRecord, seat: SeatRecord, notes: list[str]
) -> None:
    settings = mail_settings(home)
    written = write_mail(
        mail_environment(home.templates),
        "slip_default.txt",
        {
            "name": seat.name,
            "game": game.name,
            "seat": seat.code,
            "notes": notes,
            "days": game_setting(game, "slip-days"),
            "gm_name": settings.name,
        },
    )
    outbox.queue_seat_notice(db, clock.now(), seat, written.subject, written.body, settings.domain)
