"""gm portal: the GM's password for the portal, one-time sign-in links for players."""

from __future__ import annotations

from typing import Annotated

import typer

from gm.cli.common import HomeOption, clock, open_home, within_reach
from gm.cli.shown import echo
from gm.cli.staff import read_password
from gm.errors import GMError
from gm.services import portal_access, portal_links, staff
from gm.store.acting import acting

app = typer.Typer(help="The player portal: the GM's password, one-time sign-in links.", no_args_is_help=True)


@app.command("password")
def password(home: HomeOption = None) -> None:
    """Set your portal password as the GM acting (the owner, unless gm --as or GM_NAME names another),
    asked twice or one line on standard input; the database keeps its hash ('gm gm password NAME' sets anyone's)."""
    home_, db = open_home(home)
    chosen = read_password(f"GM password ({staff.PASSWORD_LENGTH} characters or more)")
    account = staff.set_password(db, home_, clock(), None, chosen)
    echo(f"GM password set for {account.name} (the database keeps its scrypt hash). Sign in at /gm.")


@app.command("link")
def link(
    game: Annotated[str | None, typer.Argument(help="The game.", show_default=False)] = None,
    seat: Annotated[str | None, typer.Argument(help="The seat code.", show_default=False)] = None,
    base_url: Annotated[
        str | None, typer.Option(help="The portal's address (default: [portal] base_url in gm.toml).")
    ] = None,
    minutes: Annotated[
        int | None,
        typer.Option(min=1, callback=within_reach, help="How long the link works (default: [portal] link_minutes)."),
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
            help="A one-time link that signs you, the GM acting (gm --as), in to /gm "
            "(no game or seat): for a new browser while strangers' wrong passwords "
            "hold new browsers up.",
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
        url, expires = staff.make_link(db, home_, clock(), base_url, minutes)
        echo(url)
        echo(
            f"Works once, until {expires}; a new one voids it. Open it yourself: it signs in as {acting().name}.",
            err=True,
        )
        return
    if not game or not seat:
        raise GMError("give the game and the seat (or --gm for your own link): gm portal link GAME SEAT.")
    if mail:
        mailed = portal_links.mail_link(db, home_, clock(), game, seat, base_url, minutes)
        echo(
            f"Queued a one-time sign-in link for {mailed.seat} of {mailed.game} to {mailed.recipient} "
            f"(mail {mailed.outbox_id}); it works once, until {mailed.expires}."
        )
        echo("Send it with 'gm mail send' (or let 'gm run-due' send it).")
        return
    url, expires = portal_access.make_link(db, home_, clock(), game, seat, base_url, minutes)
    echo(url)
    echo(f"Works once, until {expires}. Send it to the player of {seat.upper()} only.", err=True)
