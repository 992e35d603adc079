"""The seats knocked out of each game, as its last turn left them (a JSON list of seat codes),
so the cycle does not wait for, remind or count as missing a seat that has no orders to send
(11.7: a player knocked out "while still playing"), without reading the game's state on every
`gm run-due`. Each turn run sets it; until a game's next turn runs it is empty, as before."""

from __future__ import annotations

import sqlite_utils

from gm.store.migrations import run_script


def migrate(db: sqlite_utils.Database) -> None:
    run_script(db, "ALTER TABLE games ADD COLUMN knocked_out TEXT NOT NULL DEFAULT '[]';")
