"""gm serve: run the player portal."""
from __future__ import annotations

from typing import Annotated, Optional

import typer

from gm.cli.common import HomeOption, open_home
from gm.services.portal_access import gm_password_hash


def serve(
    host: Annotated[str, typer.Option(help="The address to listen on; keep 127.0.0.1 behind a TLS proxy.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="The port to listen on (0: any free port).")] = 8000,
    threads: Annotated[int, typer.Option(min=1, max=256, help="Requests served at once, per worker.")] = 8,
    workers: Annotated[Optional[int], typer.Option(
        min=1, max=64, show_default="one per CPU",
        help="Worker processes sharing the port (Python runs one core per process); 1 serves in this process.")] = None,
    home: HomeOption = None,
) -> None:
    """Run the player portal: players sign in, check and submit orders, read their reports."""
    from gm.web.server import Workers, default_workers, listening_socket, make_server

    home_, db = open_home(home)
    db.conn.close()
    workers = workers or default_workers()
    shown = f"[{host}]" if ":" in host else host
    if workers == 1:
        server = make_server(home_, host, port, threads)
        _started(home_, shown, server.effective_port, "")
        try:
            server.run()
        except KeyboardInterrupt:
            typer.echo("Stopped.")
        finally:
            server.close()
        return
    sock = listening_socket(host, port)
    try:
        pool = Workers(home_, sock, workers, threads)
        _started(home_, shown, sock.getsockname()[1], f", {workers} workers of {threads} threads")
        pool.run()
        typer.echo("Stopped.")
    finally:
        sock.close()


def _started(home, shown: str, port: int, how: str) -> None:
    typer.echo(f"gm portal for {home.root} at http://{shown}:{port}/  ({how.lstrip(', ') + '; ' if how else ''}"
               "Ctrl-C stops it)")
    if not gm_password_hash(home):
        typer.echo("No GM password yet: set one with 'gm portal password' to use the GM page (/gm).")
