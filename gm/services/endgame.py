"""The end-of-game report, one per seat: final standings, how the game was won, the player's
discount and credits left over, and the return slip (11.5, 11.7)."""
from __future__ import annotations

from pathlib import Path

import sqlite_utils

from gm.core import ledger, victory
from gm.core.ledger import Position
from gm.core.prizes import PrizeTable
from gm.core.ruleset import Ruleset
from gm.home import Home
from gm.services import prizes
from gm.services.games import score_title
from gm.services.settings import game_setting
from gm.store.records import GameRecord, SeatRecord, TurnRecord

TEMPLATE = "endgame.html"


def position_at_end(db: sqlite_utils.Database, game: GameRecord, email: str) -> Position:
    """The account's credits and discount as of its last entry for this game (the game's end),
    so rendering the report again later gives the same figures."""
    row = db.execute(
        """SELECT COALESCE(SUM(l.credits), 0), COALESCE(SUM(l.discount), 0) FROM ledger l
           JOIN accounts a ON a.id = l.account_id WHERE a.email = ? AND l.id <= COALESCE(
           (SELECT MAX(m.id) FROM ledger m WHERE m.account_id = a.id AND m.game_id = ?), 0)""",
        [email, game.id]).fetchone()
    return Position(row[0], row[1])


def _awarded(db, game: GameRecord, email: str) -> int:
    row = db.execute("""SELECT COALESCE(SUM(l.discount), 0) FROM ledger l JOIN accounts a
                        ON a.id = l.account_id WHERE a.email = ? AND l.game_id = ?
                        AND l.kind IN ('discount award', 'adjustment') AND l.discount > 0""",
                     [email, game.id]).fetchone()
    return row[0]


def endgame_context(db: sqlite_utils.Database, game: GameRecord, ruleset: Ruleset, turn: TurnRecord,
                    seat: SeatRecord, seats: list[SeatRecord], table: PrizeTable) -> dict:
    outcome = ruleset.is_over(turn.state)
    view = ruleset.view(turn.state, seat.code)
    nations = {s.get("code"): s.get("nation", "") for s in view.get("seats", [])
               if isinstance(s, dict)}
    scores = ruleset.scores(turn.state)
    rows = sorted(({"seat": s.code, "name": s.name, "nation": nations.get(s.code, ""),
                    "score": scores.get(s.code, 0), "status": s.status} for s in seats),
                  key=lambda r: (-r["score"], r["seat"]))
    at_end = position_at_end(db, game, seat.email)
    record = turn.state.get(victory.STATE_KEY, {}) if isinstance(turn.state, dict) else {}
    return {
        "game": {"name": game.name, "title": view.get("title", ruleset.title), "ruleset": ruleset.name},
        "seat": seat.code, "player": seat.name, "email": seat.email,
        "nation": nations.get(seat.code, ""), "turns": turn.number, "created": turn.resolved,
        "outcome": outcome.to_json(), "scores": rows, "score_title": score_title(ruleset, turn.state),
        "won": seat.code in outcome.winners, "status": seat.status,
        "condition": record.get("condition") if isinstance(record, dict) else None,
        "discount": {"now": at_end.discount, "awarded": _awarded(db, game, seat.email),
                     "earned": prizes.earned_at_end(ruleset, turn.state, outcome, seats, table
                                                    ).get(seat.code, 0),
                     "table": table.to_json(),
                     "cap": ledger.MAX_DISCOUNT, "bonus_from": ledger.QUALIFYING},
        "credits": {"left": at_end.balance},
        "slip": {"days": game_setting(game, "slip-days"), "default": game_setting(game, "slip-default")},
    }


def add_jobs(db: sqlite_utils.Database, home: Home, env, game: GameRecord, ruleset: Ruleset,
             turn: TurnRecord, seats: list[SeatRecord], jobs: list, jsons: list) -> None:
    """Queue every seat's end-of-game report (reports/<game>/endgame/<seat>.pdf and .json)
    with the turn reports being rendered; called once the game is over."""
    from gm.render import RenderJob, base_url
    from gm.services.reports import _json_bytes

    folder = home.reports / game.name / "endgame"
    template = env.get_template(TEMPLATE)
    table = prizes.game_table(game, prizes.house_tables(home))
    for seat in seats:
        context = endgame_context(db, game, ruleset, turn, seat, seats, table)
        pdf: Path = folder / f"{seat.code}.pdf"
        jobs.append(RenderJob(template.render(context), base_url(), turn.resolved,
                              f"{game.name}/endgame/{seat.code}", pdf))
        jsons.append((folder / f"{seat.code}.json", _json_bytes(context)))

