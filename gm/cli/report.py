"""gm report: render reports again."""
from __future__ import annotations

from typing import Annotated, Optional

import typer

from gm.cli.common import HomeOption, open_home
from gm.errors import GMError
from gm.services import reports
from gm.store import records

app = typer.Typer(help="Render reports.", no_args_is_help=True)


@app.command("render")
def render(
    game: Annotated[str, typer.Argument(help="The game.")],
    turn: Annotated[Optional[int], typer.Option(help="The turn (default: the last resolved turn).")] = None,
    every: Annotated[bool, typer.Option("--all", help="Render every resolved turn.")] = False,
    home: HomeOption = None,
) -> None:
    """Render a turn's reports again: reports/<game>/<turn>/<seat>.pdf and .json."""
    home_, db = open_home(home)
    if every and turn is not None:
        raise GMError("give --turn or --all, not both.")
    numbers = None
    if every:
        g = records.game_by_name(db, game)
        numbers = [t.number for t in records.turns_of(db, g.id, 1)]
    elif turn is not None:
        numbers = [turn]
    written = reports.render_turns(db, home_, game, numbers)
    typer.echo(f"Rendered {len(written.files)} files into {written.folder}")
    if written.standings:
        typer.echo(f"Final standings: {written.standings}")
