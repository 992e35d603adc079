"""The turns table: a resolved turn stored, the latest state, what a page or a check needs of the
turns without reading their states, and the turns a re-run discards (records.turns_of reads them whole)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, cast

import sqlite_utils


def add_turn(
    db: sqlite_utils.Database,
    game_id: int,
    number: int,
    *,
    seed: int,
    ruleset_version: str,
    orders: Mapping[str, Any],
    events: Sequence[Mapping[str, Any]],
    state: Mapping[str, Any],
    state_hash: str,
    resolved: str,
    published: str | None,
) -> None:
    """Store a resolved turn (turn 0: the start); JSON with sorted keys, so a turn stored again is
    the same text."""
    db.table("turns").insert(
        {
            "game_id": game_id,
            "number": number,
            "seed": seed,
            "ruleset_version": ruleset_version,
            "orders": json.dumps(orders, sort_keys=True),
            "events": json.dumps(events, sort_keys=True),
            "state": json.dumps(state, sort_keys=True),
            "state_hash": state_hash,
            "resolved": resolved,
            "published": published,
        }
    )


def latest_state(db: sqlite_utils.Database, game_id: int) -> dict[str, Any] | None:
    """The state after the last stored turn, or None before the start is stored."""
    row = db.execute("SELECT state FROM turns WHERE game_id = ? ORDER BY number DESC LIMIT 1", [game_id]).fetchone()
    return None if row is None else json.loads(row[0])


def latest_hash(db: sqlite_utils.Database, game_id: int) -> tuple[int, str] | None:
    """(number, state hash) of the last stored turn, without reading its state; None before any."""
    row = db.execute(
        "SELECT number, state_hash FROM turns WHERE game_id = ? ORDER BY number DESC LIMIT 1", [game_id]
    ).fetchone()
    return None if row is None else (row[0], row[1])


def last_number(db: sqlite_utils.Database, game_id: int) -> int | None:
    """The number of the last stored turn (0: only the start), None before any."""
    row = db.execute("SELECT MAX(number) FROM turns WHERE game_id = ?", [game_id]).fetchone()
    return cast(int | None, row[0])


def last_resolved(db: sqlite_utils.Database, game_id: int, first: int = 0) -> str | None:
    """When the last turn numbered `first` or later was resolved (ISO text), or None."""
    row = db.execute("SELECT MAX(resolved) FROM turns WHERE game_id = ? AND number >= ?", [game_id, first]).fetchone()
    return cast(str | None, row[0])


def seat_turns(db: sqlite_utils.Database, game_id: int, seat_code: str) -> list[tuple[int, str | None, int | None]]:
    """(turn, who gave the seat's orders, the submission that counted) for every turn run.

    SQLite reads the seat's two values out of each turn's orders JSON, so a long game's states
    and events are not loaded and parsed for every page."""
    who, which = f'$."{seat_code}".by', f'$."{seat_code}".submission'
    return db.execute(
        "SELECT number, json_extract(orders, ?), json_extract(orders, ?) FROM turns "
        "WHERE game_id = ? AND number >= 1 ORDER BY number",
        [who, which, game_id],
    ).fetchall()


def played_turns(db: sqlite_utils.Database) -> set[tuple[str, int]]:
    """(game name, turn) of every turn run (1 and later) in every game: what the books charge for."""
    return {
        (name, number)
        for name, number in db.execute(
            "SELECT g.name, t.number FROM turns t JOIN games g ON g.id = t.game_id WHERE t.number >= 1"
        )
    }


def unpublished_everywhere(db: sqlite_utils.Database) -> list[tuple[str, int]]:
    """(game name, turn) of every resolved turn not yet published, by game and turn
    (records.unpublished_turns for one game)."""
    return db.execute("""SELECT g.name, t.number FROM turns t JOIN games g ON g.id = t.game_id
                         WHERE t.number >= 1 AND t.published IS NULL ORDER BY g.name, t.number""").fetchall()


def discard_turns_from(db: sqlite_utils.Database, game_id: int, number: int) -> None:
    """Delete turn `number` and every later one (gm turn rerun keeps them in the audit log first)."""
    db.execute("DELETE FROM turns WHERE game_id = ? AND number >= ?", [game_id, number])
