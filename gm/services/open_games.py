"""The games open for sign-up, as the house shows them to anyone: the answer to a LIST mail
and the portal's front page. A private game (setting `private`) is never listed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sqlite_utils

from gm.core.model import JSONObject
from gm.home import Home
from gm.rulesets import installed
from gm.services.cycle import schedule_of
from gm.services.game_settings import game_setting
from gm.services.games import game_ruleset, game_seat_codes
from gm.services.house import paying
from gm.store import records
from gm.store.waiting import waiting_for

# At most this many games in one answer or page: a house with more says how many it left out.
MOST_LISTED = 50


@dataclass(frozen=True)
class OpenGame:
    """A game taking players, as a stranger may read it.

    name: what JOIN names. ruleset: the ruleset's name; title: its title (and the scenario's
    name). seats: how many seats the game has; free: how many are not taken yet; waiting:
    confirmed sign-ups not seated yet. schedule: the deadlines in the GM's words, "" while the
    GM has set none."""

    name: str
    ruleset: str
    title: str
    scenario: str
    seats: int
    free: int
    waiting: int
    schedule: str

    def to_json(self) -> JSONObject:
        return {
            "name": self.name,
            "ruleset": self.ruleset,
            "title": self.title,
            "scenario": self.scenario,
            "seats": self.seats,
            "free": self.free,
            "waiting": self.waiting,
            "schedule": self.schedule,
        }


@dataclass(frozen=True)
class Listing:
    """What the house lists: the open games (at most MOST_LISTED, by name), how many more it
    left out, and the price of a turn credit in the GM's words ("" when gm.toml sets none)."""

    games: tuple[OpenGame, ...]
    left_out: int
    price: str


def open_games(db: sqlite_utils.Database, home: Home, ruleset: str | None = None) -> Listing:
    """The games taking players (status open) that are not private, of one ruleset if given."""
    found = [
        game
        for game in records.all_games(db)
        if game.status == "open" and not game_setting(game, "private") and ruleset in (None, game.ruleset)
    ]
    found.sort(key=lambda game: game.name)
    shown = tuple(_open_game(db, game) for game in found[:MOST_LISTED])
    return Listing(shown, len(found) - len(shown), paying(home).price)


def _open_game(db: sqlite_utils.Database, game: records.GameRecord) -> OpenGame:
    rules, scenario = game_ruleset(game)
    seats = len(game_seat_codes(game, rules, scenario))
    taken = len(records.seats_of(db, game.id))
    schedule = schedule_of(game)
    return OpenGame(
        game.name,
        game.ruleset,
        rules.title,
        game.scenario_name,
        seats,
        max(seats - taken, 0),
        len([w for w in waiting_for(db, game.id, game.ruleset) if w.game == game.name]),
        schedule.text if schedule else "",
    )


def list_answer(db: sqlite_utils.Database, home: Home, ruleset: str | None) -> dict[str, Any]:
    """The result a LIST mail is answered with (templates/mail/acknowledgement.txt): the open
    games and the price, or refused for a ruleset gm does not have. Changes nothing."""
    names = sorted(installed())
    if ruleset is not None and ruleset not in names:
        return {
            "verdict": "refused",
            "reason": f"gm has no ruleset '{ruleset}' to list the games of; rulesets: {', '.join(names)}",
        }
    listing = open_games(db, home, ruleset)
    return {
        "verdict": "list",
        "ruleset": ruleset,
        "games": [game.to_json() for game in listing.games],
        "left_out": listing.left_out,
        "price": listing.price,
        "rulesets": names,
    }
