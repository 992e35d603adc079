"""A game's faults: what gm run-due could not do for it (a turn its ruleset failed to run, a
turn whose reports could not be made) and the mail kept because its ruleset failed reading it.

run-due notes each failure once in the audit log ('run-due failed'); gm status, gm doctor and
the GM's portal page show a game's faults while they still hold: a turn not run while the game
is still collecting it, a turn not published while it is unpublished, mail kept until it is read
again (mail intake does that at every import, fetch and receive).
"""

from __future__ import annotations

import sqlite_utils

from gm.clock import Clock, iso
from gm.errors import GMError
from gm.rulesets import RulesetFault
from gm.store import audit, mail_taken, records
from gm.store.database import transaction
from gm.store.records import GameRecord

RUN, PUBLISH = "run", "publish"  # what run-due could not do: run the turn, or publish it


def record(db: sqlite_utils.Database, clock: Clock, game: GameRecord, stage: str, turn: int, error: GMError) -> None:
    """Note in the audit log that run-due could not run (RUN) or publish (PUBLISH) turn `turn`
    of the game, and why; once, not at every run while it lasts."""
    detail: dict[str, object] = {"stage": stage, "turn": turn, "error": str(error)}
    if isinstance(error, RulesetFault):
        detail.update(ruleset=error.ruleset, version=error.version, method=error.method)
    noted = [f for f in audit.run_due_failures(db, game.id) if (f["stage"], f["turn"]) == (stage, turn)]
    if noted and noted[-1]["error"] == detail["error"]:
        return
    with transaction(db):
        records.audit(db, iso(clock.now()), game.id, "run-due failed", detail)


def game_faults(db: sqlite_utils.Database, game: GameRecord, every_unpublished: bool = False) -> list[str]:
    """What keeps the game from going on because something failed, for the GM: each line says
    what and why. A turn left unpublished on purpose (gm turn run --no-render) is no fault;
    every_unpublished lists it too, as gm status does."""
    faults = []
    why = _noted(db, game)
    if (RUN, game.turn) in why and game.status != "over":
        faults.append(f"turn {game.turn} not run: {why[RUN, game.turn]}")
    for number in records.unpublished_turns(db, game.id):
        if (PUBLISH, number) in why:
            faults.append(f"turn {number} not published: {why[PUBLISH, number]}")
        elif every_unpublished:
            faults.append(f"turn {number} not published")
    held = kept_mail(db).get(game.name, 0)
    if held:
        faults.append(
            f"{held} mail(s) kept: its ruleset failed while reading the turn file; read again at the next "
            "gm inbox import, fetch or receive"
        )
    return faults


def _noted(db: sqlite_utils.Database, game: GameRecord) -> dict[tuple[str, int], str]:
    """The last failure noted for each (stage, turn) of the game."""
    return {(f["stage"], f["turn"]): f["error"] for f in audit.run_due_failures(db, game.id)}


def kept_mail(db: sqlite_utils.Database) -> dict[str, int]:
    """How many messages are kept because a ruleset failed reading them, by game ('' for none)."""
    counts: dict[str, int] = {}
    for _, _, results in mail_taken.kept(db):
        game = next((r.get("game") for r in results if r.get("game")), "") or ""
        counts[game] = counts.get(game, 0) + 1
    return counts
