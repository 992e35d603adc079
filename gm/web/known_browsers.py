"""Browsers that signed in before: they may go on guessing after strangers are stopped.

Failed sign-ins are limited per client address and per seat (or, for the GM's password, for all
strangers together), so guessing one secret is slow however many addresses an attacker has. A limit
per seat would let anyone lock its player out by failing on purpose; so a browser that signed in
to a seat before (with the secret or a one-time link) carries a signed cookie saying so, and its
attempts at that seat are counted against that browser alone (the same number of failures per
window). Nobody can make such a cookie without signing in, and one cookie is one budget, however
many machines send it. (OWASP's "device cookies" against online guessing.)
"""

from __future__ import annotations

import secrets
import time
from datetime import timedelta

from flask import Request, g
from itsdangerous import BadSignature, URLSafeTimedSerializer
from werkzeug.wrappers import Response

COOKIE = "gm_known"
# The most seats (and the GM) one browser is remembered for; the oldest give way.
MOST = 20


class KnownBrowsers:
    """Reads and writes the known-browser cookie: a random id and the targets ('seat:GAME/SEAT',
    'gm') the browser signed in to, signed with the portal's key, kept `days` days from the last
    sign-in."""

    def __init__(self, key: bytes, secure: bool, days: int = 365):
        self.secure, self.days = secure, days
        self._serializer = URLSafeTimedSerializer(key, salt="gm-known-browser")

    def _read(self, request: Request) -> tuple[str, list[str], float] | None:
        """(browser id, targets, when signed) from a genuine cookie, read once per request."""
        if COOKIE not in request.cookies:
            return None
        if "gm_known" not in g:
            try:
                data, signed = self._serializer.loads(
                    request.cookies[COOKIE], max_age=self.days * 86400, return_timestamp=True
                )
                g.gm_known = str(data["id"]), [str(t) for t in data["targets"]], signed.timestamp()
            except (BadSignature, KeyError, TypeError, ValueError):
                g.gm_known = None
        found: tuple[str, list[str], float] | None = g.gm_known
        return found

    def known_for(self, request: Request, target: str) -> str | None:
        """The browser's id when it signed in to `target` before; None otherwise."""
        found = self._read(request)
        return found[0] if found and target in found[1] else None

    def remember(self, request: Request, response: Response, target: str) -> None:
        """After a sign-in to `target`: the browser is known for it from now on (the cookie is
        signed again when it gains a target, or at most once a day to keep it from expiring)."""
        browser, targets, signed = self._read(request) or (secrets.token_urlsafe(12), [], 0.0)
        if target in targets and time.time() - signed < 86400:
            return
        targets = [t for t in targets if t != target][-(MOST - 1) :] + [target]
        response.set_cookie(
            COOKIE,
            self._serializer.dumps({"id": browser, "targets": targets}),
            max_age=timedelta(days=self.days),
            httponly=True,
            samesite="Lax",
            secure=self.secure,
        )
