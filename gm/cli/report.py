"""gm report: render reports again."""

from __future__ import annotations

from typing import Annotated

import typer

from gm.cli.common import HomeOption, clock, open_home, within_reach
from gm.cli.progress import progress
from gm.cli.shown import echo
from gm.core.words import counted
from gm.errors import GMError
from gm.services import publish
from gm.store import records

app = typer.Typer(help="Render reports.", no_args_is_help=True)


@app.command("render")
def render(
    game: Annotated[str, typer.Argument(help="The game.")],
    turn: Annotated[
        int | None, typer.Option(min=1, callback=within_reach, help="The turn (default: the last resolved turn).")
    ] = None,
    every: Annotated[bool, typer.Option("--all", help="Render every resolved turn.")] = False,
    home: HomeOption = None,
) -> None:
    """Render a turn's reports again: reports/<game>/<turn>/<seat>.pdf and .json.

    A turn never published (a crash cut it short) is published now: its report mails are queued."""
    home_, db = open_home(home)
    if every and turn is not None:
        raise GMError("give --turn or --all, not both.")
    g = records.game_by_name(db, game)
    resolved = records.resolved_turns(db, g.id)
    if not resolved:
        raise GMError(f"game '{g.name}' has not run a turn yet; there are no reports to render.")
    numbers = resolved if every else [turn if turn is not None else resolved[-1]]
    seats = len(records.seats_of(db, g.id))
    # One batch through the render pool, which tells nothing until it is done: a live line with
    # the time taken, not a bar that would only jump from empty to full.
    with progress(f"Rendering {counted(len(numbers) * seats, 'report')} of {counted(len(numbers), 'turn')}"):
        done = publish.publish(db, home_, clock(), game, numbers)
    written = done.written
    assert written is not None  # numbers is never empty: there was something to render
    echo(f"Rendered {counted(len(written.files), 'file')} into {written.folder}")
    if written.standings:
        echo(f"Final standings: {written.standings}")
    if done.turns:
        echo(
            f"Published {publish.turns_text(done.turns)} (never published before); {done.queued} report mail(s) queued."
        )
    for warning in publish.warnings(done):
        echo(f"Warning: {warning}", err=True)
