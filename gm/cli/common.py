"""What every command shares: the --home option, opening the home, the clock."""

from __future__ import annotations

import json
from typing import Annotated

import sqlite_utils
import typer

import gm.cli
from gm.cli.shown import in_json
from gm.clock import Clock, SystemClock
from gm.errors import GMError
from gm.home import Home, require_home, resolve_home
from gm.services import staff
from gm.store.acting import act_as
from gm.store.database import open_database

# The largest whole number SQLite keeps (a signed 64-bit integer). Every number a command takes is
# bounded by it (within_reach, below), or checked by its service (a seed), so that a number typed
# with too many digits gets a clear message, not an OverflowError from the database
# (tests/cli/test_numbers.py tries every one). What a number may be in the game (a seat count, a
# credit amount) the service checks and explains.
WHOLE_MAX = 2**63 - 1


def within_reach(value: int | list[int] | None) -> int | list[int] | None:
    """A number option's callback: one beyond WHOLE_MAX either way is refused in words. Not
    typer's max=, which prints the bound in every help text as [1<=x<=9223372036854775807]."""
    for number in value if isinstance(value, list) else [value]:
        if number is not None and abs(number) > WHOLE_MAX:
            raise typer.BadParameter(f"{number} has too many digits: no number gm keeps is that large.")
    return value


HomeOption = Annotated[
    str | None,
    typer.Option(
        "--home", metavar="DIR", help="The GM home folder (default: $GM_HOME, else ./gm-home).", show_default=False
    ),
]


GameOptionsOption = Annotated[
    list[str] | None,
    typer.Option(
        "--option",
        "-o",
        metavar="NAME=VALUE",
        show_default=False,
        help="A game option of the ruleset, as NAME=VALUE; repeat it for several "
        "('gm rules list' shows each ruleset's options).",
    ),
]


JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]


def echo_json(value: object) -> None:
    """What a list command prints with --json: stable keys, indented, UTF-8 as it is."""
    typer.echo(in_json(json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False)))


def parse_options(given: list[str] | None) -> dict[str, str]:
    """NAME=VALUE words from --option into a dict; a clear error for a word without '='."""
    chosen: dict[str, str] = {}
    for word in given or []:
        name, sep, value = word.partition("=")
        if not sep or not name.strip():
            raise GMError(f"--option takes NAME=VALUE, for example --option mode=wonders, not '{word}'.")
        chosen[name.strip().lower()] = value.strip()
    return chosen


def shown_option(value: object) -> str:
    """A game option's value as the GM typed it: yes/no for a switch."""
    return ("yes" if value else "no") if isinstance(value, bool) else str(value)


def open_home(option: str | None) -> tuple[Home, sqlite_utils.Database]:
    """(home, database) for a command, acting as the GM `gm --as` or GM_NAME named (else the
    owner); a clear error when the home does not exist or has no such GM."""
    home = require_home(resolve_home(option))
    db = open_database(home.database)
    actor = staff.actor_for(db, home, gm.cli.requested_gm)
    if actor.games is not None and _noun() not in FOR_SOME_GAMES:
        raise GMError(
            f"{actor.name} is a GM of some games only, and 'gm {_noun()}' works on the whole house: "
            "nothing was done. Ask the house's owner, or use the GM pages of the portal."
        )
    act_as(actor)
    return home, db


# What a GM limited to some games may run: the commands about one game (each action is refused
# on another game inside its own transaction: records.audit) and their own password and link.
FOR_SOME_GAMES = frozenset({"game", "turn", "orders", "report", "seat", "submit", "status", "audit", "portal", "gm"})


def _noun() -> str:
    """What the command running is, as typed after gm (game, inbox, ...)."""
    return gm.cli.requested_noun


# The one clock every command reads; tests replace it to move time (gm.clock.FixedClock).
CLOCK: Clock = SystemClock()


def clock() -> Clock:
    """The clock every command reads (CLOCK, as a test has set it)."""
    return CLOCK
