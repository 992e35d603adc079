"""gm portal: the GM's password for the portal, one-time sign-in links for players."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from gm.cli.common import HomeOption, clock, open_home
from gm.errors import GMError
from gm.services import portal_access, portal_links

app = typer.Typer(help="The player portal: the GM's password, one-time sign-in links.", no_args_is_help=True)


@app.command("password")
def password(home: HomeOption = None) -> None:
    """Set the GM's portal password (asked twice, or one line on standard input); gm.toml keeps its hash."""
    home_, _ = open_home(home)
    if sys.stdin.isatty():
        chosen = typer.prompt("GM password (10 characters or more)", hide_input=True, confirmation_prompt=True)
    else:
        chosen = sys.stdin.readline().rstrip("\r\n")
    if not chosen:
        raise GMError("no password given. Type it at the prompt, or pipe it in on one line.")
    portal_access.set_gm_password(home_, chosen)
    typer.echo(f"GM password set (its scrypt hash is in {home_.settings_file}). Sign in at /gm.")


@app.command("link")
def link(
    game: Annotated[str | None, typer.Argument(help="The game.", show_default=False)] = None,
    seat: Annotated[str | None, typer.Argument(help="The seat code.", show_default=False)] = None,
    base_url: Annotated[
        str | None, typer.Option(help="The portal's address (default: [portal] base_url in gm.toml).")
    ] = None,
    minutes: Annotated[
        int | None, typer.Option(help="How long the link works (default: [portal] link_minutes).")
    ] = None,
    mail: Annotated[
        bool,
        typer.Option(
            "--mail",
            help="Queue the link in the outbox to the seat's registered address "
            "(sent by 'gm mail send' or 'gm run-due') instead of printing it.",
        ),
    ] = False,
    for_gm: Annotated[
        bool,
        typer.Option(
            "--gm",
            help="A one-time link that signs you, the GM, in to /gm (no game or "
            "seat): for a new browser while strangers' wrong passwords hold "
            "new browsers up.",
        ),
    ] = False,
    home: HomeOption = None,
) -> None:
    """Print a one-time sign-in link for a seat, for the GM to send to the player; or mail it (--mail).
    With --gm, a link for the GM's own sign-in."""
    home_, db = open_home(home)
    if for_gm:
        if game or seat or mail:
            raise GMError("--gm makes the GM's own link: give no game, seat or --mail with it.")
        url, expires = portal_access.make_gm_link(home_, clock(), base_url, minutes)
        typer.echo(url)
        typer.echo(
            f"Works once, until {expires}; a new one voids it. Open it yourself: it signs in as the GM.", err=True
        )
        return
    if not game or not seat:
        raise GMError("give the game and the seat (or --gm for your own link): gm portal link GAME SEAT.")
    if mail:
        mailed = portal_links.mail_link(db, home_, clock(), game, seat, base_url, minutes)
        typer.echo(
            f"Queued a one-time sign-in link for {mailed.seat} of {mailed.game} to {mailed.recipient} "
            f"(mail {mailed.outbox_id}); it works once, until {mailed.expires}."
        )
        typer.echo("Send it with 'gm mail send' (or let 'gm run-due' send it).")
        return
    url, expires = portal_access.make_link(db, home_, clock(), game, seat, base_url, minutes)
    typer.echo(url)
    typer.echo(f"Works once, until {expires}. Send it to the player of {seat.upper()} only.", err=True)
