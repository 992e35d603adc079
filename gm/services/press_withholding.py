"""The GM withholds a press message (gm game press GAME --withhold ID) or lets it stand again.

A withheld message stays in the database, as everything a player sent does. Its recipients no
longer read it: not in a report rendered from then on, not on the portal, and its press mails not
sent yet are cancelled (those sent are gone). Its sender still sees it listed, marked withheld by
the GM, without its text. Both are written in the audit log.
"""

from __future__ import annotations

from dataclasses import dataclass

import sqlite_utils

from gm.clock import Clock, iso
from gm.errors import GMError
from gm.store import press as stored, records
from gm.store.database import transaction
from gm.store.records import GameRecord


@dataclass(frozen=True)
class Withheld:
    """A message withheld (or let stand again): the message as it is now, the seats whose press
    mail was cancelled before it went, and the turn whose reports carry it already (None while
    that turn is still being collected)."""

    press: stored.PressRecord
    cancelled: tuple[str, ...] = ()
    rendered_turn: int | None = None


def withhold(db: sqlite_utils.Database, clock: Clock, game_name: str, press_id: int, reason: str = "") -> Withheld:
    """Withhold a game's message: its recipients read it nowhere from now on."""
    game = records.game_by_name(db, game_name)
    with transaction(db):
        message = _message(db, game, press_id)
        if message.withheld:
            raise GMError(
                f"press message {press_id} of '{game.name}' is withheld already (since {message.withheld}). "
                f"To let it stand again: gm game press {game.name} --release {press_id}."
            )
        now = iso(clock.now())
        stored.set_withheld(db, press_id, now)
        cancelled = tuple(stored.cancel_mails(db, game.id, press_id))
        facts = {"id": press_id, "turn": message.turn, "from": message.sender or "GM", "cancelled": list(cancelled)}
        records.audit(db, now, game.id, "press withheld", dict(facts, reason=reason) if reason else facts)
    return Withheld(_message(db, game, press_id), cancelled, _rendered(game, message))


def release(db: sqlite_utils.Database, clock: Clock, game_name: str, press_id: int) -> Withheld:
    """Let a withheld message stand again: its recipients read it in reports rendered from now
    on and on the portal (its cancelled mails stay cancelled)."""
    game = records.game_by_name(db, game_name)
    with transaction(db):
        message = _message(db, game, press_id)
        if not message.withheld:
            raise GMError(f"press message {press_id} of '{game.name}' is not withheld; there is nothing to release.")
        stored.set_withheld(db, press_id, None)
        records.audit(db, iso(clock.now()), game.id, "press released", {"id": press_id, "turn": message.turn})
    return Withheld(_message(db, game, press_id), (), _rendered(game, message))


def _message(db: sqlite_utils.Database, game: GameRecord, press_id: int) -> stored.PressRecord:
    message = stored.one(db, game.id, press_id)
    if message is None:
        raise GMError(
            f"game '{game.name}' has no press message {press_id}. 'gm game press {game.name}' lists them with their ids."
        )
    return message


def _rendered(game: GameRecord, message: stored.PressRecord) -> int | None:
    """The message's turn when it has run (its reports are rendered with the message as it was)."""
    return message.turn if message.turn < game.turn or game.status == "over" else None
