"""What the GM sees of a game: the facts behind 'gm game show' and its documented JSON."""
from __future__ import annotations

import sqlite_utils

from gm.services.games import current_state, game_ruleset
from gm.store import records

# Bump when a key of game_facts changes meaning or disappears (docs/game-show-json.md).
FORMAT = 1


def game_facts(db: sqlite_utils.Database, game_name: str) -> dict:
    """The game as the GM sees it, JSON-able; its shape is documented and kept stable."""
    game = records.game_by_name(db, game_name)
    ruleset, _ = game_ruleset(game)
    state = current_state(db, game)
    scores = ruleset.scores(state)
    outcome = ruleset.is_over(state)
    current = records.current_submissions(db, game.id, game.turn)
    rejected = {row[0] for row in db.execute(
        "SELECT DISTINCT seat_id FROM submissions WHERE game_id = ? AND turn = ? AND verdict = 'rejected'",
        [game.id, game.turn]).fetchall()}
    seats = []
    for seat in records.seats_of(db, game.id):
        if game.status == "over":
            orders = "over"
        elif seat.id in current:
            orders = "accepted"
        else:
            orders = "rejected" if seat.id in rejected else "none"
        seats.append({"code": seat.code, "name": seat.name, "email": seat.email, "status": seat.status,
                      "orders": orders, "final": bool(current.get(seat.id, {}).get("final", False)),
                      "score": scores.get(seat.code, 0)})
    last = db.execute("SELECT MAX(number) FROM turns WHERE game_id = ?", [game.id]).fetchone()[0]
    return {
        "format": FORMAT,
        "name": game.name,
        "title": state.get("title", ruleset.title) if isinstance(state, dict) else ruleset.title,
        "ruleset": game.ruleset,
        "ruleset_version": game.ruleset_version,
        "scenario": game.scenario_name,
        "seed": game.seed,
        "status": game.status,
        "turn": game.turn,
        "last_resolved_turn": last if last is not None and last >= 1 else None,
        "turn_label": ruleset.turn_label(state),
        "deadline": game.deadline,
        "created": game.created,
        "seats": seats,
        "outcome": outcome.to_json() if outcome else None,
        "state": state,
    }
