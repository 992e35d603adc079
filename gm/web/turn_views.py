"""The portal's cache of turn views: one per game and turn, shared by the server's threads, so a
page needs no state read or parsed while the turn is collected; and the rows an upload is checked
against, from it."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Any

import sqlite_utils

from gm.services.seat_page import TurnView, make_turn_view
from gm.services.turnfiles import GameRows
from gm.store import records
from gm.store.records import GameRecord, SeatRecord
from gm.store.turns import latest_hash

_ViewKey = tuple[Hashable, ...]
_VIEWS: OrderedDict[_ViewKey, TurnView] = OrderedDict()
_VIEWS_LOCK = threading.Lock()
_VIEWS_SIZE = 256


def _view_key(db: sqlite_utils.Database, game: GameRecord, seats: list[SeatRecord] | None = None) -> _ViewKey:
    """What the state of the turn being collected depends on, read cheaply.

    Once a turn has run, the state is the last stored one, named by its content hash. Before
    that it is the ruleset's new game, made from the scenario, the seed and the seats (a join
    changes it). A turn run, a re-run or a join therefore gives a new key at once.
    seats: the game's seats when the caller read them in this same request."""
    latest = latest_hash(db, game.id)
    if latest is not None:
        return (game.id, game.ruleset, "stored", *latest)
    codes = tuple((s.code, s.name) for s in (records.seats_of(db, game.id) if seats is None else seats))
    # (The installed ruleset's version is the same for the life of the process.)
    return (game.id, game.ruleset, "new", game.scenario_name, game.scenario_text, game.seed, codes)


def turn_view(db: sqlite_utils.Database, game: GameRecord, seats: list[SeatRecord] | None = None) -> TurnView | None:
    """The cached view of the turn the game is collecting; None while too few seats to start.

    Shared by the server's threads, read only: nothing may change what it holds.
    seats: the game's seats when the caller read them in this same request (see _view_key)."""
    key = _view_key(db, game, seats)
    with _VIEWS_LOCK:
        view = _VIEWS.get(key)
        if view is not None:
            _VIEWS.move_to_end(key)
            return view
    view = make_turn_view(db, game)
    if view is None:
        return None
    with _VIEWS_LOCK:
        _VIEWS[key] = view
        while len(_VIEWS) > _VIEWS_SIZE:
            _VIEWS.popitem(last=False)
    return view


class CachedRows(GameRows):
    """What `turnfiles` checks a portal upload against: the state from the turn's cached view
    (the same state, read once per turn); the game and seats from the database, or, with `known`
    (game, its seats), as the request of a signed-in seat read them to see who it is.

    Never kept past the request. A turn run in between is still caught: the state comes from
    the turn's view, keyed on the turns table as it is now, and submit() compares the game's turn
    and status again inside its write transaction."""

    def __init__(self, db: sqlite_utils.Database, known: tuple[GameRecord, list[SeatRecord]] | None = None):
        super().__init__(db)
        self.known = known

    def game(self, name: str) -> GameRecord | None:
        return self.known[0] if self.known and name == self.known[0].name else super().game(name)

    def seats(self, game: GameRecord) -> list[SeatRecord]:
        known = self._seats_known(game)
        return known if known is not None else super().seats(game)

    def state(self, game: GameRecord) -> dict[str, Any]:
        view = turn_view(self.db, game, self._seats_known(game))
        return view.state if view is not None else super().state(game)  # the latter says why not

    def _seats_known(self, game: GameRecord) -> list[SeatRecord] | None:
        return self.known[1] if self.known and game.id == self.known[0].id else None
