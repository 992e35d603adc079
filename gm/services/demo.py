"""The demo: a whole game with robot seats, played to the end, every report rendered."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import sqlite_utils

from gm.clock import Clock
from gm.home import Home
from gm.rulesets import get_ruleset
from gm.services import games, reports, turns
from gm.store import records

_PLAYERS = ["Ada", "Brendan", "Chiara", "Dmitri", "Eun-ji", "Farid", "Greta", "Hugo"]


@dataclass(frozen=True)
class DemoResult:
    game: str
    turns: int
    outcome: str
    reports: Path
    standings: Path | None
    pdfs: int


def _free_name(db: sqlite_utils.Database, base: str) -> str:
    taken = {g.name for g in records.all_games(db)}
    if base not in taken:
        return base
    n = 2
    while f"{base}-{n}" in taken:
        n += 1
    return f"{base}-{n}"


def play_demo(db: sqlite_utils.Database, home: Home, clock: Clock, ruleset_name: str, seed: int, seat_count: int,
              progress: Callable[[str], None]) -> DemoResult:
    ruleset = get_ruleset(ruleset_name)
    name = _free_name(db, f"{ruleset.name}-demo")
    game = games.create_game(db, clock, name, ruleset.name, None, seed)
    for player in _PLAYERS[:seat_count]:
        code, _ = games.join_game(db, clock, name, f"{player.lower()}@demo.invalid", f"{player} (robot)")
        progress(f"Seated {player} (robot) as {code}")
    numbers = []
    while records.game_by_name(db, name).status != "over":
        summary = turns.run_turn(db, home, clock, name)
        numbers.append(summary.number)
        progress(f"Turn {summary.number} resolved; next: {summary.label}")
    progress(f"Rendering {len(numbers) * seat_count} reports...")
    written = reports.render_turns(db, home, name, numbers)
    state = games.current_state(db, records.game_by_name(db, name))
    outcome = ruleset.is_over(state)
    text = f"{', '.join(outcome.winners)} won: {outcome.reason}" if outcome else "not finished"
    pdfs = sum(1 for f in written.files if f.suffix == ".pdf" and f.name != "final.pdf")
    return DemoResult(name, len(numbers), text, home.reports / name, written.standings, pdfs)
