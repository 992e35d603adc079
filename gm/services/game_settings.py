"""One game's settings (gm game set, gm game settings): what a GM may set, defaults and checks,
kept in the game's options. gm.toml is the home's settings (Home.settings; its mail sections
gm/mail/settings.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import sqlite_utils

from gm.clock import Clock, iso
from gm.errors import GMError
from gm.store import records
from gm.store.database import transaction
from gm.store.games import set_options
from gm.store.records import GameRecord


@dataclass(frozen=True)
class Setting:
    """One game setting: its name, default, the words it accepts and what it does."""

    name: str
    default: object
    help: str
    read: Callable[[str], object]


def _minutes(text: str) -> int:
    """'90', '90m', '2h', '1d' -> minutes."""
    text = text.strip().lower()
    units = {"m": 1, "h": 60, "d": 1440}
    number, unit = (text[:-1], units[text[-1]]) if text and text[-1] in units else (text, 1)
    if not (number.isascii() and number.isdigit()) or int(number) * unit > 366 * 1440:
        raise ValueError("a duration such as 90m, 2h or 1d, at most a year")
    return int(number) * unit


def _gap(text: str) -> str | int:
    """'auto' (half the schedule's shortest interval) or a duration in minutes, as _minutes reads it."""
    return "auto" if text.strip().lower() == "auto" else _minutes(text)


def _count(text: str) -> int:
    text = text.strip()
    if not (text.isascii() and text.isdigit()) or int(text) > 10_000:
        raise ValueError("a whole number from 0 to 10000")
    return int(text)


def _percent(text: str) -> int:
    value = _count(text.rstrip("%"))
    if value > 100:
        raise ValueError("a percentage from 0 to 100")
    return value


def _choice(*options: str) -> Callable[[str], str]:
    def read(text: str) -> str:
        if text.lower() not in options:
            raise ValueError(" or ".join(options))
        return text.lower()

    return read


def _between(low: int, high: int, things: str) -> Callable[[str], int]:
    """A whole number of `things` from low to high."""

    def parse(text: str) -> int:
        text = text.strip()
        if not (text.isascii() and text.isdigit()) or not low <= int(text) <= high:
            raise ValueError(f"a number of {things} from {low} to {high}")
        return int(text)

    return parse


def _flag(text: str) -> bool:
    if text.lower() in ("yes", "on", "true", "1"):
        return True
    if text.lower() in ("no", "off", "false", "0"):
        return False
    raise ValueError("yes or no")


def _prize(text: str) -> str | int:
    """A number of bonus turns, or 'house' for gm.toml's [discounts.RULESET], else the ruleset's."""
    if text.strip().lower() == "house":
        return "house"
    text = text.strip()
    if not (text.isascii() and text.isdigit()) or int(text) > 10:
        raise ValueError("a number of bonus turns from 0 to 10, or house")
    return int(text)


SETTINGS = {
    s.name: s
    for s in [
        Setting("grace", 0, "minutes after the deadline before the turn runs (90m, 2h, 1d)", _minutes),
        Setting("early-delay", 0, "once every active seat sent FINAL orders, wait this long, then run early", _minutes),
        Setting("early", True, "run early when every active seat has sent orders marked FINAL (yes/no)", _flag),
        Setting(
            "turn-gap",
            "auto",
            "after a turn runs, the next deadline is the schedule's first slot at least this long "
            "after (12h, 2d; auto: half the time between two slots)",
            _gap,
        ),
        Setting("reminder", 1440, "send reminders this long before the deadline to seats without orders", _minutes),
        Setting(
            "nmr-policy",
            "robot",
            "what a seat without orders plays: robot, repeat (last orders) or hold",
            _choice("robot", "repeat", "hold"),
        ),
        Setting("nmr-limit", 3, "missed turns in a row before a seat drops out (0: never)", _count),
        Setting("nmr-spike", 50, "refuse to run a turn when more than this percentage of seats sent nothing", _percent),
        Setting(
            "absence-policy",
            "standing",
            "an absent seat: standing (plays its last orders) or push (moves the deadline)",
            _choice("standing", "push"),
        ),
        Setting("absence-pushes", 1, "most deadline pushes one player's absences may cause in a game", _count),
        Setting(
            "discount-win",
            "house",
            "bonus turns a winner earns at the end (0-10; house: gm.toml, else the ruleset's)",
            _prize,
        ),
        Setting("discount-finish", "house", "bonus turns a seat that plays to the end earns (0-10 or house)", _prize),
        Setting(
            "discount-knockout",
            "house",
            "bonus turns a seat knocked out while still playing earns (0-10 or house)",
            _prize,
        ),
        Setting(
            "slip-days", 14, "days after the game's end before an unanswered return slip gets slip-default", _count
        ),
        Setting(
            "slip-default",
            "join",
            "an unanswered return slip: join (the next game, if credits are left; rule 11.5) or none",
            _choice("join", "none"),
        ),
        Setting(
            "press",
            "signed",
            "messages between players through gm: none, signed (they see the sender's seat) or anonymous",
            _choice("none", "signed", "anonymous"),
        ),
        Setting(
            "press-to",
            "any",
            "whom press may go to: any (one seat, several or all) or all (broadcast only)",
            _choice("any", "all"),
        ),
        Setting(
            "press-length", 5000, "most characters in one press message (1-10000)", _between(1, 10_000, "characters")
        ),
        Setting(
            "press-per-turn",
            50,
            "most press messages one seat sends in a turn (1-1000): more is flooding the others' mail",
            _between(1, 1000, "messages"),
        ),
        Setting(
            "private",
            False,
            "a private game is listed nowhere (LIST, the portal's front page); players JOIN it by its name (yes/no)",
            _flag,
        ),
        Setting(
            "gunboat",
            False,
            "hide who plays which seat: no player's name in any report, page or mail of the seats until "
            "the end (yes/no; only before the game starts)",
            _flag,
        ),
        Setting(
            "gunboat-reveal",
            True,
            "at a gunboat game's end, name the players in the final standings and end-of-game reports (yes/no)",
            _flag,
        ),
        Setting(
            "draw",
            "off",
            "a draw by secret ballot (DRAW in turn files): off, or all (every seat still playing votes DRAW "
            "in one turn)",
            _choice("off", "all"),
        ),
        Setting(
            "concede",
            "off",
            "a concession by secret ballot (CONCEDE SEAT in turn files): off, or all (every other seat "
            "still playing concedes to that seat in one turn)",
            _choice("off", "all"),
        ),
        Setting(
            "signups",
            "gm",
            "players who JOIN by mail: gm (the GM seats them: gm game seat-waiting) or auto (seated at once)",
            _choice("gm", "auto"),
        ),
    ]
}


# Settings that shape the starting position (gm.services.games.seat_infos): fixed once a game starts.
BEFORE_START = ("gunboat",)


def game_setting(game: GameRecord, name: str) -> Any:
    """A setting's value for a game: what the GM set, else the default. Of the setting's own kind
    (a number, a word, a flag: its `read`), as the game's options (JSON) hold it, hence Any."""
    return game.options.get(name, SETTINGS[name].default)


def set_game_setting(db: sqlite_utils.Database, clock: Clock, game_name: str, name: str, value: str) -> object:
    game = records.game_by_name(db, game_name)
    setting = SETTINGS.get(name.lower())
    if setting is None:
        raise GMError(f"unknown setting '{name}'. Settings: {', '.join(SETTINGS)}.")
    try:
        parsed = setting.read(value)
    except ValueError as exc:
        raise GMError(f"{setting.name} takes {exc}, not '{value}'.") from exc
    if setting.name in BEFORE_START and game.status != "open":
        raise GMError(
            f"{setting.name} can be set only before '{game.name}' starts: its starting position already "
            "holds the seats as they were named then."
        )
    options = dict(game.options, **{setting.name: parsed})
    with transaction(db):
        set_options(db, game.id, options)
        records.audit(db, iso(clock.now()), game.id, "setting", {"name": setting.name, "value": parsed})
    return parsed
