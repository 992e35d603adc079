"""The games table's changes: a game made, its options, schedule, deadline, hold and turn set."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import sqlite_utils

from gm.store.database import inserted


def game_exists(db: sqlite_utils.Database, name: str) -> bool:
    return id_of_game(db, name) is not None


def id_of_game(db: sqlite_utils.Database, name: str) -> int | None:
    """The id of the game of that name, or None (the record itself is records.find_game)."""
    row = db.execute("SELECT id FROM games WHERE name = ?", [name]).fetchone()
    return None if row is None else row[0]


def name_of_game(db: sqlite_utils.Database, game_id: int) -> str | None:
    row = db.execute("SELECT name FROM games WHERE id = ?", [game_id]).fetchone()
    return None if row is None else row[0]


def add_game(
    db: sqlite_utils.Database,
    *,
    name: str,
    ruleset: str,
    ruleset_version: str,
    scenario_name: str,
    scenario_text: str,
    seed: int,
    created: str,
    options: Mapping[str, Any],
) -> int:
    """A new game, open for players, collecting turn 1 without a deadline; returns its id."""
    return inserted(
        db.table("games").insert(
            {
                "name": name,
                "ruleset": ruleset,
                "ruleset_version": ruleset_version,
                "scenario_name": scenario_name,
                "scenario_text": scenario_text,
                "seed": seed,
                "status": "open",
                "turn": 1,
                "deadline": None,
                "created": created,
                "options": json.dumps(options, sort_keys=True),
            }
        )
    )


def set_options(db: sqlite_utils.Database, game_id: int, options: Mapping[str, Any]) -> None:
    """The game's whole options (GameRecord.options: the GM's settings and the ruleset's options)."""
    db.execute("UPDATE games SET options = ? WHERE id = ?", [json.dumps(options, sort_keys=True), game_id])


def set_schedule(db: sqlite_utils.Database, game_id: int, schedule: Mapping[str, Any]) -> None:
    """The game's schedule, as gm.core.schedule.Schedule.to_json gives it."""
    db.execute("UPDATE games SET schedule = ? WHERE id = ?", [json.dumps(schedule), game_id])


def set_due(db: sqlite_utils.Database, game_id: int, slot: str | None, due: str | None, deadline: str | None) -> None:
    """The turn's scheduled slot and real due time (UTC ISO) and the deadline as players read it."""
    db.execute("UPDATE games SET slot = ?, due = ?, deadline = ? WHERE id = ?", [slot, due, deadline, game_id])


def set_held(db: sqlite_utils.Database, game_id: int, held: bool) -> None:
    db.execute("UPDATE games SET held = ? WHERE id = ?", [int(held), game_id])


def set_turn(db: sqlite_utils.Database, game_id: int, turn: int, status: str) -> None:
    """The turn the game collects now, and its status ('running' or 'over')."""
    db.execute("UPDATE games SET turn = ?, status = ? WHERE id = ?", [turn, status, game_id])


def set_knocked_out(db: sqlite_utils.Database, game_id: int, codes: list[str]) -> None:
    """The seats the game's last turn left knocked out (gm.core.prizes.knocked_out)."""
    db.execute("UPDATE games SET knocked_out = ? WHERE id = ?", [json.dumps(sorted(codes)), game_id])


def knocked_out(db: sqlite_utils.Database, game_id: int) -> set[str]:
    """The seats knocked out of the game as its last turn left them: they send no orders."""
    row = db.execute("SELECT knocked_out FROM games WHERE id = ?", [game_id]).fetchone()
    return set(json.loads(row[0])) if row else set()


def turn_and_status(db: sqlite_utils.Database, game_id: int) -> tuple[int, str]:
    """The turn the game collects and its status, as stored now (not as a record read earlier)."""
    turn, status = db.execute("SELECT turn, status FROM games WHERE id = ?", [game_id]).fetchone()
    return turn, status
