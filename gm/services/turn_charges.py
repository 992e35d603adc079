"""What a turn run does to the books: charge each seat played (reversing a re-run's discarded
turns), forfeit the discounts of drop-outs, award discounts at game end; and which reports wait
until their turn is paid for (the rest of the books is credits.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

import sqlite_utils

from gm.core import ledger, victory
from gm.core.ledger import Entry
from gm.core.model import JSONObject, Outcome
from gm.crash import crash_point
from gm.services import credits, prizes
from gm.services.cycle import SeatChange
from gm.services.games import game_ruleset
from gm.services.seats import LEFT
from gm.store import ledger as books, outbox, records
from gm.store.records import GameRecord, SeatRecord

REVERSIBLE = ("turn charge", "discount award")


def settle_turn(
    db: sqlite_utils.Database,
    game: GameRecord,
    number: int,
    orders: Mapping[str, Mapping[str, Any]],
    before: JSONObject,
    after: JSONObject,
    outcome: Outcome | None,
    now: str,
    house: Callable[[], Mapping[str, Mapping[str, int]]] | None = None,
) -> None:
    """The books' part of a turn run, inside its transaction, right after the turn is stored.

    orders: the collected orders (seat code -> {"by": "player" or "robot", ...});
    before, after: the states the turn was played from and left;
    house: gives gm.toml's prize tables per ruleset (prizes.house_tables), asked only at the
    game's end, so a turn run reads gm.toml only when it needs it.
    """
    left = _charged_before_leaving(db, game, number)
    _reverse_discarded(db, game, number, now)
    rules = credits.policy(game)
    seats = [s for s in records.seats_of(db, game.id) if s.status == "active" or s.code in left]
    # A re-run turn is paid by who played it: not by a standby who took the seat over after it.
    takeovers = records.seat_takeovers(db, game.id)
    if rules["unpaid"] != "free":
        for seat in seats:
            if seat.code in orders and victory.still_playing(before, seat.code):
                credits.post(
                    db,
                    now,
                    left.get(seat.code)
                    or (seat.email if takeovers.get(seat.id, 0) <= number else records.player_at(db, seat.id, number)),
                    "turn charge",
                    credits=-ledger.TURN_PRICE,
                    game=game.name,
                    turn=number,
                    seat=seat.code,
                    memo=f"{game.name} turn {number}, seat {seat.code}",
                )
                crash_point("turn:mid-charge")
    if outcome is not None:
        award_discounts(db, game, number, after, outcome, now, house() if house else {})


def _charged_before_leaving(db: sqlite_utils.Database, game: GameRecord, number: int) -> dict[str, str]:
    """Seat code -> the account charged for turn `number` when it was first run, for each seat
    whose player has left since (dropped out in that turn or later, or resigned after it): a
    re-run of the turn charges it to them again, as that run did. Empty unless re-running."""
    gone = [s.code for s in records.seats_of(db, game.id) if s.status in LEFT]
    charges = {code: books.turn_charge(db, game.id, number, code) for code in gone}
    return {code: credits.entry(db, n).account for code, n in charges.items() if n is not None}


def _reverse_discarded(db: sqlite_utils.Database, game: GameRecord, number: int, now: str) -> None:
    """A re-run turn replaces turns from `number` on: their charges and awards are reversed
    (append-only books), then the turn is charged again. An award the account has lost since to a
    drop-out's forfeit is reversed only as far as the account still holds it (never below 0)."""
    numbers = books.standing_from(db, game.id, number, REVERSIBLE)
    for entry in (credits.entry(db, n) for n in numbers):
        taken = entry.discount
        gone = ""
        if entry.kind == "discount award":
            taken = ledger.reversal_takes(entry.discount, books.lowest_discount_since(db, entry.account, entry.number))
            if taken < entry.discount:
                gone = f"; {entry.discount - taken} of its {entry.discount} bonus turns were forfeited since"
        credits.post(
            db,
            now,
            entry.account,
            "adjustment",
            credits=-entry.credits,
            discount=-taken,
            game=entry.game,
            turn=entry.turn,
            seat=entry.seat,
            ref=entry.number,
            memo=f"reversal of entry {entry.number}: {game.name} turn {entry.turn} was discarded by gm turn rerun"
            + gone,
        )


def forfeit_drop_outs(db: sqlite_utils.Database, game: GameRecord, dropped: Iterable[SeatChange], now: str) -> None:
    """After the turn's NMR drop-outs (gm/services/cycle.py drop_outs gives a SeatChange for
    each): every account that dropped out forfeits its discounts (D-EMP-15)."""
    for seat, email in ((change.seat, change.left_email) for change in dropped):
        have = credits.account_position(db, email).discount
        if have:
            credits.post(
                db,
                now,
                email,
                "forfeit",
                discount=-have,
                game=game.name,
                seat=seat,
                memo=f"{game.name} seat {seat} dropped out (no orders): all {have} bonus turns forfeited",
            )


def award_discounts(
    db: sqlite_utils.Database,
    game: GameRecord,
    number: int,
    final: JSONObject,
    outcome: Outcome,
    now: str,
    house: Mapping[str, Mapping[str, int]],
) -> list[Entry]:
    """Rules D-EMP-15 and H-1 at game end, in every ruleset: what the game's prize table
    gives each seat still playing (drop-outs and resignations earn nothing), capped at 10."""
    table = prizes.game_table(game, house)
    earned = prizes.earned_at_end(game_ruleset(game)[0], final, outcome, records.seats_of(db, game.id), table)
    made = []
    for seat in records.seats_of(db, game.id):
        points = earned.get(seat.code, 0)
        if seat.status != "active" or points <= 0:
            continue
        have = credits.account_position(db, seat.email).discount
        given = ledger.award_for(have, points)
        if not given:
            continue
        capped = "" if given == points else f" ({points} earned; the cap is {ledger.MAX_DISCOUNT})"
        made.append(
            credits.post(
                db,
                now,
                seat.email,
                "discount award",
                discount=given,
                game=game.name,
                turn=number,
                seat=seat.code,
                memo=f"{game.name}: {given} bonus turns, seat {seat.code}{capped}",
            )
        )
    return made


# ----------------------------------------------------------------------------------------------
# Held reports and the credit lines of a report. The mail queue asks report_held before it
# sends a report; the PDF is rendered either way.


def _charge(db: sqlite_utils.Database, game: GameRecord, turn: int, code: str) -> Entry | None:
    """The turn's charge of the seat, when the account charged is the seat's present player's.
    A standby who took the seat over after that turn did not play it: its charge (the leaver's)
    neither holds their report nor shows its balance in it."""
    entry = _turn_charge(db, game, turn, code)
    if entry is None or ledger.account_key(entry.account) != ledger.account_key(
        records.seat_by_code(db, game, code).email
    ):
        return None
    return entry


def _turn_charge(db: sqlite_utils.Database, game: GameRecord, turn: int, code: str) -> Entry | None:
    number = books.turn_charge(db, game.id, turn, code)
    return credits.entry(db, number) if number is not None else None


def report_held(db: sqlite_utils.Database, game: GameRecord | str, turn: int, seat: str) -> bool:
    """Whether a seat's report of a turn waits until its account is paid up.

    Under the game's "hold" policy, an account whose balance is n below 0 has its n newest
    turn charges unpaid; the reports of those turns are held. Paying releases them, newest last.
    A report whose mail has gone out (queued or sent) is released for good: a later correction
    that leaves the account short again cannot take back what the player has.
    """
    game = records.game_by_name(db, game) if isinstance(game, str) else game
    if credits.policy(game)["unpaid"] != "hold":
        return False
    charge = _charge(db, game, turn, seat)
    if charge is None:
        return False
    short = -credits.account_position(db, charge.account).balance
    if short <= 0:
        return False
    if charge.number not in books.newest_charges(db, charge.account, short):
        return False
    return turn not in outbox.mailed_report_turns(db, game.id, seat)


def held_turns(
    db: sqlite_utils.Database, game: GameRecord, seat: SeatRecord, balance: int | None = None
) -> frozenset[int]:
    """The turns whose reports of this seat are held for credits, in one reading of the books (the
    portal asks on every page): the same turns report_held finds one by one. balance: the
    account's, when the caller has just read it."""
    if credits.policy(game)["unpaid"] != "hold" or seat.status == "robot":
        return frozenset()
    short = -(credits.account_position(db, seat.email).balance if balance is None else balance)
    if short <= 0:
        return frozenset()
    charges = (credits.entry(db, n) for n in books.newest_charges(db, seat.email, short))
    unpaid = {e.turn for e in charges if e.game == game.name and e.seat == seat.code and e.turn is not None}
    return frozenset(unpaid - outbox.mailed_report_turns(db, game.id, seat.code))


def report_credits(db: sqlite_utils.Database, game: GameRecord, turn: int, seat: str) -> dict[str, Any] | None:
    """The credit lines of a seat's report, as they stood right after that turn's charge (so a
    report rendered again later says the same); None for a robot seat, which has no books.

    low: fewer than LOW_CREDIT left; next_unpaid: not enough left to pay for the next turn;
    unpaid: this turn's own charge is not covered. None of them in a game whose turns are free."""
    charge = _charge(db, game, turn, seat)
    if charge is not None:
        balance, discount = charge.balance, charge.discount_after
    elif records.seat_by_code(db, game, seat).status == "robot":
        return None
    else:
        email = records.seat_by_code(db, game, seat).email
        position = credits.account_position(db, email)
        balance, discount = position.balance, position.discount
    rules = credits.policy(game)
    charged = rules["unpaid"] != "free"
    return {
        "balance": balance,
        "discount": discount,
        "charged": charge is not None,
        "low": balance < credits.LOW_CREDIT and charged,
        "next_unpaid": balance < ledger.TURN_PRICE and charged,
        "unpaid": balance < 0 and charged,
        "policy": rules["unpaid"],
        "bonus_from": ledger.QUALIFYING,
    }


def held_facts(db: sqlite_utils.Database, game: GameRecord | str, turn: int, seat: str) -> dict[str, Any] | None:
    """What a seat's held notice and the portal say of its report of this turn: the account, how
    many credits it is short, its discount (bonus turns on a purchase of QUALIFYING or more);
    None when the report is not held."""
    game = records.game_by_name(db, game) if isinstance(game, str) else game
    if not report_held(db, game, turn, seat):
        return None
    email = records.seat_by_code(db, game, seat).email
    position = credits.account_position(db, email)
    return {"email": email, "short": -position.balance, "discount": position.discount, "bonus_from": ledger.QUALIFYING}
