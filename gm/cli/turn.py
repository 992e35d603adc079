"""gm turn: run, verify and re-run turns."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from gm.cli.common import HomeOption, clock, open_home
from gm.cli.orders import read_file
from gm.errors import GMError
from gm.services import publish, reports, turns
from gm.store import records

app = typer.Typer(help="Run, verify and re-run turns.", no_args_is_help=True)


def _resolved(summary) -> None:
    missing = f"; no orders from {', '.join(summary.without_orders)}" if summary.without_orders else ""
    typer.echo(
        f"{summary.game}: turn {summary.number} resolved, state {summary.state_hash[:12]}{missing}; "
        f"next: {summary.label}"
    )
    for notice in summary.notices:
        typer.echo(f"{summary.game}: {notice}")


def _published(done: publish.Published) -> None:
    if done.written is None:
        return
    typer.echo(f"Reports: {done.written.folder} ({len(done.written.files)} files)")
    if done.written.standings:
        typer.echo(f"Final standings: {done.written.standings}")
    if done.queued:
        typer.echo(f"Mail: {done.queued} report(s) queued; send them with 'gm mail send'.")
    if done.held:
        typer.echo(publish.held_text(done))
    for warning in publish.warnings(done):
        typer.echo(f"Warning: {warning}", err=True)


def publish_left_over(db, home_, game: str | None = None) -> None:
    """Every turn a crash (or --no-render) left unpublished, in every game, before anything new
    is resolved; one of `game` that cannot be published stops the command."""
    lines, problems = publish.publish_left_over(db, home_, clock())
    for line in lines:
        typer.echo(line)
    for problem in problems:
        if problem.startswith(f"{game}: "):
            raise GMError(f"{problem.removeprefix(f'{game}: ')} Nothing new was resolved.")
        typer.echo(f"Warning: {problem}", err=True)


@app.command("run")
def run(
    game: Annotated[str, typer.Argument(help="The game.")],
    render: Annotated[
        bool,
        typer.Option(
            help="Publish: render the reports and queue their mails. With --no-render "
            "the turn waits unpublished for the next gm turn run or gm run-due."
        ),
    ] = True,
    now: Annotated[
        bool,
        typer.Option(
            "--now",
            help="Run before the deadline although seats have not sent orders (they play by the nmr-policy setting).",
        ),
    ] = False,
    home: HomeOption = None,
) -> None:
    """Publish any turn left unpublished, resolve the turn being collected (seats without orders
    play by the nmr-policy setting), then render its reports and queue their mails. Before the
    deadline, with seats missing, it runs only with --now."""
    home_, db = open_home(home)
    missing = turns.missing_before_deadline(db, clock(), game)
    if missing and not now:
        due = records.game_by_name(db, game).deadline
        raise GMError(
            f"the deadline of '{game}' ({due}) has not passed and {len(missing)} seat(s) have "
            f"sent no orders: {', '.join(missing)}. Wait for them or the deadline, or run "
            "it now with --now (they play by the nmr-policy setting)."
        )
    if render:
        reports.prepare_render(home_)
        publish_left_over(db, home_, game)
    summary = turns.run_turn(db, home_, clock(), game)
    _resolved(summary)
    if render:
        _published(publish.publish(db, home_, clock(), game))
    if summary.over:
        typer.echo(f"{summary.game} is over.")


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
    number: Annotated[
        int, typer.Argument(help="The turn to run again; later turns are discarded (kept in the audit log).")
    ],
    orders: Annotated[
        list[Path] | None,
        typer.Option("--orders", help="A corrected turn file for that turn (no password needed); repeatable."),
    ] = None,
    render: Annotated[bool, typer.Option(help="Publish the turn (render the reports, queue their mails).")] = True,
    home: HomeOption = None,
) -> None:
    """Run turn N again after correcting orders, discarding the turns after it."""
    home_, db = open_home(home)
    corrections = [(str(p), read_file(p)) for p in orders or []]
    summary = turns.rerun_turn(db, home_, clock(), game, number, corrections)
    _resolved(summary)
    if render:
        _published(publish.publish(db, home_, clock(), game))
        publish_left_over(db, home_)
    if summary.over:
        typer.echo(f"{summary.game} is over.")
