"""Waiting lists: players waiting for a seat in a game open for players, or in the next game of
a ruleset; filled from sign-ups by mail and from return slips."""

from __future__ import annotations

import sqlite_utils

from gm.clock import Clock, iso
from gm.errors import GMError
from gm.rulesets import installed
from gm.store import records, waiting as store
from gm.store.database import atomic
from gm.store.waiting import Waiting


def add(
    db: sqlite_utils.Database,
    now: str,
    target: str,
    email: str,
    name: str,
    preferences: list[str],
    came: str,
    source: str,
) -> str:
    """Put a player on the list of a game open for players or of a ruleset's next game, inside
    the caller's transaction; returns what they wait for, in words. Once per list and player."""
    game = records.find_game(db, target)
    if game is not None and game.status != "open":
        raise GMError(
            f"{game.name} has started and takes no new players; ask for the next game of "
            f"{game.ruleset} instead (JOIN {game.ruleset})"
        )
    if game is None and target not in installed():
        raise GMError(f"gm has no game or ruleset '{target}'; rulesets: {', '.join(sorted(installed()))}")
    ruleset = game.ruleset if game else target
    described = f"game {game.name}" if game else f"the next game of {ruleset}"
    account = records.account_id(db, email, name, now)
    if store.is_waiting(db, account, ruleset, game.id if game else None):
        return described
    store.add_waiting(
        db,
        game_id=game.id if game else None,
        ruleset=ruleset,
        account_id=account,
        name=name,
        preferences=preferences,
        came=came,
        source=source,
        now=now,
    )
    records.audit(
        db,
        now,
        game.id if game else None,
        "waiting list",
        {"email": email, "for": described, "came": came, "preferences": preferences},
    )
    return described


def waiting_for(db: sqlite_utils.Database, game_name: str) -> list[Waiting]:
    """Who waits for a game: its own list, then its ruleset's next-game list, first come first."""
    game = records.game_by_name(db, game_name)
    return store.waiting_for(db, game.id, game.ruleset)


def remove(db: sqlite_utils.Database, clock: Clock, game_name: str, number: int, reason: str = "") -> Waiting:
    """Take entry `number` off the lists `gm game waiting GAME` shows (the game's own, or its
    ruleset's next-game list), before anybody seats them; written in the audit log."""
    found = next((w for w in waiting_for(db, game_name) if w.number == number), None)
    if found is None:
        raise GMError(
            f"nobody waits as number {number} for {game_name}. See who waits, and their numbers, "
            f"with 'gm game waiting {game_name}'."
        )
    reason = " ".join(reason.split())[:500]
    waited = records.game_by_name(db, found.game) if found.game else None
    with atomic(db):
        if not store.remove_waiting(db, number):  # seated meanwhile
            raise GMError(f"number {number} has just been seated; nothing was removed.")
        records.audit(
            db,
            iso(clock.now()),
            waited.id if waited else None,
            "waiting removed",
            {
                "email": found.email,
                "name": found.name,
                "for": f"game {found.game}" if found.game else f"the next game of {found.ruleset}",
                "came": found.came,
                "reason": reason,
            },
        )
    return found
