"""gm seat: players leaving a game (drop-outs and resignations)."""

from __future__ import annotations

from typing import Annotated

import typer

from gm.cli.common import HomeOption, clock, open_home
from gm.cli.shown import echo
from gm.services import seats

app = typer.Typer(help="Players leaving a game: resignations and drop-outs.", no_args_is_help=True)


@app.command("resign")
def resign(
    game: Annotated[str, typer.Argument(help="The game.")],
    seat: Annotated[str, typer.Argument(help="The seat code.")],
    forfeit: Annotated[bool, typer.Option("--forfeit", help="The player also forfeits every discount.")] = False,
    home: HomeOption = None,
) -> None:
    """A player resigns with the GM's pardon; from the next turn a standby takes the seat, else the robot plays it."""
    _, db = open_home(home)
    left = seats.resign(db, clock(), game, seat, forfeit)
    kept = "forfeits every discount" if forfeit else "keeps the discount"
    echo(f"{left.name} <{left.email}> resigned seat {left.code} of {game} and {kept}.")


@app.command("drop")
def drop(
    game: Annotated[str, typer.Argument(help="The game.")],
    seat: Annotated[str, typer.Argument(help="The seat code.")],
    home: HomeOption = None,
) -> None:
    """A player dropped out: every discount is forfeited, in every game; a standby takes the seat from the next turn."""
    _, db = open_home(home)
    left = seats.drop_out(db, clock(), game, seat)
    echo(f"{left.name} <{left.email}> dropped out of {game} (seat {left.code}) and forfeits every discount.")
