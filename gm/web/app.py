"""The portal's Flask app: its settings, pages, security headers and error pages."""

from __future__ import annotations

import logging
import sqlite3
import threading
from datetime import timedelta
from pathlib import Path

from flask import Flask, Response, g, request, session
from werkzeug.exceptions import HTTPException, TooManyRequests
from werkzeug.routing import IntegerConverter, Map

from gm.clock import Clock, SystemClock
from gm.errors import GMError
from gm.home import Home
from gm.render.environment import make_environment, shared_templates_dir
from gm.rulesets import RulesetFault
from gm.services import staff
from gm.services.guesses import sign_in_limiter
from gm.services.portal_access import VerifiedSecrets, portal_key
from gm.store.acting import begin_acting, end_acting
from gm.store.database import is_busy, open_database
from gm.store.locks import HomeLock
from gm.web import gm_desk, gm_pages, link_pages, observer_pages, player, press_pages, turn_pages
from gm.web.gm_pages import request_actor
from gm.web.known_browsers import KnownBrowsers
from gm.web.multipart import FormTooLarge, PortalRequest
from gm.web.portal import Portal, PortalResponse, page, portal
from gm.web.proxies import LOOPBACK, ClientAddress, trusted_networks
from gm.web.session_cookie import PortalSessionInterface
from gm.web.sessions import SessionRegister

log = logging.getLogger("gm.web")

_HEADERS = {
    # Scripts, styles and images only from here (the scripts are /zone.js and /handoff.js:
    # nothing inline, no eval), forms only to here, never in a frame.
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    # A one-time link in the address bar must not leak to another site.
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


class StoredNumber(IntegerConverter):
    """`<int:...>` in every portal address: at most SQLite's largest integer, so a number no
    record can have is 404 like any other that names nothing (a larger one reached SQLite and
    broke the request: 500)."""

    def __init__(
        self, map: Map, fixed_digits: int = 0, min: int | None = None, max: int | None = 2**63 - 1, signed: bool = False
    ) -> None:
        super().__init__(map, fixed_digits, min, max, signed)


def sessions_file(home: Home) -> Path:
    """Where the signed-in sessions are recorded, for every worker of `gm serve` on this home to share."""
    return home.root / "portal-sessions.db"


def create_app(home: Home, clock: Clock | None = None) -> Flask:
    """The portal for one GM home."""
    hours = home.setting("portal", "session_hours", 12)
    max_bytes = home.setting("submissions", "max_bytes", 1_000_000)
    app = Flask(__name__, static_folder=None, template_folder=None)
    app.response_class = PortalResponse
    app.url_map.converters["int"] = StoredNumber  # before any route is added
    app.request_class = PortalRequest  # uploads without a regex compiled per request
    app.session_interface = PortalSessionInterface()  # a cookie re-signed once a minute, not per request
    app.config.update(
        SECRET_KEY=portal_key(home),
        SESSION_COOKIE_NAME="gm_session",
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_SECURE=home.setting("portal", "secure_cookies", False),
        PERMANENT_SESSION_LIFETIME=timedelta(hours=hours),
        # The text area and the file may each hold a whole turn file, and a little form besides.
        MAX_CONTENT_LENGTH=2 * max_bytes + 65_536,
        MAX_FORM_MEMORY_SIZE=max_bytes + 65_536,
    )
    app.extensions["gm"] = Portal(
        home=home,
        clock=clock or SystemClock(),
        env=make_environment(home.templates if home.templates.is_dir() else None, []),
        limiter=sign_in_limiter(home),
        verified=VerifiedSecrets(),
        max_bytes=max_bytes,
        local=threading.local(),
        writing=HomeLock(home.root / "portal-write.lock"),
        sessions=SessionRegister(sessions_file(home), hours * 3600),
        known=KnownBrowsers(app.config["SECRET_KEY"], secure=app.config["SESSION_COOKIE_SECURE"]),
    )
    trusted = trusted_networks(home.setting("portal", "trusted_proxies", LOOPBACK), str(home.settings_file))
    app.wsgi_app = ClientAddress(app.wsgi_app, trusted)  # type: ignore[method-assign]
    db = open_database(home.database)  # migrate once, before any request
    staff.adopt_owner_password(db, home)
    db.conn.close()
    app.register_blueprint(player.blueprint)
    app.register_blueprint(turn_pages.blueprint)
    app.register_blueprint(gm_pages.blueprint)
    app.register_blueprint(press_pages.blueprint)
    app.register_blueprint(gm_desk.blueprint)
    app.register_blueprint(observer_pages.blueprint)
    link_pages.register(app)
    app.add_url_rule("/portal.css", "css", stylesheet)
    app.add_url_rule("/zone.js", "zone_script", zone_script)
    app.add_url_rule("/handoff.js", "handoff_script", handoff_script)
    app.before_request(_ended_sessions_sign_out)
    app.before_request(_who_acts)
    app.teardown_request(_acted)
    app.after_request(_secure_headers)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(GMError, _gm_error)
    app.register_error_handler(RulesetFault, _ruleset_fault)
    app.register_error_handler(sqlite3.OperationalError, _busy)
    app.register_error_handler(Exception, _bug)
    return app


def stylesheet() -> Response:
    return _asset("portal.css", "text/css")


def zone_script() -> Response:
    """The portal's time-zone script (templates/web/zone.js): the browser's time zone."""
    return _asset("zone.js", "text/javascript")


def handoff_script() -> Response:
    """The turn kit's hand-over (templates/web/handoff.js): the turn file a kit's link carries
    put into the orders box once the player is signed in."""
    return _asset("handoff.js", "text/javascript")


def _asset(name: str, mimetype: str) -> Response:
    """A file of templates/web, or the GM's override of it in $GM_HOME/templates/web."""
    override = portal().home.templates / "web" / name
    path = override if override.is_file() else Path(shared_templates_dir()) / "web" / name
    response = PortalResponse(path.read_bytes(), mimetype=mimetype)
    response.headers["Cache-Control"] = "max-age=3600"
    return response


def _ended_sessions_sign_out() -> None:
    """A signed-in cookie whose session has ended (signed out, or unused for session_hours)
    counts for nothing: the request goes on as nobody's."""
    sid = session.get("sid")
    if sid is not None and not portal().sessions.alive(sid):
        session.clear()


def _who_acts() -> None:
    """Every action of this request is the signed-in GM's in the audit log (a player's own when
    no GM is signed in), and a GM of some games is refused any other's there too."""
    g.acting = begin_acting(request_actor())


def _acted(_: BaseException | None) -> None:
    """Who acted before this request acts again (a thread answers many requests)."""
    token = g.pop("acting", None)
    if token is not None:
        end_acting(token)


def _secure_headers(response: Response) -> Response:
    """Adds each of _HEADERS the response does not set itself. (Headers.setdefault raises and
    catches a KeyError per missing header: a third of the cost of an empty response.)"""
    headers = response.headers
    present = {name.lower() for name, _ in headers}
    for name, value in _HEADERS.items():
        if name.lower() not in present:
            headers.add(name, value)
    return response


# How long a browser is asked to wait after meeting the database busy, in seconds.
BUSY_RETRY_AFTER = 30

_TITLES = {
    400: "That did not work",
    403: "Not yours",
    404: "Not here",
    405: "Not like that",
    413: "Too large",
    429: "Too many tries",
}


def _http_error(exc: HTTPException) -> Response:
    message = exc.description
    if exc.code == 413 and not isinstance(exc, FormTooLarge):
        message = (
            f"That upload is too large: a turn file may be at most "
            f"{portal().max_bytes:,} bytes. Send the orders as plain text."
        )
    elif exc.code == 404:
        message = "There is nothing at this address. Go back to your page."
    title = getattr(exc, "title", None) or _TITLES.get(exc.code or 500, "Error")
    response = page("error.html", exc.code or 500, title=title, message=message)
    if isinstance(exc, TooManyRequests) and exc.retry_after:
        response.headers["Retry-After"] = str(exc.retry_after)
    return response


def _gm_error(exc: GMError) -> Response:
    return page("error.html", 400, title="That did not work", message=str(exc)[:1].upper() + str(exc)[1:])


def _ruleset_fault(exc: RulesetFault) -> Response:
    """A game's ruleset raised on what was sent: the player is told it is the program's fault
    and nothing was stored; the GM finds the fault, for its author, in gm serve's log."""
    log.error("ruleset fault on %s %s: %s", request.method, request.path, exc)
    return page(
        "error.html",
        500,
        title="The game could not read that",
        message="The program that runs this game failed while reading what you sent: a fault in the "
        "program, not in your orders. Nothing was stored. Tell your GM: the portal's log says what went wrong.",
    )


def _busy(exc: sqlite3.OperationalError) -> Response:
    """The database stayed busy past its timeout (another gm command writing): 503, said plainly."""
    if not is_busy(exc):
        return _bug(exc)
    log.warning("portal: database busy on %s %s", request.method, request.path)
    response = page(
        "error.html",
        503,
        title="Busy",
        message="The game master's database is busy right now, so nothing you sent was stored. Try again in a minute.",
    )
    response.headers["Retry-After"] = str(BUSY_RETRY_AFTER)
    return response


def _bug(exc: Exception) -> Response:
    log.exception("portal bug on %s %s", request.method, request.path)
    return page(
        "error.html",
        500,
        title="Something broke",
        message="The portal hit a bug; nothing you sent was lost. Tell your GM what you did.",
    )
