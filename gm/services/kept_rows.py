"""The rows one run of mail intake reads again and again (games, seats, states, the mail it took),
kept while no other connection commits: what intake and its secret check (mail_guesses) share."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar

import sqlite_utils

from gm.core.model import JSONObject
from gm.core.ruleset import Ruleset
from gm.services.turnfiles import GameRows
from gm.store import mail_taken
from gm.store.database import data_version
from gm.store.records import GameRecord, SeatRecord

# One kind of row kept: a game, a game's seats, its state, or the Message-IDs of mail taken.
_Row = TypeVar("_Row")


class KeptRows(GameRows):
    """The games, seats and states a run checks turn files against, and the mail it took, read
    once and kept until another connection commits anything (SQLite's data_version, asked once
    per message): a mailbox of turn files for a few games reads each game once, not once per turn
    file. Intake itself never writes games, seats or turns; what it records it adds here."""

    def __init__(self, db: sqlite_utils.Database):
        super().__init__(db)
        self._version: int | None = None
        self._kept: dict[Hashable, Any] = {}  # each key's row is of the kind its first word names

    def refresh(self) -> None:
        version = data_version(self.db)
        if version != self._version:
            self._kept.clear()
            self._version = version

    def forget(self) -> None:
        self._kept.clear()

    def _keep(self, key: Hashable, read: Callable[[], _Row]) -> _Row:
        if key not in self._kept:
            self._kept[key] = read()
        kept: _Row = self._kept[key]  # what `read` gave for this key
        return kept

    def game(self, name: str) -> GameRecord | None:
        return self._keep(("game", name), lambda: super(KeptRows, self).game(name))

    def seats(self, game: GameRecord) -> list[SeatRecord]:
        return self._keep(("seats", game.id), lambda: super(KeptRows, self).seats(game))

    def state(self, game: GameRecord) -> JSONObject:
        return self._keep(("state", game.id, game.turn), lambda: super(KeptRows, self).state(game))

    def codes(self, game: GameRecord, seat: str, ruleset: Ruleset, state: JSONObject) -> frozenset[str]:
        """The seat's view's codes, made once a seat and turn: a mailbox with many turn files in
        trouble from one seat made its whole view for each (1.4 ms profiled)."""
        return self._keep(
            ("codes", game.id, game.turn, seat), lambda: super(KeptRows, self).codes(game, seat, ruleset, state)
        )

    def copies(self, content_hash: str) -> set[str]:
        """The Message-IDs ("" for none) of the mail taken with this From and body; the caller adds
        what it records. A mailbox of the same orders sent again and again reads them once."""
        return self._keep(("copies", content_hash), lambda: mail_taken.message_ids_with(self.db, content_hash))
