"""What every portal request shares (the `Portal`) and how a page is answered: below the app that
makes the Portal and the pages that use it, so both import it at the top."""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

import jinja2
import sqlite_utils
from flask import Flask, Response, current_app, session, url_for
from werkzeug.wsgi import ClosingIterator

from gm.clock import Clock
from gm.home import Home
from gm.services.guesses import SignInLimiter
from gm.services.portal_access import VerifiedSecrets
from gm.store.database import open_database
from gm.store.locks import HomeLock
from gm.web.guard import csrf_token
from gm.web.known_browsers import KnownBrowsers
from gm.web.sessions import SessionRegister

if TYPE_CHECKING:  # _typeshed is for type checkers only: it is not there at run time
    from _typeshed.wsgi import WSGIEnvironment


class PortalResponse(Response):
    """Flask's response; a page made in memory goes to the server as one list of bytes.

    WSGI lets an app answer with any iterable, and werkzeug wraps even a finished page in an
    iterator; granian then steps through it from Rust, chunk by chunk, holding the GIL, where a
    list is sent in one call. Streamed answers (report files) stay iterators."""

    def get_app_iter(self, environ: WSGIEnvironment) -> Iterable[bytes]:
        body = super().get_app_iter(environ)
        if not self.is_sequence:
            return body
        try:
            return list(body)
        finally:
            if isinstance(body, ClosingIterator):
                body.close()  # what the iterator would have done at its end: call_on_close functions


@dataclass
class Portal:
    """What every request shares: the home, the clock, templates, limits and the in-memory guards."""

    home: Home
    clock: Clock
    env: jinja2.Environment
    limiter: SignInLimiter
    verified: VerifiedSecrets
    max_bytes: int
    local: threading.local
    writing: HomeLock  # around each submission's write transaction, shared by the workers
    sessions: SessionRegister  # the signed-in sessions, shared by the workers: sign-out ends one everywhere
    known: KnownBrowsers  # browsers that signed in before, which strangers' failures do not hold up

    def db(self) -> sqlite_utils.Database:
        """This thread's connection (sqlite3 connections stay in the thread that made them)."""
        db: sqlite_utils.Database | None = getattr(self.local, "db", None)
        if db is None:
            db = self.local.db = open_database(self.home.database)
        return db


def portal() -> Portal:
    """The Portal of the app answering this request."""
    return portal_of(current_app)


def portal_of(app: Flask) -> Portal:
    """The Portal of an app create_app made (kept in its extensions)."""
    return cast(Portal, app.extensions["gm"])


def page(name: str, status: int = 200, **context: object) -> PortalResponse:
    """A page from templates/web (a GM may override it in $GM_HOME/templates/web)."""
    context.setdefault("signed_in", any(session.get(who) is not None for who in ("seat", "gm", "observer")))
    html = portal().env.get_template(f"web/{name}").render(csrf_token=csrf_token(), url_for=url_for, **context)
    return PortalResponse(html, status=status, mimetype="text/html")
