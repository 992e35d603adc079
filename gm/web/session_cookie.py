"""The portal's session cookie: Flask's signed cookie, made cheaper per request, equally safe."""

from __future__ import annotations

import time

from flask import Flask, Request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface, SessionMixin
from itsdangerous import BadSignature, URLSafeTimedSerializer


class PortalSession(SecureCookieSession):
    """A session as Flask keeps it, plus `signed_at`: when the cookie it came from was signed
    (seconds since the epoch), or None for a new session."""

    signed_at: float | None = None


class PortalSessionInterface(SecureCookieSessionInterface):
    """Flask's signed-cookie sessions (the same cookie, key, salt, flags and server-side `max_age`
    check), with two costs of every request taken away.

    Flask builds a new itsdangerous serializer on every open and every save; it depends only on
    the keys, so one is kept until they change.

    A permanent session's cookie is re-signed and sent again on every response, so that it
    expires `PERMANENT_SESSION_LIFETIME` after the last request. An unmodified session is now
    sent again only once its cookie is `refresh_after` seconds old: the session still ends a
    lifetime after the last activity, at most `refresh_after` seconds sooner, and a modified
    session (sign-in, sign-out, a new zone) is always sent at once.
    """

    session_class = PortalSession
    refresh_after = 60.0

    def __init__(self) -> None:
        self._serializer: tuple[tuple[str | bytes, ...], URLSafeTimedSerializer] | None = None

    def get_signing_serializer(self, app: Flask) -> URLSafeTimedSerializer | None:
        if not app.secret_key:
            return None
        keys: tuple[str | bytes, ...] = (*(app.config["SECRET_KEY_FALLBACKS"] or ()), app.secret_key)
        kept = self._serializer
        if kept is None or kept[0] != keys:
            made = super().get_signing_serializer(app)
            if made is None:  # (Flask makes none only without a key, which was looked at above)
                return None
            kept = self._serializer = (keys, made)
        return kept[1]

    def open_session(self, app: Flask, request: Request) -> PortalSession | None:
        # Flask's open_session, keeping the time the cookie was signed.
        serializer = self.get_signing_serializer(app)
        if serializer is None:
            return None
        value = request.cookies.get(self.get_cookie_name(app))
        if not value:
            return self.session_class()
        max_age = int(app.permanent_session_lifetime.total_seconds())
        try:
            data, signed = serializer.loads(value, max_age=max_age, return_timestamp=True)
        except BadSignature:
            return self.session_class()
        session = self.session_class(data)
        session.signed_at = signed.timestamp()
        return session

    def should_set_cookie(self, app: Flask, session: SessionMixin) -> bool:
        if session.modified:
            return True
        if not (session.permanent and app.config["SESSION_REFRESH_EACH_REQUEST"]):
            return False
        signed_at: float | None = getattr(session, "signed_at", None)  # a PortalSession's, as opened
        return signed_at is None or time.time() - signed_at >= self.refresh_after
