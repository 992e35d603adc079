"""The slips table: each seat's return slip once acted on (rule 11.5), by the player or by the
game's default."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import sqlite_utils


@dataclass(frozen=True)
class TakenSlip:
    """A slip acted on: when (ISO text), by whom ('player' or 'default'), and its choices (join,
    decided, carry, transfer_to, transfer_credits)."""

    taken: str
    by: str
    choices: dict[str, Any]


def add_slip(
    db: sqlite_utils.Database, game_id: int, seat_id: int, now: str, by: str, source: str, choices: Mapping[str, Any]
) -> None:
    db.table("slips").insert(
        {
            "game_id": game_id,
            "seat_id": seat_id,
            "taken": now,
            "by": by,
            "source": source,
            "choices": json.dumps(choices, sort_keys=True),
        }
    )


def slip_of(db: sqlite_utils.Database, seat_id: int) -> TakenSlip | None:
    """The seat's slip, once acted on; else None."""
    row = db.execute("SELECT taken, by, choices FROM slips WHERE seat_id = ?", [seat_id]).fetchone()
    return None if row is None else TakenSlip(row[0], row[1], json.loads(row[2]))


def slips_of(db: sqlite_utils.Database, game_id: int) -> dict[int, TakenSlip]:
    """Seat id -> its slip, for every seat of the game whose slip was acted on."""
    rows = db.execute("SELECT seat_id, taken, by, choices FROM slips WHERE game_id = ?", [game_id]).fetchall()
    return {seat_id: TakenSlip(taken, by, json.loads(choices)) for seat_id, taken, by, choices in rows}
