"""gm turn: run, verify and re-run turns."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import sqlite_utils
import typer

from gm.cli.common import HomeOption, clock, open_home, within_reach
from gm.cli.orders import read_file
from gm.cli.progress import working
from gm.cli.shown import echo
from gm.core.words import counted
from gm.errors import GMError
from gm.home import Home
from gm.services import publish, reports, turns
from gm.store import records

app = typer.Typer(help="Run, verify and re-run turns.", no_args_is_help=True)


def _resolved(summary: turns.TurnSummary) -> None:
    missing = f"; no orders from {', '.join(summary.without_orders)}" if summary.without_orders else ""
    echo(f"{summary.game}: turn {summary.number} resolved, state {summary.state_hash[:12]}{missing}; {summary.after}")
    for notice in summary.notices:
        echo(f"{summary.game}: {notice}")


def _published(done: publish.Published) -> None:
    if done.written is None:
        return
    echo(f"Reports: {done.written.folder} ({counted(len(done.written.files), 'file')})")
    if done.written.standings:
        echo(f"Final standings: {done.written.standings}")
    if done.queued:
        echo(f"Mail: {done.queued} report(s) queued; send them with 'gm mail send'.")
    if done.turns and not done.mailing:
        echo(
            "Mail: none: gm.toml has no [mail] address, so no report was mailed; the players can read them on "
            "the portal (gm serve). Set [mail] address (docs/mail.md) and the next turn's reports go by mail; a player gets "
            "the last one by mail with a RESEND turn file."
        )
    if done.observers:
        echo(f"Mail: {done.observers} mail(s) of the turn's public pages queued to its observers.")
    if done.held:
        echo(publish.held_text(done))
    for warning in publish.warnings(done):
        echo(f"Warning: {warning}", err=True)


def publish_left_over(db: sqlite_utils.Database, home_: Home, game: str | None = None) -> None:
    """Every turn a crash (or --no-render) left unpublished, in every game, before anything new
    is resolved; one of `game` that cannot be published stops the command."""
    problems: list[tuple[str, GMError]] = []
    warnings: list[str] = []
    lines = publish.publish_left_over(
        db, home_, clock(), failed=lambda name, error: problems.append((name, error)), warned=warnings.append
    )
    for line in lines:
        echo(line)
    for warning in warnings:
        echo(f"Warning: {warning}", err=True)
    for name, error in problems:
        if name == game:
            raise GMError(f"{error} Nothing new was resolved.")
        echo(f"Warning: {name}: {error}", err=True)


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
            help="Run before the deadline although seats have not sent orders, or in a game without a "
            "deadline although none has (they play by the nmr-policy setting).",
        ),
    ] = False,
    home: HomeOption = None,
) -> None:
    """Publish any turn left unpublished, resolve the turn being collected (seats without orders
    play by the nmr-policy setting), then render its reports and queue their mails. Before the
    deadline with seats missing, or without a deadline with no seat's orders in, it runs only
    with --now."""
    home_, db = open_home(home)
    records.game_by_name(db, game)  # an unknown game is named before anything is published
    with working(f"gm turn run {game}") as step:
        if render:
            reports.prepare_render(home_)
            step("publishing what is left unpublished")
            publish_left_over(db, home_, game)  # what a crash left is published, whether this run goes on or not
        refusal = None if now else turns.early_run_refusal(db, clock(), game)
        if refusal:
            raise GMError(refusal)
        step(f"resolving turn {records.game_by_name(db, game).turn}")
        summary = turns.run_turn(db, home_, clock(), game)
        _resolved(summary)
        if render:
            step(f"rendering turn {summary.number}'s reports and queueing their mails")
            _published(publish.publish(db, home_, clock(), game))
    if summary.over:
        echo(f"{summary.game} is over.")


@app.command("verify")
def verify(game: Annotated[str, typer.Argument(help="The game.")], home: HomeOption = None) -> None:
    """Re-resolve every stored turn from its stored orders and compare state hashes."""
    _, db = open_home(home)
    count, problems = turns.verify_turns(db, game)
    for problem in problems:
        echo(f"{game}: {problem}", err=True)
    if problems:
        raise typer.Exit(1)
    echo(f"{game}: {count} turn(s) verified, every state hash matches.")


@app.command("rerun")
def rerun(
    game: Annotated[str, typer.Argument(help="The game.")],
    number: Annotated[
        int,
        typer.Argument(
            min=1,
            callback=within_reach,
            help="The turn to run again; later turns are discarded (kept in the audit log).",
        ),
    ],
    reason: Annotated[
        str,
        typer.Option(
            help="Why, in a few words: the re-run turn's report mails tell the players, and the audit log keeps it."
        ),
    ],
    orders: Annotated[
        list[Path] | None,
        typer.Option("--orders", help="A corrected turn file for that turn (no password needed); repeatable."),
    ] = None,
    yes: Annotated[
        bool, typer.Option("--yes", help="Discard the later turns without asking (needed when not at a terminal).")
    ] = False,
    render: Annotated[bool, typer.Option(help="Publish the turn (render the reports, queue their mails).")] = True,
    home: HomeOption = None,
) -> None:
    """Run turn N again after correcting orders, discarding the turns after it: it says what it
    discards first, and asks (or needs --yes) when that is more than turn N."""
    home_, db = open_home(home)
    if not reason.strip():
        raise GMError("a re-run needs a reason the players can read: give --reason TEXT.")
    corrections = [(str(p), read_file(p)) for p in orders or []]
    plan = turns.discards(db, game, number)
    for line in _discarding(plan):
        echo(line)
    if plan.later and not yes:
        if not sys.stdin.isatty():
            raise GMError(
                f"re-running turn {number} discards turns after it; nothing was changed. Give --yes to do it."
            )
        if not typer.confirm(f"Run turn {number} of {game} again and discard the rest?", default=False):
            raise GMError("nothing was changed.")
    with working(f"gm turn rerun {game} {number}") as now:
        now(f"resolving turn {number} again")
        summary = turns.rerun_turn(db, home_, clock(), game, number, corrections, reason)
        _resolved(summary)
        if render:
            now(f"rendering turn {number}'s reports and queueing their mails")
            _published(publish.publish(db, home_, clock(), game))
            publish_left_over(db, home_)
    if summary.over:
        echo(f"{summary.game} is over.")


def _discarding(plan: turns.Discard) -> list[str]:
    """What a re-run throws away, in lines for the GM, before it does."""
    lines = [f"{plan.game}: turn {plan.number} is run again; its reports are made anew."]
    if plan.later:
        lines.append(
            f"{plan.game}: {publish.turns_text(plan.later)} will be discarded (kept in the audit log); "
            "their charges are given back, and they are played again when their time comes."
        )
    if plan.mailed:
        lines.append(
            f"{plan.game}: players already have the report mails of {publish.turns_text(plan.mailed)}; "
            f"the new turn {plan.number} report mails say it was run again, and why."
        )
    if plan.orders_of:
        lines.append(f"{plan.game}: the orders {', '.join(plan.orders_of)} sent for a later turn will no longer count.")
    return lines
