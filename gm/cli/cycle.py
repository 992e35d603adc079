"""The weekly cycle: gm run-due, gm status, and the game commands for schedules and NMR.

The mail hooks of the cycle and the reminders are imported inside the functions that use them:
the other commands here (and every `gm game` command, which imports this module) would pay
about 11 ms of their start for them."""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer

from gm.cli.common import HomeOption, JsonOption, clock, echo_json, open_home, shown_option
from gm.cli.game import app as game_app
from gm.cli.progress import progress
from gm.cli.shown import echo
from gm.core.schedule import describe
from gm.home import Home
from gm.services import cycle, rundue
from gm.services.game_settings import SETTINGS, game_setting, set_game_setting
from gm.store import records


def run_due(
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Say what would be done; change nothing.")] = False,
    home: HomeOption = None,
) -> None:
    """Do everything that is due: reminders, turns whose deadline (plus grace) passed or that may
    run early, reports. Safe to run from cron every few minutes; a second run at once does nothing."""
    home_, db = open_home(home)
    with progress("gm run-due") as step:
        # Games are named as they are worked on only on a terminal; a log gets the summary below.
        report = rundue.run_due(
            db,
            home_,
            clock(),
            dry_run,
            hooks=_hooks(home_),
            progress=step if sys.stderr.isatty() else (lambda name: None),
        )
    for line in report.lines:
        echo(line)
    for problem in report.problems:
        echo(f"Warning: {problem}", err=True)
    if not report.lines and not report.problems:
        echo("Nothing is due.")
    if report.failed:
        echo(
            f"Error: {len(report.failed)} game(s) failed: {', '.join(report.failed)} (why: above, and in gm status); "
            "every other game ran. Fix what the warnings say; gm run-due tries them again each time it runs.",
            err=True,
        )
        raise typer.Exit(1)


def _hooks(home_: Home) -> rundue.Hooks | None:
    """Mail joins the cycle once gm.toml names the GM's address ([mail] address)."""
    if not home_.setting("mail", "address", ""):
        return None
    from gm.services.rundue_mail import MailHooks

    return MailHooks()


def status(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    home: HomeOption = None,
) -> None:
    """Every game at a glance: turn, deadline, seats in and missing, held, last run, problems."""
    _, db = open_home(home)
    rows = rundue.status(db, clock())
    if as_json:
        echo(json.dumps(rows, indent=2, sort_keys=True))
        return
    if not rows:
        echo("No games yet.")
    for row in rows:
        # A game over collects no turn: the one it names is the turn after its last.
        at = f"after turn {row['turn'] - 1}" if row["status"] == "over" else f"turn {row['turn']}"
        head = f"{row['game']} ({row['ruleset']}) {row['status']}, {at}"
        if row["held"]:
            head += ", HELD"
        echo(head)
        echo(
            f"  deadline: {row['deadline'] or 'none'}; schedule: {row['schedule']}; last run: {row['last_run'] or 'never'}"
        )
        echo(
            f"  in: {', '.join(row['in']) or '-'}; missing: {', '.join(row['missing']) or '-'}; "
            f"final: {', '.join(row['final']) or '-'}"
            + (f"; dropped: {', '.join(row['dropped'])}" if row["dropped"] else "")
        )
        for problem in row["problems"]:
            echo(f"  problem: {problem}")


@game_app.command("schedule")
def schedule(
    game: Annotated[str, typer.Argument(help="The game.")],
    phrase: Annotated[
        str, typer.Argument(help='e.g. "weekly on Friday at 18:00 Europe/London", "daily 20:00 UTC", "manual".')
    ],
    home: HomeOption = None,
) -> None:
    """Set a game's deadline schedule and print the next five deadlines."""
    _, db = open_home(home)
    sched, upcoming = cycle.set_schedule(db, clock(), game, phrase)
    if sched.manual:
        echo(f"{game}: manual; turns run only with 'gm turn run'.")
        return
    echo(f"{game}: {sched.text} (RRULE {sched.rrule}, {sched.zone})")
    for when in upcoming:
        echo(f"  {describe(when, sched.zone)}")


@game_app.command("hold")
def hold(game: Annotated[str, typer.Argument(help="The game.")], home: HomeOption = None) -> None:
    """Hold a game: gm run-due runs none of its turns until it is released."""
    _, db = open_home(home)
    cycle.set_held(db, clock(), game, True)
    echo(f"{game} is held.")


@game_app.command("release")
def release(game: Annotated[str, typer.Argument(help="The game.")], home: HomeOption = None) -> None:
    """Release a held game."""
    _, db = open_home(home)
    cycle.set_held(db, clock(), game, False)
    echo(f"{game} is released.")


@game_app.command("remind")
def remind(
    game: Annotated[str, typer.Argument(help="The game.")],
    seat: Annotated[
        list[str] | None,
        typer.Option("--seat", help="Only this seat (again for more); default: every seat without orders."),
    ] = None,
    home: HomeOption = None,
) -> None:
    """Mail a reminder now to the seats without orders for this turn (gm run-due still sends its own)."""
    from gm.services.reminders import remind_now

    home_, db = open_home(home)
    reminded = remind_now(db, home_, clock(), game, seat)
    echo(f"Reminded {', '.join(reminded)} of {game}; the mail is queued (gm mail send, or gm run-due, sends it).")


@game_app.command("absent")
def absent(
    game: Annotated[str, typer.Argument(help="The game.")],
    seat: Annotated[str, typer.Argument(help="The seat code.")],
    starts: Annotated[str, typer.Argument(help="From, e.g. 2026-12-20 or '2026-12-20 18:00 Europe/London'.")],
    ends: Annotated[str, typer.Argument(help="Until.")],
    home: HomeOption = None,
) -> None:
    """Record a player's absence (the game's absence-policy says what it does)."""
    _, db = open_home(home)
    start, end = cycle.add_absence(db, clock(), game, seat, starts, ends)
    g = records.game_by_name(db, game)
    echo(
        f"{seat.upper()} of {game} is away from {describe(start, cycle.zone_of(g))} "
        f"to {describe(end, cycle.zone_of(g))} ({game_setting(g, 'absence-policy')})."
    )


@game_app.command("standby")
def standby(
    game: Annotated[str, typer.Argument(help="The game.")],
    email: Annotated[str, typer.Argument(help="The standby player's e-mail address.")],
    name: Annotated[str, typer.Option(help="The standby player's name.")],
    home: HomeOption = None,
) -> None:
    """Add a standby player: the next seat that drops out or is left (resigned) is theirs at a turn run."""
    _, db = open_home(home)
    waiting = cycle.add_standby(db, clock(), game, email, name)
    echo(f"{name} <{email}> is standby number {waiting} for {game}.")


@game_app.command("set")
def set_setting(
    game: Annotated[str, typer.Argument(help="The game.")],
    name: Annotated[str, typer.Argument(help="The setting (see gm game settings).")],
    value: Annotated[str, typer.Argument(help="Its new value.")],
    home: HomeOption = None,
) -> None:
    """Change one of a game's settings."""
    _, db = open_home(home)
    parsed = set_game_setting(db, clock(), game, name, value)
    echo(f"{game}: {name.lower()} = {shown_option(parsed)}")  # yes/no, as the GM types it


@game_app.command("settings")
def settings(
    game: Annotated[str, typer.Argument(help="The game.")], as_json: JsonOption = False, home: HomeOption = None
) -> None:
    """List a game's settings, their values and what they do."""
    _, db = open_home(home)
    g = records.game_by_name(db, game)
    if as_json:
        echo_json([{"name": s.name, "value": game_setting(g, s.name), "help": s.help} for s in SETTINGS.values()])
        return
    width = max(len(name) for name in SETTINGS)
    for setting in SETTINGS.values():
        echo(f"{setting.name:<{width}} {shown_option(game_setting(g, setting.name)):<10} {setting.help}")
