"""The gm command: one typer sub-app per noun; user errors print one line and exit 1."""

from __future__ import annotations

import sys
from importlib.metadata import version
from typing import Annotated

import typer

from gm.cli import (
    audit,
    backup,
    credits,
    cycle,
    demo,
    doctor,
    game,
    home,
    inbox,
    ledger,
    mail,
    orders,
    portal,
    press,  # noqa: F401  (adds gm game announce and gm game press)
    report,
    rules,
    seat,
    serve,
    signup,  # noqa: F401  (adds gm game slips and the waiting-list commands)
    submit,
    turn,
)
from gm.errors import GMError

app = typer.Typer(
    help="gm: a play-by-mail game-master toolkit. Start with 'gm demo', or 'gm init' for a GM home.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)


def _version(wanted: bool) -> None:
    if wanted:
        typer.echo(f"gm {version('gm')}")
        raise typer.Exit()


@app.callback()
def _root(
    show_version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print gm's version and exit.")
    ] = False,
) -> None:
    """gm: a play-by-mail game-master toolkit. Start with 'gm demo', or 'gm init' for a GM home."""


app.command("init")(home.init)
app.command("submit")(submit.submit)
app.command("demo")(demo.demo)
app.add_typer(game.app, name="game")
app.add_typer(orders.app, name="orders")
app.add_typer(turn.app, name="turn")
app.add_typer(report.app, name="report")
app.add_typer(rules.app, name="rules")
app.add_typer(inbox.app, name="inbox")
app.add_typer(mail.app, name="mail")
cycle.register(app)
app.command("serve")(serve.serve)
app.add_typer(portal.app, name="portal")
app.add_typer(credits.app, name="credits")
app.add_typer(ledger.app, name="ledger")
app.add_typer(seat.app, name="seat")
app.command("audit")(audit.audit)
app.command("backup")(backup.backup)
app.command("restore")(backup.restore)
app.command("doctor")(doctor.doctor)


def _plain_help(typer_app: typer.Typer) -> None:
    """Help texts are plain text: rich markup would swallow '[mail]' and every other gm.toml
    section named in square brackets."""
    typer_app.rich_markup_mode = None
    for group in typer_app.registered_groups:
        _plain_help(group.typer_instance)


_plain_help(app)


def main() -> None:
    try:
        app()
    except GMError as exc:
        typer.echo(f"Error: {exc}", err=True)
        sys.exit(1)
    except OSError as exc:
        # A path the GM named (an output file, a home, a certificate) that cannot be used.
        where = f" ({exc.filename})" if exc.filename else ""
        typer.echo(f"Error: {exc.strerror or exc}{where}. Check the path and its permissions.", err=True)
        sys.exit(1)
    except KeyboardInterrupt:
        typer.echo("Interrupted.", err=True)
        sys.exit(130)
