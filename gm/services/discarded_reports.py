"""The reports of turns a re-run discarded: kept under reports/<game>/discarded/<time>/, whether
the re-run finished or was killed after its commit.

The re-run commits, then moves the discarded turns' folders; a kill between the two left them in
place, and the next publish wrote the new turn's reports over them. So the re-run writes a note,
reports/<game>/.rerun-<time> (the turn and the moment), before it commits; after the commit it
moves the folders and removes the note. Whatever renders a game's reports first settles its
notes: the move is done if the re-run committed (its audit line is there), and the note is
dropped if it did not (nothing was discarded).
"""

from __future__ import annotations

import os
from contextlib import suppress
from pathlib import Path

import sqlite_utils

from gm.home import Home
from gm.store import audit

NOTE = ".rerun-"


def stamp(now: str) -> str:
    """The folder name of a re-run's moment (no colons: a file name anywhere)."""
    return now.replace(":", "")


def note(home: Home, game_name: str, number: int, now: str) -> Path:
    """Write the note of a re-run of turn `number` at `now`, before the re-run commits."""
    folder = home.reports / game_name
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{NOTE}{stamp(now)}"
    path.write_text(f"{number} {now}\n", encoding="utf-8")
    return path


def move(home: Home, game_name: str, number: int, now: str) -> None:
    """Move the folders of turn `number` and later to discarded/<time>/ (those already moved stay)."""
    folder = home.reports / game_name
    if not folder.exists():
        return
    keep = folder / "discarded" / stamp(now)
    for turn_dir in folder.iterdir():
        if turn_dir.name.isdigit() and int(turn_dir.name) >= number:
            keep.mkdir(parents=True, exist_ok=True)
            os.replace(turn_dir, keep / turn_dir.name)


def settle(db: sqlite_utils.Database, home: Home, game_id: int, game_name: str) -> None:
    """Finish the move of every re-run of the game that was killed after its commit, and drop the
    notes of those that never committed; called before anything renders the game's reports."""
    folder = home.reports / game_name
    if not folder.is_dir():
        return
    for path in sorted(folder.glob(f"{NOTE}*")):
        try:
            number, now = path.read_text(encoding="utf-8").split()
        except (OSError, ValueError):  # gone meanwhile (another process settled it), or not a note of gm's
            continue
        if audit.rerun_committed(db, game_id, now):
            move(home, game_name, int(number), now)
        with suppress(FileNotFoundError):
            path.unlink()
