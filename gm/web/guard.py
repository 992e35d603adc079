"""The portal's defences: CSRF tokens, the sign-in limiter, the secret vault, who is signed in."""
from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections import deque

from flask import abort, session
from werkzeug.exceptions import TooManyRequests


def csrf_token() -> str:
    """The session's CSRF token, made on first use; every form posts it back."""
    token = session.get("csrf")
    if not token:
        token = session["csrf"] = secrets.token_urlsafe(24)
    return token


def check_csrf(form_token: str | None) -> None:
    """Refuse a POST whose token is missing or differs from the session's (400)."""
    expected = session.get("csrf")
    if not expected or not form_token or not hmac.compare_digest(expected, form_token):
        abort(400, "This form has expired or did not come from this portal. Go back, reload the page and try again.")


def start_session(**who) -> None:
    """A fresh session for someone who just signed in: a new token, nothing kept from before."""
    zone = session.get("zone")
    session.clear()
    session.permanent = True
    session.update(who, csrf=secrets.token_urlsafe(24), sid=secrets.token_urlsafe(16))
    if zone:
        session["zone"] = zone


def refuse_if_blocked(limiter: SignInLimiter, *keys: str) -> None:
    """429 with Retry-After while any of the keys has used up its failed sign-ins."""
    wait = limiter.blocked(*keys)
    if wait:
        minutes = max(1, round(wait / 60))
        raise TooManyRequests(f"Too many failed sign-ins from here. Try again in about {minutes} minute(s).",
                              retry_after=int(wait) + 1)


class SignInLimiter:
    """Failed sign-ins per key (client address, seat, 'gm') in a sliding window; successes are free,
    so players who know their secret are never slowed by someone guessing."""

    def __init__(self, failures: int, window: float):
        self.failures, self.window = failures, window
        self._seen: dict[str, deque] = {}
        self._lock = threading.Lock()

    def blocked(self, *keys: str) -> float:
        """Seconds until one more attempt is allowed for every key; 0 when allowed now."""
        now = time.monotonic()
        wait = 0.0
        with self._lock:
            for key in keys:
                times = self._recent(key, now)
                if len(times) >= self.failures:
                    wait = max(wait, times[0] + self.window - now)
        return wait

    def failed(self, *keys: str) -> None:
        now = time.monotonic()
        with self._lock:
            for key in keys:
                self._recent(key, now).append(now)

    def _recent(self, key: str, now: float) -> deque:
        times = self._seen.setdefault(key, deque())
        while times and times[0] <= now - self.window:
            times.popleft()
        if len(self._seen) > 100_000:  # a flood of keys: forget the quiet ones
            self._seen = {k: v for k, v in self._seen.items() if v}
            self._seen.setdefault(key, times)
        return times


class SecretVault:
    """Seat secrets of signed-in sessions, in this process's memory only, so the portal can write
    the PASSWORD line for the player. Never in the cookie (signed is not secret), never on disk;
    gone at sign-out, after `seconds`, or when the server stops (the player then types it once)."""

    def __init__(self, seconds: float, size: int = 10_000):
        self.seconds, self.size = seconds, size
        self._kept: dict[str, tuple[str, float]] = {}
        self._lock = threading.Lock()

    def keep(self, sid: str, secret: str) -> None:
        with self._lock:
            if len(self._kept) >= self.size:
                self._kept.pop(next(iter(self._kept)))
            self._kept[sid] = (secret, time.monotonic() + self.seconds)

    def get(self, sid: str | None) -> str | None:
        with self._lock:
            secret, until = self._kept.get(sid or "", (None, 0.0))
            if secret is not None and until <= time.monotonic():
                del self._kept[sid]
                return None
            return secret

    def forget(self, sid: str | None) -> None:
        with self._lock:
            self._kept.pop(sid or "", None)
