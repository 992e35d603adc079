"""The demo: a whole game with robot seats, played to the end, every report rendered."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import sqlite_utils

from gm.clock import Clock
from gm.core.words import counted
from gm.errors import GMError
from gm.home import Home
from gm.rulesets import get_ruleset
from gm.services import credits, games, publish, turns
from gm.store import records

_PLAYERS = [
    "Ada",
    "Brendan",
    "Chiara",
    "Dmitri",
    "Eun-ji",
    "Farid",
    "Greta",
    "Hugo",
    "Ines",
    "Jonas",
    "Kwame",
    "Lena",
    "Mateo",
    "Nadia",
    "Oskar",
    "Priya",
]


@dataclass(frozen=True)
class DemoResult:
    """A demo played: its game, how many turns ran, how it ended (or why it stopped), where its
    reports are, its final standings (None before the end), how many seat PDFs it wrote, and the
    seat the human took (None without --human)."""

    game: str
    turns: int
    outcome: str
    reports: Path
    standings: Path | None
    pdfs: int
    seat: str | None = None


# The robots' addresses: nothing is ever mailed to .invalid (RFC 2606).
ROBOT_DOMAIN = "@demo.invalid"


def refusal(home: Home, db: sqlite_utils.Database | None) -> str | None:
    """Why gm demo must not play in this home (db: its database, None when it has none): a
    house with games that are not demos would get a demo game among them, and a folder that
    holds other files and no home would get a home's folders and gm.toml spread into it."""
    if db is None:
        if home.root.is_dir() and any(home.root.iterdir()):
            return (
                f"{home.root} is a folder with files in it and no GM home: gm demo would make its folders "
                "and gm.toml there"
            )
        return None
    real = [game.name for game in records.all_games(db) if not _demo_game(db, game)]
    if real:
        shown = ", ".join(real[:5]) + (f" and {counted(len(real) - 5, 'more')}" if len(real) > 5 else "")
        return f"{home.root} is a GM home with games that are not demos ({shown}): gm demo would add a game to it"
    return None


def _demo_game(db: sqlite_utils.Database, game: records.GameRecord) -> bool:
    """A game gm demo made: robot seats (at .invalid addresses), and at most one person beside them (--human)."""
    robots = [seat.email.endswith(ROBOT_DOMAIN) for seat in records.seats_of(db, game.id)]
    return any(robots) and robots.count(False) <= 1


def demo_seats(ruleset_name: str) -> int:
    """How many robot seats the demo of a ruleset takes when the GM does not say."""
    return get_ruleset(ruleset_name).demo_seats


def _free_name(db: sqlite_utils.Database, base: str) -> str:
    taken = {g.name for g in records.all_games(db)}
    if base not in taken:
        return base
    n = 2
    while f"{base}-{n}" in taken:
        n += 1
    return f"{base}-{n}"


def play_demo(
    db: sqlite_utils.Database,
    home: Home,
    clock: Clock,
    ruleset_name: str,
    seed: int,
    seat_count: int | None,
    progress: Callable[[str], None],
    turn_limit: int | None = None,
    human: str | None = None,
    options: Mapping[str, object] | None = None,
) -> DemoResult:
    """Seat robot players, run turns to the end (or only turn_limit of them, leaving the game
    running), render every report. Each seat's secret is shown so the portal can be tried.
    human: an e-mail address seated first, beside the robots; the demo then runs no turn
    unless told, so that player sends the first orders by turn file.
    options: the ruleset's game options (NAME -> value), as for `gm game new --option`."""
    ruleset = get_ruleset(ruleset_name)
    seat_count = demo_seats(ruleset_name) if seat_count is None else seat_count
    if not 1 <= seat_count <= len(_PLAYERS):
        raise GMError(f"the demo seats 1 to {len(_PLAYERS)} robot players, not {seat_count}.")
    name = _free_name(db, f"{ruleset.name}-demo")
    games.create_game(db, clock, name, ruleset.name, None, seed, options)
    seat = None
    if human:
        player = human.split("@")[0] or "player"
        seat, secret = games.join_game(db, clock, name, human, player)
        progress(f"Seated you ({human}) as {seat}, secret {secret}")
        turn_limit = 0 if turn_limit is None else turn_limit
    for player in _PLAYERS[: seat_count - (1 if human else 0)]:
        code, secret = games.join_game(db, clock, name, f"{player.lower()}{ROBOT_DOMAIN}", f"{player} (robot)")
        progress(f"Seated {player} (robot) as {code}, secret {secret}")
    credits.prepare_demo(db, clock, name, progress)
    numbers: list[int] = []
    while records.game_by_name(db, name).status != "over":
        if turn_limit is not None and len(numbers) >= turn_limit:
            break
        summary = turns.run_turn(db, home, clock, name)
        numbers.append(summary.number)
        progress(f"Turn {summary.number} resolved; {summary.after}")
    if not numbers:
        return DemoResult(name, 0, "waiting for the first orders", home.reports / name, None, 0, seat)
    progress(f"Rendering {counted(len(numbers) * seat_count, 'report')}...")
    written = publish.publish(db, home, clock, name).written
    assert written is not None, "the turns just run are rendered"
    state = games.current_state(db, records.game_by_name(db, name))
    outcome = ruleset.is_over(state)
    text = f"{', '.join(outcome.winners)} won: {outcome.reason}" if outcome else "not finished"
    # One per seat per turn: not the final standings, nor the end-of-game reports beside them.
    pdfs = sum(1 for f in written.files if f.suffix == ".pdf" and f.parent.name.isdigit())
    return DemoResult(name, len(numbers), text, home.reports / name, written.standings, pdfs, seat)
