"""Serving the portal with waitress: a pure-Python, threaded WSGI server with bounded request sizes."""
from __future__ import annotations

from gm.clock import Clock
from gm.errors import GMError
from gm.home import Home
from gm.web.app import create_app


def make_server(home: Home, host: str, port: int, threads: int = 8, clock: Clock | None = None):
    """A waitress server for the portal of `home`, bound and ready; .run() serves, .close() stops.

    port 0 picks a free port: read it back from .effective_port.
    """
    from waitress import create_server

    app = create_app(home, clock)
    try:
        return create_server(app, host=host, port=port, threads=threads, ident="gm",
                             max_request_body_size=app.config["MAX_CONTENT_LENGTH"],
                             clear_untrusted_proxy_headers=True)
    except OSError as exc:
        raise GMError(f"cannot listen on {host}:{port} ({exc.strerror}). Choose another --port or --host.")
    except ValueError:
        raise GMError(f"cannot listen on {host}:{port}: not a host and port this machine has. "
                      "Use an address such as 127.0.0.1 and a port from 1 to 65535.")
