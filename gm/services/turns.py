"""Turns: run under a lock in one transaction, verify by re-resolving, re-run after corrections."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

import sqlite_utils

from gm.clock import Clock, iso
from gm.core import prizes as core_prizes
from gm.core.envelope import TurnFileError, decode_turn_file, read_envelope
from gm.core.model import JSONObject, Order, TurnResult
from gm.core.ruleset import Ruleset, TurnSeeds
from gm.core.statehash import state_hash
from gm.crash import crash_point
from gm.errors import GMError
from gm.home import Home
from gm.services import cycle, discarded_reports, prizes, report_mails, seat_mail, starting, turn_charges, votes
from gm.services.game_settings import game_setting
from gm.services.games import ROBOT, current_state, game_ruleset, seat_infos
from gm.services.turnfiles import check_vote, describe_problem
from gm.store import outbox, records
from gm.store.archive import archive_bytes
from gm.store.database import transaction
from gm.store.games import set_knocked_out, set_turn
from gm.store.locks import file_lock
from gm.store.records import GameRecord
from gm.store.reports import discard_reports_from
from gm.store.submissions import add_submission, counting_after, uncount, uncount_after
from gm.store.turns import add_turn, discard_turns_from

ROBOT_SEAT = "robot seat"  # the "by" of a robot seat's orders: not an NMR, so it counts no missed turn


@contextmanager
def game_lock(home: Home, game: GameRecord) -> Iterator[None]:
    """One turn run per game at a time, across processes; released when the process ends."""
    with file_lock(home.locks / f"{game.name}.lock", wait=False) as held:
        if not held:
            raise GMError(
                f"another gm process is running a turn of '{game.name}' right now. "
                "Wait for it to finish, then try again."
            )
        yield


@dataclass(frozen=True)
class TurnSummary:
    """A resolved turn: its number, the state hash, which seats had no orders of their own
    (robot, repeated, held or absent), the label of what comes next, whether the game ended,
    and notices for the GM (drop-outs, standbys taking seats with their new secrets)."""

    game: str
    number: int
    state_hash: str
    without_orders: tuple[str, ...]
    label: str
    over: bool
    notices: tuple[str, ...] = ()

    @property
    def after(self) -> str:
        """What comes after the turn, as the GM reads it: the next turn's label, or the end (the
        label of a game over names a turn that never comes)."""
        return "the game is over" if self.over else f"next: {self.label}"


def collect_orders(
    db: sqlite_utils.Database, game: GameRecord, ruleset: Ruleset, state: JSONObject, turn: int
) -> dict[str, dict[str, Any]]:
    """Every seat's orders for a turn: its current valid submission; for an absent seat its
    standing orders; for a robot seat the robot's; otherwise the game's NMR policy (robot
    orders, repeat, or hold). A GM's correction (gm turn rerun) counts as a submission."""
    submitted = records.current_submissions(db, game.id, turn)
    seeds = TurnSeeds(game.seed, turn)
    policy = game_setting(game, "nmr-policy")
    absent = cycle.absent_at(db, game, cycle.moment(game.due))
    previous = records.turns_of(db, game.id, turn - 1)
    last = previous[0].orders if previous and previous[0].number == turn - 1 else {}
    collected: dict[str, dict[str, Any]] = {}
    for seat in records.seats_of(db, game.id):
        if seat.id in submitted:
            collected[seat.code] = {
                "by": "player",
                "submission": submitted[seat.id]["id"],
                "orders": submitted[seat.id]["orders"],
            }
            if submitted[seat.id]["vote"]:  # secret: the turn's orders are shown to no seat
                collected[seat.code]["vote"] = submitted[seat.id]["vote"]
            continue
        if seat.status == ROBOT:  # whatever the NMR policy: a robot seat is the robot's
            robot = ruleset.robot_orders(state, seat.code, seeds.rng(f"robot:{seat.code}"))
            collected[seat.code] = {"by": ROBOT_SEAT, "orders": [o.to_json() for o in robot]}
            continue
        by = "absent" if seat.code in absent and game_setting(game, "absence-policy") == "standing" else policy
        if by in ("absent", "repeat"):
            standing = [Order.from_json(o) for o in last.get(seat.code, {}).get("orders", [])]
            if standing and not ruleset.check_orders(state, seat.code, standing):
                collected[seat.code] = {"by": by, "orders": [o.to_json() for o in standing]}
                continue
        if by == "hold":
            collected[seat.code] = {"by": "hold", "orders": []}
            continue
        robot = ruleset.robot_orders(state, seat.code, seeds.rng(f"robot:{seat.code}"))
        collected[seat.code] = {"by": "robot" if by != "absent" else "absent", "orders": [o.to_json() for o in robot]}
    return collected


def resolve_stored(
    ruleset: Ruleset, state: JSONObject, orders: dict[str, dict[str, Any]], seed: int, turn: int
) -> TurnResult:
    by_seat = {code: [Order.from_json(o) for o in entry["orders"]] for code, entry in orders.items()}
    return ruleset.resolve(state, by_seat, TurnSeeds(seed, turn))


def early_run_refusal(db: sqlite_utils.Database, clock: Clock, game_name: str) -> str | None:
    """Why `gm turn run` without --now must not run the turn being collected yet, or None.

    Before the deadline, any active seat without orders stops it: running now would give it
    robot (or repeated) orders before its time. A game without a deadline (a manual schedule)
    has no "before": there the run stops when not one active seat has sent orders, which is what
    a second run right after the first (the README's advice after a crash) meets; it would play
    the next turn at once with robots for everyone, and charge them for it."""
    game = records.game_by_name(db, game_name)
    if game.status == "over":
        return None
    missing = _missing(db, game)
    due = cycle.moment(game.due)
    if due is not None:
        if due <= clock.now() or not missing:
            return None
        return (
            f"the deadline of '{game.name}' ({game.deadline}) has not passed and {len(missing)} seat(s) have "
            f"sent no orders: {', '.join(missing)}. Wait for them or the deadline, or run "
            "it now with --now (they play by the nmr-policy setting)."
        )
    active = [s for s in records.seats_of(db, game.id) if s.status == "active"]
    if not active or len(missing) < len(active):
        return None
    return (
        f"'{game.name}' has no deadline and none of its seats has sent orders for turn {game.turn}: "
        f"{', '.join(missing)}. Wait for their orders, or run it now with --now (they play by the "
        "nmr-policy setting)."
    )


def _missing(db: sqlite_utils.Database, game: GameRecord) -> list[str]:
    """The active seats without valid orders for the turn being collected, as 'CODE (name)'."""
    current = records.current_submissions(db, game.id, game.turn)
    return [
        f"{s.code} ({s.name})" for s in records.seats_of(db, game.id) if s.status == "active" and s.id not in current
    ]


def run_turn(db: sqlite_utils.Database, home: Home, clock: Clock, game_name: str) -> TurnSummary:
    """Resolve the turn being collected, as one transaction, under the game's lock. A game
    nobody started starts first (its seats fixed, its players told), so turn 1 never runs unseen."""
    game = records.game_by_name(db, game_name)
    with game_lock(home, game):
        started = starting.start_for_turn_one(db, home, clock, game_name)
        summary = _run_turn_locked(db, home, clock, game_name)
    return replace(summary, notices=(started.notice(), *summary.notices)) if started else summary


def _run_turn_locked(db: sqlite_utils.Database, home: Home, clock: Clock, game_name: str) -> TurnSummary:
    """The turn run in one transaction. Publishing the committed turn follows, outside
    (gm.services.publish)."""
    with transaction(db):
        summary = _resolve_turn(db, home, clock, game_name)
        crash_point("turn:before-commit")
    crash_point("turn:after-commit")
    return summary


def _resolve_turn(
    db: sqlite_utils.Database, home: Home, clock: Clock, game_name: str, rerun: bool = False
) -> TurnSummary:
    """The turn run, stage by stage, inside the caller's transaction: collect every seat's orders
    (the NMR policy for seats without), resolve, store, charge, move the schedule on and change
    seats."""
    game = records.game_by_name(db, game_name)  # re-read under the lock
    ruleset = _runnable(db, game)
    now = iso(clock.now())
    state = _state_before(db, game, ruleset, now)
    orders = collect_orders(db, game, ruleset, state, game.turn)
    result = resolve_stored(ruleset, state, orders, game.seed, game.turn)
    seats = records.seats_of(db, game.id)
    counted = votes.count(
        ruleset, result.state, orders, votes.voters(ruleset, result.state, seats), votes.rules_of(game)
    )
    result = replace(result, state=counted)
    outcome = ruleset.is_over(result.state)
    digest = _store_turn(
        db,
        game,
        game.turn,
        game.seed,
        ruleset.version,
        orders,
        [e.to_json() for e in result.events],
        result.state,
        now,
    )
    turn_charges.settle_turn(
        db, game, game.turn, orders, state, result.state, outcome, now, lambda: prizes.house_tables(home)
    )
    if rerun:  # the discarded turns' charges came back: reports they held may be paid for now
        report_mails.queue_released(db, home, clock)
    _move_on(db, clock, game, digest, outcome is not None, rerun, now)
    out = core_prizes.knocked_out(result.state, ruleset.knocked_out(result.state))
    set_knocked_out(db, game.id, sorted(out))
    notices = _seat_changes(db, home, clock, game, outcome is not None, now, out)
    without_orders = tuple(code for code, entry in orders.items() if entry["by"] not in ("player", ROBOT_SEAT))
    return TurnSummary(
        game.name,
        game.turn,
        digest,
        without_orders,
        ruleset.turn_label(result.state),
        outcome is not None,
        tuple(notices),
    )


def _runnable(db: sqlite_utils.Database, game: GameRecord) -> Ruleset:
    """The game's ruleset, once it is sure the game can run a turn: not over, made by the
    installed ruleset version, and seated to the ruleset's minimum."""
    if game.status == "over":
        raise GMError(f"game '{game.name}' is over; there are no more turns to run.")
    ruleset, scenario = game_ruleset(game)
    if ruleset.version != game.ruleset_version:
        raise GMError(
            f"game '{game.name}' was created with {ruleset.name} {game.ruleset_version}, "
            f"but {ruleset.version} is installed. Install the matching gm version to run it."
        )
    low, _ = ruleset.seat_limits(scenario)
    seated = len(records.seats_of(db, game.id))
    if seated < low:
        raise GMError(
            f"game '{game.name}' has {seated} seat(s); it needs at least {low}. Seat players with 'gm game join'."
        )
    return ruleset


def _state_before(db: sqlite_utils.Database, game: GameRecord, ruleset: Ruleset, now: str) -> JSONObject:
    """The state the turn starts from; before the first turn, the start is stored as turn 0."""
    state = current_state(db, game)
    if game.turn == 1 and not records.turns_of(db, game.id):
        _store_turn(db, game, 0, game.seed, ruleset.version, {}, [], state, now)
    return state


def _move_on(
    db: sqlite_utils.Database, clock: Clock, game: GameRecord, digest: str, over: bool, rerun: bool, now: str
) -> None:
    """The game collects the next turn (or is over), the audit log says so, and the schedule
    sets the next deadline."""
    set_turn(db, game.id, game.turn + 1, "over" if over else "running")
    records.audit(db, now, game.id, "turn run", {"turn": game.turn, "state_hash": digest})
    if not rerun or over:
        # A re-run replays a turn already played: the turn now collected keeps its deadline.
        cycle.advance_after_turn(db, game, clock.now(), over)


def _seat_changes(
    db: sqlite_utils.Database, home: Home, clock: Clock, game: GameRecord, over: bool, now: str, out: set[str]
) -> list[str]:
    """Drop-outs after too many missed turns (standbys take their seats, and the seats of
    players who left before), their discounts forfeited and their mails queued; notices for
    the GM. Seats knocked out (`out`) never drop."""
    if over:
        return []
    notices, dropped = cycle.drop_outs(db, game, game.turn, now, out)
    turn_charges.forfeit_drop_outs(db, game, dropped, now)
    handed, taken = cycle.standbys_take_left_seats(db, game, game.turn, now, out)
    seat_mail.queue_seat_changes(db, home, clock, game, dropped + taken)
    return notices + handed


def _store_turn(
    db: sqlite_utils.Database,
    game: GameRecord,
    number: int,
    seed: int,
    version: str,
    orders: dict[str, dict[str, Any]],
    events: list[JSONObject],
    state: JSONObject,
    now: str,
) -> str:
    digest = state_hash(state)
    add_turn(
        db,
        game.id,
        number,
        seed=seed,
        ruleset_version=version,
        orders=orders,
        events=events,
        state=state,
        state_hash=digest,
        resolved=now,
        published=now if number == 0 else None,
    )  # the start has nothing to publish
    return digest


def verify_turns(db: sqlite_utils.Database, game_name: str) -> tuple[int, list[str]]:
    """Re-resolve every stored turn from its stored orders; returns (turns checked, differences).

    Every stored state is held to its stored hash. Turns made by another version of the ruleset
    (a game older than the installed gm) cannot be made again, their start included: they are
    named once, as such, not reported as differing."""
    game = records.game_by_name(db, game_name)
    ruleset, scenario = game_ruleset(game)
    turns = records.turns_of(db, game.id)
    problems = [
        f"turn {t.number}: the stored state does not match its stored hash"
        for t in turns
        if state_hash(t.state) != t.state_hash
    ]
    other = [t for t in turns if t.ruleset_version != ruleset.version]
    if other:
        versions = ", ".join(sorted({t.ruleset_version for t in other}))
        which = f"turn {other[0].number}" if len(other) == 1 else f"turns {other[0].number} to {other[-1].number}"
        problems.append(
            f"{which}: made with {ruleset.name} {versions}, installed is {ruleset.version}; they "
            "cannot be made again (their stored states were checked against their hashes)"
        )
    if turns and turns[0].number == 0 and turns[0].ruleset_version == ruleset.version:
        start = ruleset.new_game(scenario, seat_infos(db, game, ruleset, scenario, 0), TurnSeeds(game.seed, 0))
        if state_hash(start) != turns[0].state_hash:
            problems.append("turn 0: the starting state differs from a new game made with the same seed")
    for before, turn in zip(turns, turns[1:]):
        if turn.ruleset_version != ruleset.version:
            continue
        again = resolve_stored(ruleset, before.state, turn.orders, turn.seed, turn.number)
        counted = votes.count_again(ruleset, again.state, turn.orders, turn.state)
        if state_hash(counted) != turn.state_hash:
            problems.append(
                f"turn {turn.number}: re-resolved state hash {state_hash(counted)[:12]} "
                f"differs from stored {turn.state_hash[:12]}"
            )
    return max(len(turns) - 1, 0), problems


@dataclass(frozen=True)
class Discard:
    """What `gm turn rerun GAME N` throws away, for the GM to see before it does: the turns from
    N on (N is run again at once, the later ones when their time comes), those whose reports
    players already got by mail, and the seats whose orders for a later turn stop counting."""

    game: str
    number: int
    turns: tuple[int, ...]
    mailed: tuple[int, ...]
    orders_of: tuple[str, ...]

    @property
    def later(self) -> tuple[int, ...]:
        """The turns after the one run again: played, and gone."""
        return tuple(t for t in self.turns if t > self.number)


def discards(db: sqlite_utils.Database, game_name: str, number: int) -> Discard:
    """What re-running turn `number` would discard; raises when there is no such turn to re-run."""
    game = records.game_by_name(db, game_name)
    if number < 1:
        raise GMError("turn 0 is the starting position; the first turn that can be re-run is 1.")
    records.turn_record(db, game, number)  # raises when there is no such turn
    return Discard(
        game.name,
        number,
        tuple(t.number for t in records.turns_of(db, game.id, number)),
        tuple(outbox.reports_sent_from(db, game.id, number)),
        tuple(counting_after(db, game.id, number)),
    )


def rerun_turn(
    db: sqlite_utils.Database,
    home: Home,
    clock: Clock,
    game_name: str,
    number: int,
    corrections: Sequence[tuple[str, bytes]] = (),
    reason: str = "",
) -> TurnSummary:
    """Discard turn `number` and every turn after it (kept in the audit log, with the GM's
    reason, which the re-run turn's report mails give), store the GM's corrected turn files for
    that turn, and resolve it again. Unsent mails about the discarded turns are cancelled."""
    game = records.game_by_name(db, game_name)
    with game_lock(home, game):
        game = records.game_by_name(db, game_name)
        discarded_reports.settle(db, home, game.id, game.name)  # a re-run before this one killed after its commit
        discards(db, game_name, number)  # raises for turn 0 or a turn not played
        now = iso(clock.now())
        try:
            fixes = [_gm_correction(db, home, game, number, source, data) for source, data in corrections]
        except GMError as exc:  # the CLI has said "turn N is run again": say it was not
            raise GMError(
                f"{exc} Turn {number} was not run again and nothing was changed: "
                "correct the file and run the command again."
            ) from exc
        with transaction(db):
            discarded = records.turns_of(db, game.id, number)
            records.audit(
                db,
                now,
                game.id,
                "turn rerun",
                {
                    "from_turn": number,
                    "reason": " ".join(reason.split()),
                    "discarded": [
                        {
                            "number": t.number,
                            "state_hash": t.state_hash,
                            "orders": t.orders,
                            "events": t.events,
                            "state": t.state,
                            "resolved": t.resolved,
                        }
                        for t in discarded
                    ],
                },
            )
            discard_turns_from(db, game.id, number)
            discard_reports_from(db, game.id, number)
            # Their unsent report mails would carry the new turn's files, and their notices speak
            # of reports and deadlines that are gone.
            outbox.cancel_from(db, game.id, number)
            # Orders sent for later turns answered a position that no longer exists.
            uncount_after(db, game.id, number)
            for seat_id, fix in fixes:
                uncount(db, seat_id, number)
                add_submission(db, **fix, received=now)
            set_turn(db, game.id, number, "running")
            # In the same transaction: a re-run killed half way has discarded nothing, and the GM
            # runs the same command again.
            summary = _resolve_turn(db, home, clock, game_name, rerun=True)
            # Before the commit: a kill after it leaves the note, and the next render moves the
            # discarded turns' reports as this re-run would have (discarded_reports.py).
            noted = discarded_reports.note(home, game.name, number, now)
            crash_point("turn:before-commit")
        crash_point("turn:after-commit")
        discarded_reports.move(home, game.name, number, now)
        noted.unlink()
        return summary


def _gm_correction(
    db: sqlite_utils.Database, home: Home, game: GameRecord, number: int, source: str, data: bytes
) -> tuple[int, dict[str, Any]]:
    """A GM's corrected turn file for an already-run turn: no password needed, checked against
    the state before that turn."""
    digest = archive_bytes(home.archive, data)
    try:
        text, encoding = decode_turn_file(data, home.setting("submissions", "max_bytes", 1_000_000))
    except TurnFileError as exc:
        raise GMError(f"{source}: {exc}.") from exc
    envelope = read_envelope(text)
    bad = [p for p in envelope.problems if "PASSWORD" not in p.message]
    if bad:
        raise GMError(f"{source}: " + "; ".join(describe_problem(p) for p in bad) + ".")
    if envelope.game != game.name:
        raise GMError(f"{source}: it is for game '{envelope.game}', not '{game.name}'.")
    seat = records.seat_by_code(db, game, envelope.player or "")
    ruleset, _ = game_ruleset(game)
    before = records.turn_record(db, game, number - 1).state
    orders, problems = ruleset.parse_orders(list(envelope.lines))
    problems = list(problems) + list(ruleset.check_orders(before, seat.code, orders))
    vote = None
    if envelope.vote is not None:  # the correction may carry the seat's vote, checked as the player's is
        seats = records.seats_of(db, game.id)
        vote = check_vote(game, seats, ruleset.knocked_out(before), seat, envelope.vote, problems)
    if problems:
        raise GMError(f"{source}: " + "; ".join(f"line {p.line}: {p.message}" for p in problems) + ".")
    return seat.id, {
        "game_id": game.id,
        "seat_id": seat.id,
        "turn": number,
        "channel": "gm",
        "source": source,
        "sender": None,
        "archive": digest,
        "encoding": encoding,
        "verdict": "accepted",
        "problems": [],
        "orders": [o.to_json() for o in orders],
        "final": True,
        "current": True,
        "vote": vote.to_json() if vote else None,
    }
