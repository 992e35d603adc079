"""gm turn: run, verify and re-run turns."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from gm.cli.common import HomeOption, clock, open_home
from gm.cli.orders import read_file
from gm.services import delivery, reports, turns

app = typer.Typer(help="Run, verify and re-run turns.", no_args_is_help=True)


def _publish(db, home_, summary, render: bool) -> None:
    missing = f"; no orders from {', '.join(summary.without_orders)}" if summary.without_orders else ""
    typer.echo(f"{summary.game}: turn {summary.number} resolved, state {summary.state_hash[:12]}{missing}; "
               f"next: {summary.label}")
    for notice in summary.notices:
        typer.echo(f"{summary.game}: {notice}")
    if render:
        written = reports.render_turn(db, home_, summary.game, summary.number)
        typer.echo(f"Reports: {written.folder} ({len(written.files)} files)")
        if written.standings:
            typer.echo(f"Final standings: {written.standings}")
        queued = delivery.queue_reports(db, home_, clock(), summary.game, summary.number)
        if queued:
            typer.echo(f"Mail: {queued} report(s) queued; send them with 'gm mail send'.")
    if summary.over:
        typer.echo(f"{summary.game} is over.")


@app.command("run")
def run(
    game: Annotated[str, typer.Argument(help="The game.")],
    render: Annotated[bool, typer.Option(help="Render the reports after the turn.")] = True,
    home: HomeOption = None,
) -> None:
    """Resolve the turn being collected (seats without orders play by the nmr-policy setting), then render reports."""
    home_, db = open_home(home)
    _publish(db, home_, turns.run_turn(db, home_, clock(), game), render)


@app.command("verify")
def verify(game: Annotated[str, typer.Argument(help="The game.")], home: HomeOption = None) -> None:
    """Re-resolve every stored turn from its stored orders and compare state hashes."""
    _, db = open_home(home)
    count, problems = turns.verify_turns(db, game)
    for problem in problems:
        typer.echo(f"{game}: {problem}", err=True)
    if problems:
        raise typer.Exit(1)
    typer.echo(f"{game}: {count} turn(s) verified, every state hash matches.")


@app.command("rerun")
def rerun(
    game: Annotated[str, typer.Argument(help="The game.")],
    number: Annotated[int, typer.Argument(help="The turn to run again; later turns are discarded (kept in the audit log).")],
    orders: Annotated[Optional[list[Path]], typer.Option("--orders", help="A corrected turn file for that turn (no password needed); repeatable.")] = None,
    render: Annotated[bool, typer.Option(help="Render the reports after the turn.")] = True,
    home: HomeOption = None,
) -> None:
    """Run turn N again after correcting orders, discarding the turns after it."""
    home_, db = open_home(home)
    corrections = [(str(p), read_file(p)) for p in orders or []]
    _publish(db, home_, turns.rerun_turn(db, home_, clock(), game, number, corrections), render)
