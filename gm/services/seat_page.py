"""What the portal shows a seat: its page (game, orders in, deadline in the player's zone, NMR
counts, credits, the versions it sent, its reports), the turn's view it is drawn from, and the
prefilled order form."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import sqlite_utils
from dateutil import parser as dateparser

from gm.clock import Clock
from gm.core.envelope import wrap_envelope
from gm.core.model import JSONObject
from gm.errors import GMError
from gm.home import Home
from gm.services.as_sent import as_sent
from gm.services.credits import account_position
from gm.services.games import current_state, game_ruleset
from gm.services.turn_charges import held_turns
from gm.services.turn_kits import write_kit
from gm.store import reports, submissions
from gm.store.archive import archived_path
from gm.store.records import GameRecord, SeatRecord
from gm.store.turns import seat_turns


@dataclass(frozen=True)
class Deadline:
    """A deadline as the player reads it: text in their zone (or as the GM wrote it when it
    does not parse), and whether it has passed."""

    text: str
    written: str
    passed: bool


def deadline_for(game: GameRecord, zone: str, clock: Clock) -> Deadline | None:
    """The turn's deadline in the player's zone: from the due time when the game has one, else
    from the deadline text; shown as written when that names no clear time."""
    written = game.deadline or game.due
    if not written:
        return None
    stamp = game.due or written
    try:
        tz = ZoneInfo(zone)
    except (ZoneInfoNotFoundError, ValueError):
        tz = ZoneInfo("UTC")
    moment = _moment(stamp)
    if moment is None:
        return Deadline(written, written, False)
    if moment.tzinfo is None:
        # "Friday 18:00" without a zone: converting it would be a guess.
        return Deadline(written, written, False)
    local = moment.astimezone(tz)
    text = f"{local:%a %d %b %Y, %H:%M} {local.tzname()} ({tz.key})"
    return Deadline(text, written, local <= clock.now())


@lru_cache(maxsize=1024)
def _moment(stamp: str) -> datetime | None:
    """dateutil's reading of a deadline (a datetime, which cannot change), or None."""
    try:
        return dateparser.parse(stamp)
    except (ValueError, OverflowError):
        return None


def nmr_counts(
    db: sqlite_utils.Database,
    game: GameRecord,
    seat_code: str,
    turns: list[tuple[int, str | None, int | None]] | None = None,
) -> tuple[int, int]:
    """(turns in a row up to the last one, turns in all) that the seat's orders came from the robot."""
    turns = seat_turns(db, game.id, seat_code) if turns is None else turns
    flags = [by == "robot" for _, by, _ in turns]
    in_a_row = 0
    for robot in reversed(flags):
        if not robot:
            break
        in_a_row += 1
    return in_a_row, sum(flags)


HELD_FORM = "# Your last report is held until it is paid for; with it comes this form, filled in."
SEAT_PAGE_VERSIONS = 10  # the newest versions the seat page shows; /history shows every one


class History(list[dict[str, Any]]):
    """Versions a seat sent (dicts): the `newest` newest first, then maybe the one that counts for
    the current turn; `total`, how many the seat sent in all."""

    newest: int = 0
    total: int = 0


def submission_history(
    db: sqlite_utils.Database,
    home: Home,
    game: GameRecord,
    seat: SeatRecord,
    turns: list[tuple[int, str | None, int | None]] | None = None,
    limit: int | None = None,
) -> History:
    """The versions the seat sent, newest first, each saying whether it counts (or counted) and
    what it was, as the player knows it (`sent`: gm.services.as_sent).

    limit: only the `limit` newest (None: every one), and after them the version that counts for
    the game's current turn when it is older than those. Only the rows shown are read; `total`
    on the list says how many versions there are in all."""
    turns = seat_turns(db, game.id, seat.code) if turns is None else turns
    counted = {number: submission for number, _, submission in turns}
    rows = submissions.versions(db, seat.id, limit)
    total = len(rows)
    if limit is not None and total >= limit:  # there may be more: count them
        total = submissions.version_count(db, seat.id)
    history = History(_history_row(db, home, row, counted, game) for row in rows)
    history.newest, history.total = len(history), total
    if total > len(history) and not any(h["counts"] and h["turn"] == game.turn for h in history):
        # The version that counts for this turn is older than those shown: add it after them.
        if game.turn in counted:  # a turn run: the submission that counted, if one did (not an NMR)
            chosen = counted[game.turn]
            extra = submissions.version(db, seat.id, chosen) if chosen is not None else None
        else:
            extra = submissions.counting_version(db, seat.id, game.turn)
        if extra is not None:
            history.append(_history_row(db, home, extra, counted, game))
    return history


def _history_row(
    db: sqlite_utils.Database, home: Home, row: submissions.Version, counted: Mapping[int, int | None], game: GameRecord
) -> dict[str, Any]:
    if row.turn in counted:
        counts = counted[row.turn] == row.id
    else:
        counts = row.current and row.turn == game.turn
    return {
        "id": row.id,
        "turn": row.turn,
        "channel": row.channel,
        "sent": as_sent(db, home.archive, row),
        "received": row.received,
        "verdict": row.verdict,
        "problems": _problem_count(row.problems),
        "final": row.final,
        "counts": counts,
        "current": row.current,
    }


@lru_cache(maxsize=4096)
def _problem_count(problems: str) -> int:
    return len(json.loads(problems))


def seat_reports(
    db: sqlite_utils.Database, game: GameRecord, seat: SeatRecord, held: frozenset[int] = frozenset()
) -> list[dict[str, Any]]:
    """The seat's reports, newest first: turn, when rendered, and whether it is held for credits."""
    return [
        {"turn": turn, "rendered": rendered, "held": turn in held}
        for turn, rendered in reports.seat_reports(db, game.id, seat.code)
    ]


def visible_turns(rows: list[dict[str, Any]]) -> list[int]:
    """The turns of seat_reports' rows the seat may read now (not held for credits), newest first."""
    return [row["turn"] for row in rows if not row["held"]]


def report_file(
    db: sqlite_utils.Database, home: Home, game: GameRecord, seat: SeatRecord, turn: int, kind: str
) -> Path | None:
    """The seat's own report file of a turn, or None; the path comes from the reports table and
    must lie inside the home's reports folder."""
    if kind not in ("pdf", "json", "html"):
        return None
    files = reports.report_files(db, game.id, turn, seat.code)
    if files is None:
        return None
    chosen = files.pdf if kind == "pdf" else files.json
    if kind == "html":  # the turn kit, made from the JSON when asked for
        if not (home.root / files.json).resolve().is_relative_to(home.reports.resolve()):
            return None
        chosen = write_kit(home, files.json).path
    path = (home.root / chosen).resolve()
    if not path.is_relative_to(home.reports.resolve()) or not path.is_file():
        return None
    return path


def seat_page_facts(
    db: sqlite_utils.Database,
    home: Home,
    game: GameRecord,
    seat: SeatRecord,
    zone: str,
    clock: Clock,
    view: TurnView | None,
) -> dict[str, Any]:
    """Everything the seat's page shows, from what that seat may know and nothing more.

    What `gm game show` has for the seat (orders in, final, score, title, turn label, outcome),
    from the turn's cached view and the seat's own rows, not from the whole game's.
    view: the turn's view (make_turn_view; the portal keeps one per turn, gm/web/turn_views.py),
    None while the game is too short of seats to start."""
    if view is None:
        raise GMError(f"game '{game.name}' is waiting for the GM to seat more players; come back later.")
    turns = seat_turns(db, game.id, seat.code)
    history = submission_history(db, home, game, seat, turns, limit=SEAT_PAGE_VERSIONS)
    in_a_row, total = nmr_counts(db, game, seat.code, turns)
    books = credits_for(db, seat.email)
    held = held_turns(db, game, seat, books["balance"])
    this_turn = [h for h in history if h["turn"] == game.turn]
    counting = next((h for h in this_turn if h["current"]), None)
    if game.status == "over":
        orders = "over"
    elif counting is not None:
        orders = "accepted"
    elif any(h["verdict"] == "rejected" for h in this_turn):
        orders = "rejected"
    elif len(history) < history.total:  # some of this turn's versions may not be among those shown
        orders = "rejected" if submissions.rejected_in_turn(db, seat.id, game.turn) else "none"
    else:
        orders = "none"
    return {
        "game": {
            "name": game.name,
            "title": view.title,
            "status": game.status,
            "turn": game.turn,
            "turn_label": view.turn_label,
        },
        "seat": {
            "code": seat.code,
            "name": seat.name,
            "orders": orders,
            "final": bool(counting and counting["final"]),
            # The score now is what the newest report tells: none while that report is held.
            "score": None if game.turn - 1 in held else view.scores.get(seat.code, 0),
        },
        "deadline": deadline_for(game, zone, clock),
        "nmr": {"in_a_row": in_a_row, "total": total},
        "credits": books,
        "held": sorted(held),
        "history": history,
        "history_newest": history.newest,
        "history_total": history.total,
        "reports": seat_reports(db, game, seat, held),
        "outcome": view.outcome,
    }


@dataclass
class TurnView:
    """What cannot change while a turn is collected, as `gm game show` derives it from the state:
    title, turn label, scores, outcome, and each seat's blank order form (made on first use)."""

    state: JSONObject
    title: str
    turn_label: str
    scores: dict[str, int]
    outcome: JSONObject | None
    forms: dict[str, tuple[str, ...]] = field(default_factory=dict)


def make_turn_view(db: sqlite_utils.Database, game: GameRecord) -> TurnView | None:
    """The view of the turn the game is collecting, made from its current state; None while
    too few seats to start. gm/web/turn_views.py keeps them, one per turn, for the portal."""
    ruleset, _ = game_ruleset(game)
    try:
        state = current_state(db, game)
    except GMError:
        return None  # nobody seated yet, or too few players for this scenario to start
    outcome = ruleset.is_over(state)
    return TurnView(
        state=state,
        title=state.get("title", ruleset.title) if isinstance(state, dict) else ruleset.title,
        turn_label=ruleset.turn_label(state),
        scores=ruleset.scores(state),
        outcome=outcome.to_json() if outcome else None,
    )


def credits_for(db: sqlite_utils.Database, email: str) -> dict[str, int]:
    """The player's turn credits and discount (bonus turns per 10 bought), from the ledger."""
    position = account_position(db, email)
    return {"balance": position.balance, "discount": position.discount}


def order_form(game: GameRecord, seat: SeatRecord, view: TurnView | None, held: bool = False) -> str:
    """The prefilled order form (as `turnfiles.order_template` makes it), or "" when the game is
    over or cannot start yet (view None). view: the turn's view; its forms keep each seat's form
    body once made. held: the seat's last report is held for credits, and the form prefilled from
    the position it tells of is held with it: the envelope only."""
    if game.status == "over" or view is None:
        return ""
    if held:
        return wrap_envelope(game.name, seat.code, game.turn, [HELD_FORM])
    body = view.forms.get(seat.code)
    if body is None:
        ruleset, _ = game_ruleset(game)
        body = view.forms[seat.code] = tuple(ruleset.order_form(view.state, seat.code))
    return wrap_envelope(game.name, seat.code, game.turn, list(body))


def current_archived(db: sqlite_utils.Database, home: Home, game: GameRecord, seat: SeatRecord) -> bytes | None:
    """The raw bytes of the submission that counts now for the seat, from the archive."""
    digest = submissions.current_archive(db, seat.id, game.turn)
    if digest is None:
        return None
    path = archived_path(home.archive, digest)
    return path.read_bytes() if path.is_file() else None
