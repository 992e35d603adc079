"""The end-of-game report, one per seat: final standings, how the game was won, the player's
discount and credits left over, and the return slip (11.5, 11.7)."""

from __future__ import annotations

import sqlite_utils

from gm.core import ledger, victory
from gm.core.ledger import Position
from gm.core.model import JSONObject
from gm.core.prizes import PrizeTable
from gm.core.ruleset import Ruleset
from gm.services import gunboat, prizes, scores
from gm.services.game_settings import game_setting
from gm.services.games import score_title
from gm.store import ledger as books
from gm.store.records import GameRecord, SeatRecord, TurnRecord


def position_at_end(db: sqlite_utils.Database, game: GameRecord, email: str, last: TurnRecord) -> Position:
    """The account's credits and discount as of its last entry for this game (the game's end), or,
    when the game booked it none, as of the game's last entries (of its last turn), so rendering
    the report again later gives the same figures (gm/store/ledger.py position_at_end)."""
    return Position(*books.position_at_end(db, game.id, email, last.number, last.resolved))


def endgame_context(
    db: sqlite_utils.Database,
    game: GameRecord,
    ruleset: Ruleset,
    turn: TurnRecord,
    seat: SeatRecord,
    seats: list[SeatRecord],
    table: PrizeTable,
) -> JSONObject:
    outcome = ruleset.is_over(turn.state)
    assert outcome is not None, "rendered once the game is over (reports._endgame_pages)"
    view = ruleset.view(turn.state, seat.code)
    nations = scores.seat_nations(view)
    status = {s.code: s.status for s in seats}
    shown = gunboat.as_shown(game, seats, True)
    rows = [{**row, "status": status[row["seat"]]} for row in scores.score_rows(ruleset, turn.state, view, shown)]
    at_end = position_at_end(db, game, seat.email, turn)
    record = turn.state.get(victory.STATE_KEY, {}) if isinstance(turn.state, dict) else {}
    return {
        "game": {"name": game.name, "title": view.get("title", ruleset.title), "ruleset": ruleset.name},
        "seat": seat.code,
        "player": seat.name,
        "email": seat.email,
        "nation": nations.get(seat.code, ""),
        "turns": turn.number,
        "created": turn.resolved,
        "outcome": outcome.to_json(),
        "scores": rows,
        "score_title": score_title(ruleset, turn.state),
        "won": seat.code in outcome.winners,
        "status": seat.status,
        "condition": record.get("condition") if isinstance(record, dict) else None,
        "discount": {
            "now": at_end.discount,
            "awarded": books.discount_awarded(db, game.id, seat.email),
            "earned": prizes.earned_at_end(ruleset, turn.state, outcome, seats, table).get(seat.code, 0),
            "table": table.to_json(),
            "cap": ledger.MAX_DISCOUNT,
            "bonus_from": ledger.QUALIFYING,
        },
        "credits": {"left": at_end.balance},
        "slip": {"days": game_setting(game, "slip-days"), "default": game_setting(game, "slip-default")},
    }
