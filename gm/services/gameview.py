"""What the GM sees of a game: the facts behind 'gm game show' and its documented JSON, and every
game at a glance for the portal's GM page."""

from __future__ import annotations

import sqlite_utils

from gm.core import census
from gm.core.model import JSONObject
from gm.errors import GMError
from gm.rulesets import RulesetFault
from gm.services import faults
from gm.services.games import ROBOT, current_state, game_ruleset
from gm.store import records
from gm.store.records import GameRecord
from gm.store.submissions import rejected_seats
from gm.store.turns import last_number

# Bump when a key of game_facts changes meaning or disappears (docs/game-show-json.md).
FORMAT = 1


def game_facts(db: sqlite_utils.Database, game_name: str, gm_secrets: bool = False) -> JSONObject:
    """The game as the GM sees it, JSON-able; its shape is documented and kept stable.

    gm_secrets: also show what nobody may know before it happens (the census schedule); without
    it, the schedule is left out of "state" too, so a shared screen gives nothing away.
    """
    game = records.game_by_name(db, game_name)
    ruleset, _ = game_ruleset(game)
    try:
        state = current_state(db, game)
    except GMError:
        state = None  # nobody seated yet, or too few players for this scenario to start
    scores = ruleset.scores(state) if state is not None else {}
    outcome = ruleset.is_over(state) if state is not None else None
    current = records.current_submissions(db, game.id, game.turn)
    rejected = rejected_seats(db, game.id, game.turn)
    since = records.seat_takeovers(db, game.id)
    seats: list[JSONObject] = []
    for seat in records.seats_of(db, game.id):
        if game.status == "over":
            orders = "over"
        elif seat.status == "robot":
            orders = "robot"
        elif seat.id in current:
            orders = "accepted"
        else:
            orders = "rejected" if seat.id in rejected else "none"
        seats.append(
            {
                "code": seat.code,
                "name": seat.name,
                "email": seat.email,
                "status": seat.status,
                "orders": orders,
                "final": bool(current.get(seat.id, {}).get("final", False)),
                "score": scores.get(seat.code, 0),
                "since_turn": since.get(seat.id),
            }
        )
    last = last_number(db, game.id)
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
        "turn_label": ruleset.turn_label(state) if state is not None else "waiting for players",
        "deadline": game.deadline,
        "created": game.created,
        "seats": seats,
        "standbys": records.waiting_standbys(db, game.id),
        "outcome": outcome.to_json() if outcome else None,
        "state": state if gm_secrets or state is None else census.without_schedule(state),
        **({"census": census.gm_census(state, last)} if gm_secrets and state is not None else {}),
    }


def census_lines(schedule: JSONObject | None) -> str:
    """The census schedule for `gm game show --gm-secrets`, in words."""
    if schedule is None:
        return "Census (secret): this ruleset holds no census."
    held = ", ".join(map(str, schedule["held"])) or "none yet"
    coming = [t for t in schedule["turns"] if t not in schedule["held"]][:6]
    return (
        f"Census (secret): held on turns {held}; next on turn {schedule['next']}; "
        f"then {', '.join(map(str, coming[1:]))}, ..."
    )


def gm_overview(db: sqlite_utils.Database) -> list[JSONObject]:
    """Every game as the GM sees it (game_facts without the state): seats in, missing, final,
    and its faults (gm/services/faults.py). A game whose ruleset fails to describe it is shown
    with that fault; the others as ever."""
    overview: list[JSONObject] = []
    for game in records.all_games(db):
        problems = faults.game_faults(db, game)
        try:
            facts = _facts(db, game) or _plain_facts(db, game, "waiting for players", "too few seats to start")
        except RulesetFault as fault:
            facts = _plain_facts(db, game, game.ruleset, "its ruleset failed")
            problems.append(str(fault))
        facts.pop("state", None)
        facts["held"] = game.held
        facts["problems"] = problems
        # Orders are awaited from the players' seats only: a robot's come when the turn runs, and
        # a seat that dropped out or resigned sends none.
        playing = [s for s in facts["seats"] if s["status"] == "active"]
        facts["counts"] = {
            "in": sum(s["orders"] == "accepted" for s in playing),
            "missing": sum(s["orders"] in ("none", "rejected") for s in playing),
            "final": sum(s["final"] for s in playing),
            "seats": len(playing),
            "robots": sum(s["status"] == ROBOT for s in facts["seats"]),
        }
        overview.append(facts)
    return overview


def _plain_facts(db: sqlite_utils.Database, game: GameRecord, title: str, label: str) -> JSONObject:
    """What the GM's page shows of a game without its state: its seats, nobody's orders in."""
    return {
        "name": game.name,
        "title": title,
        "status": game.status,
        "turn": game.turn,
        "turn_label": label,
        "deadline": game.deadline,
        "outcome": None,
        "seats": [
            {
                "code": s.code,
                "name": s.name,
                "email": s.email,
                "status": s.status,
                "orders": "robot" if s.status == ROBOT else "none",
                "final": False,
                "score": 0,
            }
            for s in records.seats_of(db, game.id)
        ],
    }


def _facts(db: sqlite_utils.Database, game: GameRecord) -> JSONObject | None:
    """game_facts, or None while the game has too few seats to make its starting state."""
    facts = game_facts(db, game.name)
    return facts if facts["state"] is not None else None
