"""gm serve: run the player portal.

The portal's server is imported inside serve(): it brings the whole portal (about 0.1 s), which
`gm --help` would otherwise pay for."""

from __future__ import annotations

import ipaddress
from typing import Annotated

import typer

from gm.cli.common import HomeOption, open_home
from gm.cli.shown import echo
from gm.home import Home
from gm.services import staff


def serve(
    host: Annotated[
        str,
        typer.Option(
            help="The address to listen on (an address or a name); keep 127.0.0.1 behind a TLS proxy (docs/portal.md)."
        ),
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="The port to listen on (0: any free port).")] = 8000,
    threads: Annotated[
        int,
        typer.Option(
            min=1, max=64, help="Python threads answering forms, per worker (pages are made on its event loop)."
        ),
    ] = 2,
    workers: Annotated[
        int | None,
        typer.Option(
            min=1,
            max=64,
            show_default="one per CPU",
            help="Worker processes sharing the port (Python runs one core per process).",
        ),
    ] = None,
    home: HomeOption = None,
) -> None:
    """Run the player portal: players sign in, check and submit orders, read their reports."""
    from gm.web.server import default_workers, serve as run

    home_, db = open_home(home)
    can_sign_in = staff.any_password(db, home_)
    db.conn.close()
    workers = workers or default_workers()
    shown = f"[{host}]" if ":" in host else host
    how = f"{workers} worker{'s' if workers > 1 else ''} of {threads} thread{'s' if threads > 1 else ''}"
    run(
        home_,
        host,
        port,
        workers,
        threads,
        started=lambda address, port: _started(home_, shown, address, port, how, can_sign_in),
    )
    echo("Stopped.")


def _started(home: Home, shown: str, address: str, port: int, how: str, can_sign_in: bool) -> None:
    echo(f"gm portal for {home.root} at http://{shown}:{port}/  ({how}; Ctrl-C stops it)")
    if not ipaddress.ip_address(address.split("%")[0]).is_loopback:
        echo(
            "Players reach this address directly, without TLS: put a TLS proxy in front (see "
            "docs/portal.md), and set [portal] secure_cookies = true."
        )
    if not can_sign_in:
        echo("No GM password yet: set one with 'gm portal password' to use the GM page (/gm).")
