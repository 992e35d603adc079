"""What the player portal shows a seat and how it turns a form into a turn file for submit()."""
from __future__ import annotations

import json
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import sqlite_utils
from dateutil import parser as dateparser

from gm.clock import Clock
from gm.core.envelope import TurnFileError, clean_line, decode_turn_file, read_envelope, wrap_envelope
from gm.errors import GMError
from gm.home import Home
from gm.services.games import current_state, game_ruleset
from gm.services.gameview import game_facts
from gm.services.turnfiles import GameRows
from gm.store import records
from gm.store.archive import archived_path
from gm.store.records import GameRecord, SeatRecord

PLACEHOLDER = "<your secret>"


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
def _moment(stamp: str):
    """dateutil's reading of a deadline (a datetime, which cannot change), or None."""
    try:
        return dateparser.parse(stamp)
    except (ValueError, OverflowError):
        return None


def _seat_turns(db: sqlite_utils.Database, game: GameRecord, seat_code: str) -> list[tuple[int, str | None, int | None]]:
    """(turn, who gave the seat's orders, the submission that counted) for every turn run.

    SQLite reads the seat's two values out of each turn's orders JSON, so a long game's states
    and events are not loaded and parsed for every page."""
    who, which = f'$."{seat_code}".by', f'$."{seat_code}".submission'
    return db.execute("SELECT number, json_extract(orders, ?), json_extract(orders, ?) FROM turns "
                      "WHERE game_id = ? AND number >= 1 ORDER BY number", [who, which, game.id]).fetchall()


def nmr_counts(db: sqlite_utils.Database, game: GameRecord, seat_code: str,
               turns: list | None = None) -> tuple[int, int]:
    """(turns in a row up to the last one, turns in all) that the seat's orders came from the robot."""
    turns = _seat_turns(db, game, seat_code) if turns is None else turns
    flags = [by == "robot" for _, by, _ in turns]
    in_a_row = 0
    for robot in reversed(flags):
        if not robot:
            break
        in_a_row += 1
    return in_a_row, sum(flags)


SEAT_PAGE_VERSIONS = 10  # the newest versions the seat page shows; /history shows every one

_HISTORY_COLUMNS = "id, turn, channel, source, received, verdict, problems, final, current"


class History(list):
    """Versions a seat sent (dicts): the `newest` newest first, then maybe the one that counts for
    the current turn; `total`, how many the seat sent in all."""

    newest: int = 0
    total: int = 0


def submission_history(db: sqlite_utils.Database, game: GameRecord, seat: SeatRecord,
                       turns: list | None = None, limit: int | None = None) -> History:
    """The versions the seat sent, newest first, each saying whether it counts (or counted).

    limit: only the `limit` newest (None: every one), and after them the version that counts for
    the game's current turn when it is older than those. Only the rows shown are read; `total`
    on the list says how many versions there are in all."""
    turns = _seat_turns(db, game, seat.code) if turns is None else turns
    counted = {number: submission for number, _, submission in turns}
    sql = f"SELECT {_HISTORY_COLUMNS} FROM submissions WHERE seat_id = ? ORDER BY turn DESC, id DESC"
    if limit is None:
        rows = db.execute(sql, [seat.id]).fetchall()
        total = len(rows)
    else:
        rows = db.execute(sql + " LIMIT ?", [seat.id, limit]).fetchall()
        total = len(rows)
        if total >= limit:  # there may be more: count them on the (seat_id, turn) index
            total = db.execute("SELECT COUNT(*) FROM submissions WHERE seat_id = ?", [seat.id]).fetchone()[0]
    history = History(_history_row(row, counted, game) for row in rows)
    history.newest, history.total = len(history), total
    if total > len(history) and not any(h["counts"] and h["turn"] == game.turn for h in history):
        # The version that counts for this turn is older than those shown: add it after them.
        if game.turn in counted:
            which, values = "id = ?", [counted[game.turn]]
        else:
            which, values = "turn = ? AND current = 1", [game.turn]
        extra = db.execute(f"SELECT {_HISTORY_COLUMNS} FROM submissions WHERE seat_id = ? AND {which}",
                           [seat.id, *values]).fetchone()
        if extra is not None:
            history.append(_history_row(extra, counted, game))
    return history


def _history_row(row, counted: dict, game: GameRecord) -> dict:
    sid, turn, channel, source, received, verdict, problems, final, current = row
    if turn in counted:
        counts = counted[turn] == sid
    else:
        counts = bool(current) and turn == game.turn
    return {"id": sid, "turn": turn, "channel": channel, "source": source, "received": received,
            "verdict": verdict, "problems": _problem_count(problems), "final": bool(final),
            "counts": counts, "current": bool(current)}


def _rejected_in_turn(db: sqlite_utils.Database, seat: SeatRecord, turn: int) -> bool:
    return db.execute("SELECT EXISTS (SELECT 1 FROM submissions WHERE seat_id = ? AND turn = ? "
                      "AND verdict = 'rejected')", [seat.id, turn]).fetchone()[0] == 1


@lru_cache(maxsize=4096)
def _problem_count(problems: str) -> int:
    return len(json.loads(problems))


def seat_reports(db: sqlite_utils.Database, game: GameRecord, seat: SeatRecord) -> list[dict]:
    rows = db.execute("SELECT turn, rendered FROM reports WHERE game_id = ? AND seat = ? ORDER BY turn DESC",
                      [game.id, seat.code]).fetchall()
    return [{"turn": turn, "rendered": rendered} for turn, rendered in rows]


def report_file(db: sqlite_utils.Database, home: Home, game: GameRecord, seat: SeatRecord, turn: int,
                kind: str) -> Path | None:
    """The seat's own report file of a turn, or None; the path comes from the reports table and
    must lie inside the home's reports folder."""
    if kind not in ("pdf", "json"):
        return None
    row = db.execute(f"SELECT {kind} FROM reports WHERE game_id = ? AND seat = ? AND turn = ?",
                     [game.id, seat.code, turn]).fetchone()
    if row is None:
        return None
    path = (home.root / row[0]).resolve()
    if not path.is_relative_to(home.reports.resolve()) or not path.is_file():
        return None
    return path


def seat_page_facts(db: sqlite_utils.Database, game: GameRecord, seat: SeatRecord, zone: str,
                    clock: Clock, view: TurnView | None = None) -> dict:
    """Everything the seat's page shows, from what that seat may know and nothing more.

    What `gm game show` has for the seat (orders in, final, score, title, turn label, outcome),
    from the turn's cached view and the seat's own rows, not from the whole game's.
    view: the game's turn_view when the caller has it already (the page's order form needs it too)."""
    view = view if view is not None else turn_view(db, game)
    if view is None:
        raise GMError(f"game '{game.name}' is waiting for the GM to seat more players; come back later.")
    turns = _seat_turns(db, game, seat.code)
    history = submission_history(db, game, seat, turns, limit=SEAT_PAGE_VERSIONS)
    in_a_row, total = nmr_counts(db, game, seat.code, turns)
    this_turn = [h for h in history if h["turn"] == game.turn]
    counting = next((h for h in this_turn if h["current"]), None)
    if game.status == "over":
        orders = "over"
    elif counting is not None:
        orders = "accepted"
    elif any(h["verdict"] == "rejected" for h in this_turn):
        orders = "rejected"
    elif len(history) < history.total:  # some of this turn's versions may not be among those shown
        orders = "rejected" if _rejected_in_turn(db, seat, game.turn) else "none"
    else:
        orders = "none"
    return {
        "game": {"name": game.name, "title": view.title, "status": game.status, "turn": game.turn,
                 "turn_label": view.turn_label},
        "seat": {"code": seat.code, "name": seat.name, "orders": orders,
                 "final": bool(counting and counting["final"]), "score": view.scores.get(seat.code, 0)},
        "deadline": deadline_for(game, zone, clock),
        "nmr": {"in_a_row": in_a_row, "total": total},
        "credits": credits_for(db, seat.email),
        "history": history,
        "history_newest": history.newest,
        "history_total": history.total,
        "reports": seat_reports(db, game, seat),
        "outcome": view.outcome,
    }


@dataclass
class TurnView:
    """What cannot change while a turn is collected, as `gm game show` derives it from the state:
    title, turn label, scores, outcome, and each seat's blank order form (made on first use)."""

    state: dict
    title: str
    turn_label: str
    scores: dict
    outcome: dict | None
    forms: dict = field(default_factory=dict)


_VIEWS: OrderedDict = OrderedDict()
_VIEWS_LOCK = threading.Lock()
_VIEWS_SIZE = 256


def _view_key(db: sqlite_utils.Database, game: GameRecord, seats: list[SeatRecord] | None = None) -> tuple:
    """What the state of the turn being collected depends on, read cheaply.

    Once a turn has run, the state is the last stored one, named by its content hash. Before
    that it is the ruleset's new game, made from the scenario, the seed and the seats (a join
    changes it). A turn run, a re-run or a join therefore gives a new key at once.
    seats: the game's seats when the caller read them in this same request."""
    row = db.execute("SELECT number, state_hash FROM turns WHERE game_id = ? ORDER BY number DESC LIMIT 1",
                     [game.id]).fetchone()
    if row is not None:
        return (game.id, game.ruleset, "stored", row[0], row[1])
    seats = tuple((s.code, s.name) for s in (records.seats_of(db, game.id) if seats is None else seats))
    # (The installed ruleset's version is the same for the life of the process.)
    return (game.id, game.ruleset, "new", game.scenario_name, game.scenario_text, game.seed, seats)


def turn_view(db: sqlite_utils.Database, game: GameRecord, seats: list[SeatRecord] | None = None) -> TurnView | None:
    """The cached view of the turn the game is collecting; None while too few seats to start.

    Shared by the server's threads, read only: nothing may change what it holds.
    seats: the game's seats when the caller read them in this same request (see _view_key)."""
    key = _view_key(db, game, seats)
    with _VIEWS_LOCK:
        view = _VIEWS.get(key)
        if view is not None:
            _VIEWS.move_to_end(key)
            return view
    ruleset, _ = game_ruleset(game)
    try:
        state = current_state(db, game)
    except GMError:
        return None  # nobody seated yet, or too few players for this scenario to start
    outcome = ruleset.is_over(state)
    view = TurnView(state=state,
                    title=state.get("title", ruleset.title) if isinstance(state, dict) else ruleset.title,
                    turn_label=ruleset.turn_label(state), scores=ruleset.scores(state),
                    outcome=outcome.to_json() if outcome else None)
    with _VIEWS_LOCK:
        _VIEWS[key] = view
        while len(_VIEWS) > _VIEWS_SIZE:
            _VIEWS.popitem(last=False)
    return view


def credits_for(db: sqlite_utils.Database, email: str) -> dict:
    """The player's turn credits and discount (bonus turns per 10 bought), from the ledger."""
    from gm.services.credits import account_position

    position = account_position(db, email)
    return {"balance": position.balance, "discount": position.discount}


def _facts(db: sqlite_utils.Database, game: GameRecord) -> dict | None:
    """game_facts, or None while the game has too few seats to make its starting state."""
    facts = game_facts(db, game.name)
    return facts if facts["state"] is not None else None


class CachedRows(GameRows):
    """What `turnfiles` checks a portal upload against: the state from the turn's cached view
    (the same state, read once per turn); the game and seats from the database, or, with `known`
    (game, its seats), as the request of a signed-in seat read them to see who it is.

    Never kept past the request. A turn run in between is still caught: the state comes from
    the turn's view, keyed on the turns table as it is now, and submit() compares the game's turn
    and status again inside its write transaction."""

    def __init__(self, db: sqlite_utils.Database, known: tuple[GameRecord, list[SeatRecord]] | None = None):
        super().__init__(db)
        self.known = known

    def game(self, name: str) -> GameRecord | None:
        return self.known[0] if self.known and name == self.known[0].name else super().game(name)

    def seats(self, game: GameRecord) -> list[SeatRecord]:
        known = self._seats_known(game)
        return known if known is not None else super().seats(game)

    def state(self, game: GameRecord) -> dict:
        view = turn_view(self.db, game, self._seats_known(game))
        return view.state if view is not None else super().state(game)  # the latter says why not

    def _seats_known(self, game: GameRecord) -> list[SeatRecord] | None:
        return self.known[1] if self.known and game.id == self.known[0].id else None


def order_form(db: sqlite_utils.Database, game: GameRecord, seat: SeatRecord, view: TurnView | None = None) -> str:
    """The prefilled order form (as `turnfiles.order_template` makes it), or "" when the game is
    over or cannot start yet. view: the game's turn_view when the caller has it already."""
    if game.status == "over":
        return ""
    view = view if view is not None else turn_view(db, game)
    if view is None:
        return ""
    body = view.forms.get(seat.code)
    if body is None:
        ruleset, _ = game_ruleset(game)
        body = view.forms[seat.code] = tuple(ruleset.order_form(view.state, seat.code))
    return wrap_envelope(game.name, seat.code, game.turn, list(body))


def gm_overview(db: sqlite_utils.Database) -> list[dict]:
    """Every game as the GM sees it (game_facts without the state): seats in, missing, final."""
    overview = []
    for game in records.all_games(db):
        facts = _facts(db, game) or {
            "name": game.name, "title": "waiting for players", "status": game.status, "turn": game.turn,
            "turn_label": "too few seats to start", "deadline": game.deadline, "outcome": None,
            "seats": [{"code": s.code, "name": s.name, "email": s.email, "orders": "none", "final": False,
                       "score": 0} for s in records.seats_of(db, game.id)]}
        facts.pop("state", None)
        facts["held"] = game.held
        seats = facts["seats"]
        facts["counts"] = {"in": sum(s["orders"] == "accepted" for s in seats),
                           "missing": sum(s["orders"] in ("none", "rejected") for s in seats),
                           "final": sum(s["final"] for s in seats), "seats": len(seats)}
        overview.append(facts)
    return overview


@dataclass(frozen=True)
class Prepared:
    """Turn-file bytes ready for check or submit, the text to show back (secret hidden), or why
    the portal will not send them for this seat."""

    data: bytes
    shown: str
    refusal: str | None = None


def prepare_turn_file(raw: bytes, game: GameRecord, seat: SeatRecord, secret: str | None, final: bool,
                      max_bytes: int) -> Prepared:
    """The bytes the portal sends for a signed-in seat.

    A file with its own PASSWORD goes as it came, byte for byte, unless it must be marked final;
    one with the placeholder or no PASSWORD line gets the seat's secret written in.
    A file for another game or seat is refused here: the portal acts only for its signed-in seat.
    """
    try:
        text, _ = decode_turn_file(raw, max_bytes)
    except TurnFileError as exc:
        return Prepared(raw, "", str(exc))
    envelope = read_envelope(text)
    if envelope.game is not None and envelope.game != game.name or \
            envelope.player is not None and envelope.player != seat.code:
        return Prepared(raw, hide_password(text),
                        f"these orders are for {envelope.player or '?'} in '{envelope.game or '?'}'; "
                        f"you are signed in as {seat.code} in '{game.name}'")
    lines = text.splitlines()
    changed = False
    if _password_missing(lines):
        if secret is None:
            return Prepared(raw, hide_password(text), "the orders need your secret: type it in the "
                            "'Your secret' box (you signed in with a link), or on the PASSWORD line")
        lines = _with_password(lines, secret)
        changed = True
    if final and not envelope.final:
        lines = _with_final(lines)
        changed = True
    if not changed:
        return Prepared(raw, hide_password(text))
    new_text = "\n".join(lines) + "\n"
    return Prepared(new_text.encode("utf-8"), hide_password(new_text))


def _keyword(line: str) -> str:
    return clean_line(line).partition(" ")[0].upper()


def _password_missing(lines: list[str]) -> bool:
    values = [clean_line(line).partition(" ")[2].strip() for line in lines if _keyword(line) == "PASSWORD"]
    return not values or all(v in ("", PLACEHOLDER) for v in values)


def _with_password(lines: list[str], secret: str) -> list[str]:
    kept = [line for line in lines if _keyword(line) != "PASSWORD"]
    after = next((i for i, line in enumerate(kept) if _keyword(line) == "PLAYER"), None)
    if after is None:
        after = next((i for i, line in enumerate(kept) if _keyword(line) == "GAME"), -1)
    return kept[:after + 1] + [f"PASSWORD {secret}"] + kept[after + 1:]


def _with_final(lines: list[str]) -> list[str]:
    end = next((i for i, line in enumerate(lines) if _keyword(line) == "END"), len(lines))
    return lines[:end] + ["FINAL"] + lines[end:]


def hide_password(text: str) -> str:
    """The text with every PASSWORD value replaced by the placeholder, to show back on a page."""
    return "\n".join(f"PASSWORD {PLACEHOLDER}" if _keyword(line) == "PASSWORD" else line
                     for line in text.splitlines()) + ("\n" if text else "")


def numbered_lines(text: str, problems: list) -> list[dict]:
    """The shown text line by line, each with the problems found on it."""
    by_line: dict[int, list[str]] = {}
    for problem in problems:
        by_line.setdefault(problem.line, []).append(problem.message)
    return [{"number": n, "text": line, "problems": by_line.get(n, [])}
            for n, line in enumerate(text.splitlines(), start=1)]


def current_archived(db: sqlite_utils.Database, home: Home, game: GameRecord, seat: SeatRecord) -> bytes | None:
    """The raw bytes of the submission that counts now for the seat, from the archive."""
    row = db.execute("SELECT archive FROM submissions WHERE seat_id = ? AND turn = ? AND current = 1",
                     [seat.id, game.turn]).fetchone()
    if row is None:
        return None
    path = archived_path(home.archive, row[0])
    return path.read_bytes() if path.is_file() else None


def parse_zone(zone: str) -> str:
    try:
        return ZoneInfo(zone).key
    except (ZoneInfoNotFoundError, ValueError):
        return "UTC"
