"""gm serve: run the player portal."""
from __future__ import annotations

from typing import Annotated

import typer

from gm.cli.common import HomeOption, open_home
from gm.services.portal_access import gm_password_hash


def serve(
    host: Annotated[str, typer.Option(help="The address to listen on; keep 127.0.0.1 behind a TLS proxy.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="The port to listen on (0: any free port).")] = 8000,
    threads: Annotated[int, typer.Option(min=1, max=256, help="Requests served at once.")] = 8,
    home: HomeOption = None,
) -> None:
    """Run the player portal: players sign in, check and submit orders, read their reports."""
    from gm.web.server import make_server

    home_, db = open_home(home)
    db.conn.close()
    server = make_server(home_, host, port, threads)
    shown = f"[{host}]" if ":" in host else host
    typer.echo(f"gm portal for {home_.root} at http://{shown}:{server.effective_port}/  (Ctrl-C stops it)")
    if not gm_password_hash(home_):
        typer.echo("No GM password yet: set one with 'gm portal password' to use the GM page (/gm).")
    try:
        server.run()
    except KeyboardInterrupt:
        typer.echo("Stopped.")
    finally:
        server.close()
