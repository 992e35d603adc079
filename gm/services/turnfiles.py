"""Turn files: checking one against its game, storing a submission, the order form."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from datetime import datetime, timedelta

import sqlite_utils

from gm.clock import Clock, iso
from gm.core import agreement
from gm.core.agreement import Vote
from gm.core.envelope import (
    Envelope,
    TurnFileError,
    decode_turn_file,
    read_envelope,
    wrap_envelope,
)
from gm.core.model import JSONObject, Order, Problem
from gm.core.press import PressDraft
from gm.core.ruleset import Ruleset
from gm.core.schedule import ScheduleError, parse_moment
from gm.core.warnings import meant_name, order_warnings, view_codes
from gm.errors import GMError
from gm.home import Home
from gm.seat_secrets import check_secret
from gm.services import votes
from gm.services.cycle import record_absence, zone_of
from gm.services.games import NotSeated, current_state, game_ruleset
from gm.services.press import PressResult, send_drafts
from gm.services.seats import LEFT
from gm.store import records
from gm.store.archive import TOO_LARGE, archive_bytes, note_bytes
from gm.store.database import atomic
from gm.store.games import turn_and_status
from gm.store.records import GameRecord
from gm.store.submissions import add_submission, uncount


@dataclass
class Checked:
    """A turn file read against a game: where it is for, and everything wrong with it.

    refusal: why the file as a whole is refused (no envelope, unknown game or seat, wrong secret,
    wrong turn, game over); None when it reached the order check.
    envelope_problems: what made the envelope unreadable, when that is the refusal, so that a
        channel that numbers lines otherwise (a mail, the portal) can say it again (refusal_at).
    problems: order problems, each with its line.
    warnings: what is probably a slip (a code close to a real one, a FINAL after END, what the
        ruleset warns of); the orders count all the same.
    press: the press messages in the file (sent by submit() once the seat's secret is checked).
    press_only: the file holds press and nothing else: it leaves the seat's orders alone.
    vote: the file's DRAW or CONCEDE (gm/core/agreement.py), secret from every other seat;
        None without one (NO DRAW, NO CONCEDE and no line alike).
    """

    encoding: str = ""
    game: GameRecord | None = None
    seat: records.SeatRecord | None = None
    orders: list[Order] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    refusal: str | None = None
    envelope_problems: tuple[Problem, ...] = ()
    final: bool = False
    absence: tuple[datetime, datetime] | None = None  # (start, end) as UTC datetimes, from an ABSENT line
    press: tuple[PressDraft, ...] = ()
    press_only: bool = False
    vote: Vote | None = None

    @property
    def accepted(self) -> bool:
        return self.refusal is None and not self.problems


class GameRows:
    """Where a check reads a game, its seats and the state it is played against: the database,
    each time. Mail intake passes one that keeps them while nobody else writes."""

    def __init__(self, db: sqlite_utils.Database):
        self.db = db

    def game(self, name: str) -> GameRecord | None:
        return records.find_game(self.db, name)

    def seats(self, game: GameRecord) -> list[records.SeatRecord]:
        return records.seats_of(self.db, game.id)

    def state(self, game: GameRecord) -> JSONObject:
        return current_state(self.db, game)

    def codes(self, game: GameRecord, seat: str, ruleset: Ruleset, state: JSONObject) -> frozenset[str]:
        """Every code the seat's view of the state names (gm.core.warnings.view_codes), for the
        "did you mean" of a line in trouble."""
        return frozenset(view_codes(ruleset.view(state, seat)))


def every_game(db: sqlite_utils.Database) -> Callable[[], list[str]]:
    """near() for the GM's own commands (gm submit, gm orders check): every game's name."""
    return lambda: [game.name for game in records.all_games(db)]


def unknown_game(name: str, near: Iterable[str]) -> str:
    """The refusal of a turn file (or a request line) whose GAME line names no game, with the
    names of `near` one slip away (only those the sender may be told of)."""
    meant = meant_name(name, near)
    return f"unknown game '{name}' (check the GAME line{'; ' + meant if meant else ''})"


def check_turn_file(
    db: sqlite_utils.Database,
    home: Home,
    data: bytes,
    secret_check: Callable[[str, str], bool] = check_secret,
    rows: GameRows | None = None,
    known: tuple[str, Envelope] | None = None,
    max_bytes: int | None = None,
    near: Callable[[], Iterable[str]] = tuple,
) -> Checked:
    """Read a turn file and check it against its game's current state; never raises for bad input.

    secret_check(secret, stored hash): mail intake passes one that remembers secrets it verified.
    rows: where the game, seats and state are read (default: the database).
    known: (text, its envelope) the caller has read already; used only when `data` decodes to
    that very text, so the envelope is not read twice.
    max_bytes: [submissions] max_bytes, when the caller has just read it (submit: gm.toml once a file).
    near(): the names of the games whoever sent the file may be offered when its GAME line names
    no game ("did you mean"): a mail's sender's own games, every game for the GM; none by default.
    """
    rows = rows or GameRows(db)
    checked = Checked()
    if max_bytes is None:
        max_bytes = home.setting("submissions", "max_bytes", 1_000_000)
    try:
        text, checked.encoding = decode_turn_file(data, max_bytes)
    except TurnFileError as exc:
        checked.refusal = str(exc)
        return checked
    envelope = known[1] if known is not None and known[0] == text else read_envelope(text)
    if not envelope.ok:
        checked.envelope_problems = tuple(envelope.problems)
        checked.refusal = refusal_at(checked, lambda p: p)
        return checked
    game = checked.game = rows.game(envelope.game or "")  # an envelope that is ok has a GAME line
    if game is None:
        checked.refusal = unknown_game(envelope.game or "", near())
        return checked
    seat = next((s for s in rows.seats(game) if s.code == envelope.player), None)
    if seat is None:
        checked.refusal = f"game '{game.name}' has no player '{envelope.player}' (check the PLAYER line)"
        return checked
    if not secret_check(envelope.password or "", seat.secret_hash):
        checked.refusal = f"wrong password for player {seat.code} of '{game.name}'"
        return checked
    checked.seat = seat
    checked.press, checked.press_only = envelope.press, envelope.press_only
    if checked.press_only:
        return checked  # no orders to check: the press goes or is refused message by message
    if game.status == "over":
        checked.refusal = f"game '{game.name}' is over; it takes no more orders"
        return checked
    if seat.status in LEFT:  # its secret is the leaver's still: it must not take the seat back
        checked.refusal = (
            f"player {seat.code} of '{game.name}' has {seat.status}: the seat takes no more orders from its "
            "player, and is played by the game's rules for missed turns"
        )
        return checked
    if envelope.turn is not None and envelope.turn != game.turn:
        when = "has already been run" if envelope.turn < game.turn else "is not being collected yet"
        checked.refusal = (
            f"these orders are for turn {envelope.turn}, which {when}; '{game.name}' is collecting turn {game.turn}"
        )
        return checked
    try:
        state = rows.state(game)
    except NotSeated as exc:
        checked.refusal = (
            f"game '{game.name}' cannot take orders yet: it is still being seated ({exc.reason}); "
            "send them again once the game has started"
        )
        return checked
    ruleset, _ = game_ruleset(game)
    checked.orders, parse_problems = ruleset.parse_orders(list(envelope.lines))
    checked.problems = list(parse_problems) + list(ruleset.check_orders(state, seat.code, checked.orders))
    if envelope.vote is not None:
        checked.vote = check_vote(
            game, rows.seats(game), ruleset.knocked_out(state), seat, envelope.vote, checked.problems
        )
    checked.problems.sort(key=lambda p: p.line)
    checked.warnings = sorted(
        list(envelope.warnings)
        + order_warnings(
            ruleset,
            state,
            seat.code,
            envelope.lines,
            checked.orders,
            checked.problems,
            lambda: rows.codes(game, seat.code, ruleset, state),
        ),
        key=lambda p: p.line,
    )
    checked.final = envelope.final
    if envelope.absence:
        checked.absence = _absence(game, envelope.absence, checked.problems)
    return checked


def check_vote(
    game: GameRecord,
    seats: list[records.SeatRecord],
    out: list[str],
    seat: records.SeatRecord,
    line: tuple[int, str, str],
    problems: list[Problem],
) -> Vote | None:
    """A vote line checked against the game's rule for it and its seats (a problem at its line
    when the game takes no such vote, or names no seat it could be conceded to); in the words
    of agreement.check_line, which a player's offline check uses too."""
    checked = agreement.check_line(votes.ballot_of(game, seats, out), seat.code, line)
    if isinstance(checked, Problem):
        problems.append(checked)
        return None
    return checked


def _absence(
    game: GameRecord, absence: tuple[int, str, str], problems: list[Problem]
) -> tuple[datetime, datetime] | None:
    """An ABSENT line's dates in the game's time zone; the last day counts whole."""
    line, first, last = absence
    try:
        start = parse_moment(first, zone_of(game))
        end = parse_moment(last, zone_of(game)) + timedelta(days=1)
    except ScheduleError as exc:
        problems.append(Problem(line, str(exc)))
        return None
    if end <= start:
        problems.append(Problem(line, "ABSENT: the last day away comes before the first"))
        return None
    return start, end


def refusal_at(checked: Checked, line_of: Callable[[Problem], Problem]) -> str | None:
    """The refusal, an unreadable envelope's problems told at the lines `line_of` gives them
    (the line of what the player sent)."""
    if not checked.envelope_problems:
        return checked.refusal
    return "; ".join(describe_problem(line_of(p)) for p in checked.envelope_problems)


def describe_problem(problem: Problem) -> str:
    return f"line {problem.line}: {problem.message}" if problem.line else problem.message


@dataclass(frozen=True)
class Receipt:
    """What happened to a submission: archived as digest; stored (False when refused, and for
    a file of press only); replaced (an earlier valid submission no longer counts); the check
    itself; what became of each press message in it."""

    digest: str
    stored: bool
    replaced: bool
    checked: Checked
    press: tuple[PressResult, ...] = ()


def submit(
    db: sqlite_utils.Database,
    home: Home,
    clock: Clock,
    data: bytes,
    channel: str,
    source: str,
    sender: str | None = None,
    secret_check: Callable[[str, str], bool] = check_secret,
    rows: GameRows | None = None,
    known: tuple[str, Envelope] | None = None,
    writing: Callable[[], AbstractContextManager[None]] = nullcontext,
    archived: str | None = None,
    max_bytes: int | None = None,
    near: Callable[[], Iterable[str]] = tuple,
) -> Receipt:
    """Archive first, then check, then store: the last valid submission per seat counts.

    writing(): held around the write transaction only; the portal's worker processes pass a lock
    they share, so writers queue on it instead of sleeping in SQLite's busy timeout.
    archived: the SHA-256 the caller archived `data` under a moment ago, and forced to disk (mail
    intake's reader): when it is that of `data`, the file is not written or touched again.
    A file larger than [submissions] max_bytes is refused, and only a note of it is archived.
    max_bytes: [submissions] max_bytes, when the caller has read it (mail intake: once a batch).
    near(): the games a GAME line naming none may be corrected to (check_turn_file)."""
    if max_bytes is None:
        max_bytes = home.setting("submissions", "max_bytes", 1_000_000)
    if len(data) > max_bytes:
        digest = note_bytes(home.archive, data, channel=channel, sender=sender or source, reason=TOO_LARGE)
    elif archived is not None and archived == hashlib.sha256(data).hexdigest():
        digest = archived
    else:
        digest = archive_bytes(home.archive, data)
    checked = check_turn_file(db, home, data, secret_check, rows, known, max_bytes, near)
    game, seat = checked.game, checked.seat
    if game is None or seat is None:  # not the seat's (no envelope, unknown seat, wrong secret): nothing at all
        return Receipt(digest, False, False, checked)
    if checked.refusal is not None or checked.press_only:  # no orders to store: the press goes on its own
        if not checked.press:
            return Receipt(digest, False, False, checked)
        with writing(), atomic(db):
            press = _send_press(db, home, clock, game, seat, checked, channel, source, digest)
        return Receipt(digest, False, False, checked, press)
    replaced = False
    with writing(), atomic(db):
        # The turn may have run between the check and this transaction.
        if turn_and_status(db, game.id) != (game.turn, game.status):
            checked.refusal = f"turn {game.turn} of '{game.name}' was run while these orders were being read"
        else:
            replaced = _store(db, clock, game, seat, checked, channel, source, sender, digest)
        # with the orders, or not at all
        press = _send_press(db, home, clock, game, seat, checked, channel, source, digest)
    return Receipt(digest, checked.refusal is None, replaced, checked, press)


def _store(
    db: sqlite_utils.Database,
    clock: Clock,
    game: GameRecord,
    seat: records.SeatRecord,
    checked: Checked,
    channel: str,
    source: str,
    sender: str | None,
    digest: str,
) -> bool:
    """Store a checked submission (inside the caller's transaction); whether it replaced an
    earlier valid one."""
    replaced = uncount(db, seat.id, game.turn) if checked.accepted else False
    add_submission(
        db,
        game_id=game.id,
        seat_id=seat.id,
        turn=game.turn,
        channel=channel,
        source=source,
        sender=sender,
        received=iso(clock.now()),
        archive=digest,
        encoding=checked.encoding,
        verdict="accepted" if checked.accepted else "rejected",
        problems=[p.to_json() for p in checked.problems],
        orders=[o.to_json() for o in checked.orders],
        final=checked.final,
        current=checked.accepted,
        vote=checked.vote.to_json() if checked.vote else None,
    )
    if checked.accepted and checked.absence:
        start, end = checked.absence
        record_absence(db, game, seat, start, end, "turn file", iso(clock.now()))
    return replaced


def _send_press(
    db: sqlite_utils.Database,
    home: Home,
    clock: Clock,
    game: GameRecord,
    seat: records.SeatRecord,
    checked: Checked,
    channel: str,
    source: str,
    digest: str,
) -> tuple[PressResult, ...]:
    """The file's press, once its seat and secret are known good (inside the caller's transaction)."""
    if not checked.press:
        return ()
    return tuple(send_drafts(db, home, clock, game, seat, checked.press, channel, source, digest))


def order_template(db: sqlite_utils.Database, game_name: str, seat_code: str) -> str:
    game = records.game_by_name(db, game_name)
    if game.status == "over":
        raise GMError(f"game '{game.name}' is over; there is no next turn to write orders for.")
    seat = records.seat_by_code(db, game, seat_code)
    return order_forms(db, game, [seat.code])[seat.code]


def order_forms(db: sqlite_utils.Database, game: GameRecord, codes: Iterable[str]) -> dict[str, str]:
    """The prefilled turn file of each seat in `codes` for the game's turn, by code: the game's
    state is read once for them all (a reminder goes to every seat without orders)."""
    ruleset, _ = game_ruleset(game)
    state = current_state(db, game)
    return {code: wrap_envelope(game.name, code, game.turn, ruleset.order_form(state, code)) for code in codes}
