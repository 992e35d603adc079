"""gm demo: play a whole game with robot seats and render every report."""

from __future__ import annotations

from typing import Annotated

import typer

from gm.cli.common import GameOptionsOption, clock, parse_options, within_reach
from gm.cli.progress import progress
from gm.cli.shown import echo
from gm.errors import GMError
from gm.home import create_home, resolve_home
from gm.services import demo as service
from gm.store.database import open_database


def demo(
    home: Annotated[
        str | None,
        typer.Option(
            "--home",
            metavar="DIR",
            help="The GM home for the demo (default: ./gm-demo): a new or empty folder, or a home of demos. "
            "A home with games that are not demos, or a folder of other files, is refused unless --force.",
        ),
    ] = None,
    ruleset: Annotated[str, typer.Option(help="The ruleset to demonstrate.")] = "clash",
    seed: Annotated[int, typer.Option(help="The game seed; the same seed plays the same game.")] = 1,
    seats: Annotated[
        int | None,
        typer.Option(
            callback=within_reach,
            help="How many robot seats (default: the ruleset's own, 4 for clash, 8 for conqueror).",
        ),
    ] = None,
    human: Annotated[
        str | None,
        typer.Option(
            help="Seat this e-mail address first, beside the robots, and stop before turn 1 so that player can send orders."
        ),
    ] = None,
    turns: Annotated[
        int | None,
        typer.Option(
            min=1,
            callback=within_reach,
            help="Stop after this many turns and leave the game running (to try 'gm serve').",
        ),
    ] = None,
    option: GameOptionsOption = None,
    mode: Annotated[
        str | None,
        typer.Option(help="Short for --option mode=MODE, for rulesets with modes (imperials: basic or wonders)."),
    ] = None,
    force: Annotated[
        bool,
        typer.Option("--force", help="Play the demo in --home even though it holds real games or other files."),
    ] = False,
) -> None:
    """Play a whole game with robot seats to the end and write every report (PDF and JSON)."""
    chosen = parse_options(option)
    if mode is not None:
        chosen["mode"] = mode
    where = resolve_home(home or "gm-demo")
    db = open_database(where.database) if where.database.exists() else None
    refused = None if force else service.refusal(where, db)
    if refused:
        raise GMError(
            f"{refused}. Give the demo a folder of its own (gm demo --home gm-demo), or add --force to play it there."
        )
    create_home(where)
    db = db or open_database(where.database)

    with progress(f"gm demo ({ruleset})") as step:
        result = service.play_demo(db, where, clock(), ruleset, seed, seats, step, turns, human, chosen)
    echo("")
    echo(
        f"Demo game {result.game} {'finished' if result.standings else 'stopped'} after {result.turns} turns: {result.outcome}"
    )
    if result.turns:
        echo(f"Reports ({result.pdfs} PDFs, one per seat per turn): {result.reports}")
    if human:
        echo(
            f"Your orders: gm orders template {result.game} {result.seat} --home {where.root} -o orders.txt; "
            f"fill in your secret, then gm submit orders.txt and gm turn run {result.game}."
        )
    if result.standings:
        echo(f"Final standings: {result.standings}")
    else:
        echo(f"Try the portal: gm serve --home {where.root}, and sign in with a seat's secret above.")
    echo(f"Look at the game: gm game show {result.game} --home {where.root}")
