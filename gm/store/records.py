"""Reading and writing gm's records: games, seats, turns, submissions, reports, audit."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, cast

import sqlite_utils

from gm.core.warnings import meant_name
from gm.errors import GMError
from gm.store.acting import OWNER_NAME, acting
from gm.store.database import inserted


@dataclass(frozen=True)
class GameRecord:
    """A row of games: id, name, ruleset and its version at creation, scenario, seed, status
    ('open' while it takes players, 'running' once it has started, 'over'), turn (the turn being collected),
    deadline (the due time as players read it, or None), options (dict), created (ISO text);
    schedule (gm.core.schedule.Schedule as JSON, or None), slot (the scheduled deadline of the turn
    being collected, UTC ISO), due (when it is really due: the slot or a pushed time), held."""

    id: int
    name: str
    ruleset: str
    ruleset_version: str
    scenario_name: str
    scenario_text: str
    seed: int
    status: str
    turn: int
    deadline: str | None
    options: dict[str, Any]
    created: str
    schedule: dict[str, Any] | None = None
    slot: str | None = None
    due: str | None = None
    held: bool = False


@dataclass(frozen=True)
class SeatRecord:
    """A seat in a game: its code, the player's account (email, name) and the secret's hash."""

    id: int
    game_id: int
    code: str
    email: str
    name: str
    secret_hash: str
    status: str


def find_game(db: sqlite_utils.Database, name: str) -> GameRecord | None:
    """The game of that name, or None."""
    row = db.execute("SELECT * FROM games WHERE name = ?", [name]).fetchone()
    return None if row is None else _game(db, row)


def game_of_seat(db: sqlite_utils.Database, seat_id: int) -> GameRecord | None:
    """The game a seat id belongs to, or None for no such seat."""
    row = db.execute("SELECT g.* FROM seats s JOIN games g ON g.id = s.game_id WHERE s.id = ?", [seat_id]).fetchone()
    return None if row is None else _game(db, row)


def game_by_id(db: sqlite_utils.Database, game_id: int) -> GameRecord | None:
    """The game of that id, or None."""
    row = db.execute("SELECT * FROM games WHERE id = ?", [game_id]).fetchone()
    return None if row is None else _game(db, row)


def game_by_name(db: sqlite_utils.Database, name: str) -> GameRecord:
    """The game of that name; a GMError for the GM when there is none, offering the names one
    slip away, else every game's name (a player's mail or page never reaches here with a name
    it made up: see game_names_of)."""
    game = find_game(db, name)
    if game is None:
        known = [r[0] for r in db.execute("SELECT name FROM games ORDER BY name").fetchall()]
        meant = meant_name(name, known)
        if meant:
            hint = f" {meant[0].upper()}{meant[1:]} ('gm game list' lists every game.)"
        elif known:
            hint = f" Games here: {', '.join(known)}."
        else:
            hint = " There are no games yet: create one with 'gm game new'."
        raise GMError(f"unknown game '{name}'.{hint}")
    return game


def game_names_of(db: sqlite_utils.Database, email: str) -> list[str]:
    """The names of the games the person at that address holds (or held) a seat in: all a
    "did you mean" may offer them."""
    rows = db.execute(
        """SELECT DISTINCT g.name FROM games g JOIN seats s ON s.game_id = g.id JOIN accounts a ON a.id = s.account_id
           WHERE lower(a.email) = lower(?) ORDER BY g.name""",
        [email],
    ).fetchall()
    return [name for (name,) in rows]


def all_games(db: sqlite_utils.Database) -> list[GameRecord]:
    return [_game(db, row) for row in db.execute("SELECT * FROM games ORDER BY name").fetchall()]


_GAME_FIELDS = set(GameRecord.__dataclass_fields__)


def _game(db: sqlite_utils.Database, row: Iterable[Any]) -> GameRecord:
    columns = [d[0] for d in db.execute("SELECT * FROM games LIMIT 0").description]
    # Later migrations may add columns other modules read themselves; keep the ones this record names.
    data = {k: v for k, v in zip(columns, row) if k in _GAME_FIELDS}
    data["options"] = json.loads(data["options"])
    if data.get("schedule"):
        data["schedule"] = json.loads(data["schedule"])
    data["held"] = bool(data.get("held"))
    return GameRecord(**data)


def seats_of(db: sqlite_utils.Database, game_id: int) -> list[SeatRecord]:
    rows = db.execute(
        """SELECT s.id, s.game_id, s.code, a.email, a.name, s.secret_hash, s.status
           FROM seats s JOIN accounts a ON a.id = s.account_id
           WHERE s.game_id = ? ORDER BY s.id""",
        [game_id],
    ).fetchall()
    return [SeatRecord(*row) for row in rows]


def seat_by_code(db: sqlite_utils.Database, game: GameRecord, code: str) -> SeatRecord:
    for seat in seats_of(db, game.id):
        if seat.code == code.upper():
            return seat
    codes = ", ".join(s.code for s in seats_of(db, game.id)) or "none yet"
    raise GMError(f"game '{game.name}' has no seat '{code}'. Its seats: {codes}.")


def account_id(db: sqlite_utils.Database, email: str, name: str, created: str) -> int:
    row = db.execute("SELECT id FROM accounts WHERE email = ?", [email]).fetchone()
    if row:
        return cast(int, row[0])
    return inserted(db.table("accounts").insert({"email": email, "name": name, "created": created}))


@dataclass(frozen=True)
class TurnRecord:
    """A resolved turn: number (0 is the state at the start), the seed and ruleset version it was
    resolved with, the orders used per seat, the events, the state after it and its hash."""

    number: int
    seed: int
    ruleset_version: str
    orders: dict[str, Any]
    events: list[dict[str, Any]]
    state: dict[str, Any]
    state_hash: str
    resolved: str


def turns_of(db: sqlite_utils.Database, game_id: int, since: int = 0, until: int | None = None) -> list[TurnRecord]:
    """The game's turns from `since` to `until` (both kept; None: the last), whole. A state grows
    with the game (an Empires turn 10 is about 120 KB of JSON): a caller that needs a few turns
    asks for those, and one that needs only orders asks orders_of."""
    rows = db.execute(
        """SELECT number, seed, ruleset_version, orders, events, state, state_hash, resolved
           FROM turns WHERE game_id = ? AND number >= ? AND number <= ? ORDER BY number""",
        [game_id, since, _LAST if until is None else until],
    ).fetchall()
    return [
        TurnRecord(n, seed, version, json.loads(orders), json.loads(events), json.loads(state), h, resolved)
        for n, seed, version, orders, events, state, h, resolved in rows
    ]


_LAST = 2**62  # a turn number past any game's last


def turns_numbered(db: sqlite_utils.Database, game_id: int, numbers: Iterable[int]) -> dict[int, TurnRecord]:
    """The game's turns of these numbers, whole, by number (a number it has not: left out)."""
    wanted = sorted(set(numbers))
    if not wanted:
        return {}
    rows = db.execute(
        f"""SELECT number, seed, ruleset_version, orders, events, state, state_hash, resolved
            FROM turns WHERE game_id = ? AND number IN ({", ".join("?" * len(wanted))}) ORDER BY number""",
        [game_id, *wanted],
    ).fetchall()
    return {
        n: TurnRecord(n, seed, version, json.loads(orders), json.loads(events), json.loads(state), h, resolved)
        for n, seed, version, orders, events, state, h, resolved in rows
    }


def orders_of(db: sqlite_utils.Database, game_id: int, since: int = 0) -> dict[int, dict[str, Any]]:
    """Each turn's stored orders from `since` on, by its number in order, without its state and
    events (what counting missed turns needs: the nmr streaks)."""
    rows = db.execute(
        "SELECT number, orders FROM turns WHERE game_id = ? AND number >= ? ORDER BY number", [game_id, since]
    ).fetchall()
    return {number: json.loads(orders) for number, orders in rows}


def turn_record(db: sqlite_utils.Database, game: GameRecord, number: int) -> TurnRecord:
    found = turns_of(db, game.id, number, number)
    if not found or found[0].number != number:
        last = game.turn - 1
        raise GMError(
            f"game '{game.name}' has no resolved turn {number}; resolved turns are 1 to {last}."
            if last >= 1
            else f"game '{game.name}' has not run a turn yet."
        )
    return found[0]


def turn_hash(db: sqlite_utils.Database, game_id: int, number: int) -> str | None:
    """The state hash of a stored turn (None when there is none), without reading its state."""
    row = db.execute("SELECT state_hash FROM turns WHERE game_id = ? AND number = ?", [game_id, number]).fetchone()
    return row[0] if row else None


def current_submissions(db: sqlite_utils.Database, game_id: int, turn: int) -> dict[int, dict[str, Any]]:
    """The submission that counts for each seat (by seat id) in a turn: its id, orders (as stored),
    final (bool), received (ISO text) and vote (its JSON, None without one)."""
    rows = db.execute(
        "SELECT id, seat_id, orders, final, received, vote FROM submissions "
        "WHERE game_id = ? AND turn = ? AND current = 1",
        [game_id, turn],
    ).fetchall()
    return {
        seat_id: {
            "id": sid,
            "orders": json.loads(orders),
            "final": bool(final),
            "received": received,
            "vote": json.loads(vote) if vote else None,
        }
        for sid, seat_id, orders, final, received, vote in rows
    }


def seats_in(db: sqlite_utils.Database, game_id: int, turn: int) -> tuple[int, int, int]:
    """(active seats with a submission that counts in the turn, active seats, how many of those
    submissions are FINAL): counted here, without reading the orders current_submissions parses
    (an acknowledgement says it after every turn file)."""
    # One statement, not two: intake asks after every turn file.
    active = "SELECT id FROM seats WHERE game_id = ?1 AND status = 'active'"
    count, final, of = db.execute(
        f"SELECT count(*), coalesce(sum(final), 0), (SELECT count(*) FROM ({active})) "
        f"FROM submissions WHERE game_id = ?1 AND turn = ?2 AND current = 1 AND seat_id IN ({active})",
        [game_id, turn],
    ).fetchone()
    return count, of, final


def has_current_submission(db: sqlite_utils.Database, game_id: int, turn: int, seat_id: int) -> bool:
    """Whether a submission of this seat counts in the turn (current_submissions, for one seat)."""
    return (
        db.execute(
            "SELECT 1 FROM submissions WHERE game_id = ? AND turn = ? AND seat_id = ? AND current = 1 LIMIT 1",
            [game_id, turn, seat_id],
        ).fetchone()
        is not None
    )


def audit(
    db: sqlite_utils.Database,
    at: str,
    game_id: int | None,
    action: str,
    detail: Mapping[str, Any],
    own: bool = False,
) -> None:
    """Log an action of the GM acting now (gm.store.acting). A GM limited to some games is
    refused any other's action here too: the caller's transaction then writes nothing of it.
    own: an action on the GM's own account (a new password), which every GM may take."""
    actor = acting()
    if not own and not actor.may_act_on(game_id):
        raise NotYourGame(actor.name, _game_name(db, game_id))
    db.table("audit").insert(
        {
            "at": at,
            "game_id": game_id,
            "action": action,
            "detail": json.dumps(detail, sort_keys=True),
            "actor": actor.name,
        }
    )


class NotYourGame(GMError):
    """A GM limited to some games tried to act on another, or on the whole house."""

    def __init__(self, name: str, game: str | None):
        where = f"game '{game}'" if game else "the whole house"
        super().__init__(
            f"{name} is a GM of some games only, and {where} is not one of them: nothing was done. "
            "Ask the house's owner to do it."
        )


def _game_name(db: sqlite_utils.Database, game_id: int | None) -> str | None:
    row = None if game_id is None else db.execute("SELECT name FROM games WHERE id = ?", [game_id]).fetchone()
    return None if row is None else str(row[0])


@dataclass(frozen=True)
class AuditEntry:
    """One row of the GM audit log: when (ISO text), the game's name (None for house-wide
    actions such as creating a game), what was done, its details as stored, and the GM who did it
    (gm.store.acting; the owner's for entries from before GMs had names)."""

    at: str
    game: str | None
    action: str
    detail: dict[str, Any]
    actor: str = OWNER_NAME


def audit_log(db: sqlite_utils.Database, game_id: int | None = None, last: int | None = None) -> list[AuditEntry]:
    """The audit log, oldest first: every action, or one game's; the `last` n entries only if given."""
    where, args = ("WHERE a.game_id = ?", [game_id]) if game_id is not None else ("", [])
    limit = "LIMIT ?" if last is not None else ""
    rows = db.execute(
        f"""SELECT * FROM (SELECT a.id, a.at, g.name, a.action, a.detail, a.actor FROM audit a
                          LEFT JOIN games g ON g.id = a.game_id {where} ORDER BY a.id DESC {limit})
                          ORDER BY id""",
        args + ([last] if last is not None else []),
    ).fetchall()
    return _entries(rows)


def _entries(rows: Iterable[tuple[Any, ...]]) -> list[AuditEntry]:
    return [
        AuditEntry(at, name, action, json.loads(detail), actor or OWNER_NAME)
        for _, at, name, action, detail, actor in rows
    ]


def audit_log_of(db: sqlite_utils.Database, game_ids: Iterable[int], last: int) -> list[AuditEntry]:
    """The last entries of these games' audit log, oldest first (a GM of some games sees theirs)."""
    ids = sorted(game_ids)
    marks = ", ".join("?" * len(ids))
    rows = db.execute(
        f"""SELECT * FROM (SELECT a.id, a.at, g.name, a.action, a.detail, a.actor FROM audit a
                          JOIN games g ON g.id = a.game_id WHERE a.game_id IN ({marks}) ORDER BY a.id DESC LIMIT ?)
                          ORDER BY id""",
        [*ids, last],
    ).fetchall()
    return _entries(rows)


# seat_players.reason of the player who joined a seat (the others took it over as standbys).
JOINED = "joined"


def seat_takeovers(db: sqlite_utils.Database, game_id: int) -> dict[int, int]:
    """Seat id -> the turn from which its present player (a standby who took it) plays it."""
    rows = db.execute(
        """SELECT sp.seat_id, MAX(sp.from_turn) FROM seat_players sp JOIN seats s ON s.id = sp.seat_id
                         WHERE s.game_id = ? AND sp.reason != ? GROUP BY sp.seat_id""",
        [game_id, JOINED],
    ).fetchall()
    return dict(rows)


def player_at(db: sqlite_utils.Database, seat_id: int, turn: int) -> str:
    """The email of the account that played a seat in that turn (seat_players: a standby from
    the turn it took over)."""
    row = db.execute(
        """SELECT a.email FROM seat_players sp JOIN accounts a ON a.id = sp.account_id
           WHERE sp.seat_id = ? AND sp.from_turn <= ? ORDER BY sp.from_turn DESC, sp.id DESC LIMIT 1""",
        [seat_id, turn],
    ).fetchone()
    return str(row[0])


def played_since(db: sqlite_utils.Database, seat_id: int, turn: int) -> int:
    """The turn from which the player who played a seat in `turn` plays it (1 for the player who
    joined it; a standby's first turn)."""
    row = db.execute(
        "SELECT MAX(from_turn) FROM seat_players WHERE seat_id = ? AND from_turn <= ?", [seat_id, turn]
    ).fetchone()
    return int(row[0]) if row and row[0] is not None else 1


def waiting_standbys(db: sqlite_utils.Database, game_id: int) -> list[dict[str, str]]:
    """The standbys of a game who have not taken a seat yet, first in line first."""
    rows = db.execute(
        "SELECT name, email, added FROM standbys WHERE game_id = ? AND seat_id IS NULL ORDER BY id", [game_id]
    ).fetchall()
    return [{"name": name, "email": email, "added": added} for name, email, added in rows]


def resolved_turns(db: sqlite_utils.Database, game_id: int) -> list[int]:
    """The numbers of the resolved turns (1 and later), without reading their states."""
    return [
        row[0]
        for row in db.execute(
            "SELECT number FROM turns WHERE game_id = ? AND number >= 1 ORDER BY number", [game_id]
        ).fetchall()
    ]


def unpublished_turns(db: sqlite_utils.Database, game_id: int) -> list[int]:
    """The resolved turns (1 and later) not yet published: some seat's report is not recorded,
    or its mail not queued (turns.published is set in the step that does both)."""
    return [
        row[0]
        for row in db.execute(
            "SELECT number FROM turns WHERE game_id = ? AND number >= 1 AND published IS NULL ORDER BY number",
            [game_id],
        ).fetchall()
    ]


def mark_published(db: sqlite_utils.Database, game_id: int, numbers: Iterable[int], at: str) -> None:
    """Inside the transaction that recorded the turns' reports and queued their mails."""
    db.conn.executemany(
        "UPDATE turns SET published = ? WHERE game_id = ? AND number = ?", [(at, game_id, number) for number in numbers]
    )


def record_report(db: sqlite_utils.Database, game_id: int, turn: int, seat: str, files: Mapping[str, str]) -> None:
    """Record (or record again, after a new rendering) one seat's report of a turn. files: pdf,
    json (paths relative to the home), pdf_sha256, json_sha256, rendered."""
    db.execute(
        """INSERT INTO reports (game_id, turn, seat, pdf, json, pdf_sha256, json_sha256, rendered)
                  VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                  ON CONFLICT (game_id, turn, seat) DO UPDATE SET pdf = excluded.pdf, json = excluded.json,
                  pdf_sha256 = excluded.pdf_sha256, json_sha256 = excluded.json_sha256, rendered = excluded.rendered""",
        [
            game_id,
            turn,
            seat,
            files["pdf"],
            files["json"],
            files["pdf_sha256"],
            files["json_sha256"],
            files["rendered"],
        ],
    )


def players_at(db: sqlite_utils.Database, game_id: int, turn: int) -> dict[int, str]:
    """Seat id -> the name of the player who played it in `turn` (turn 0: who joined), from
    seat_players: the joining player from turn 1, a standby from the turn it took over."""
    rows = db.execute(
        """SELECT sp.seat_id, a.name FROM seat_players sp JOIN accounts a ON a.id = sp.account_id
           JOIN seats s ON s.id = sp.seat_id
           WHERE s.game_id = ? AND sp.from_turn <= ? ORDER BY sp.from_turn, sp.id""",
        [game_id, max(turn, 1)],
    ).fetchall()
    return dict(rows)  # the latest row of each seat wins
