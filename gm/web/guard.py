"""The portal's defences: CSRF tokens, the sign-in limiter's refusals, who is signed in."""

from __future__ import annotations

import hmac
import secrets

from flask import abort, request, session
from werkzeug.exceptions import TooManyRequests

from gm.services.guesses import SignInLimiter, wait_words
from gm.web.known_browsers import KnownBrowsers
from gm.web.proxies import client_of
from gm.web.sessions import SessionRegister


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


def start_session(sessions: SessionRegister, who: str, **data: object) -> None:
    """A fresh session for someone who just signed in (`who`: 'seat:ID' or 'gm'), recorded on the
    server: a new id and token, nothing kept from before but the time zone; a session this browser
    had before ends."""
    zone, before = session.get("zone"), session.get("sid")
    if before is not None:
        sessions.end(before)
    session.clear()
    session.permanent = True
    session.update(data, csrf=secrets.token_urlsafe(24), sid=secrets.token_urlsafe(16))
    sessions.begin(session["sid"], who)
    if zone:
        session["zone"] = zone


def end_session(sessions: SessionRegister) -> None:
    """Sign out: the session ends on the server (every copy of its cookie stops working) and the
    cookie is emptied."""
    sid = session.get("sid")
    if sid is not None:
        sessions.end(sid)
    session.clear()


def guess_keys(known: KnownBrowsers, target: str) -> tuple[str, ...]:
    """What an attempt at `target` ('seat:GAME/SEAT' or 'gm') counts against: for a browser that
    signed in to it before, that browser alone; for any other, its client address and the target,
    which every stranger shares (so many addresses get no more guesses than one); an IPv6
    client by its /64 (proxies.client_of)."""
    browser = known.known_for(request, target)
    if browser is not None:
        return (f"browser:{browser}",)
    return (f"address:{client_of(request.remote_addr)}", target)


_ELSEWHERE = "A browser you signed in with before is not held up by this"
_BLOCKED = {
    "address": "Too many failed sign-ins from here.",
    "browser": "Too many failed sign-ins from this browser.",
    "seat": f"Too many wrong secrets for this seat lately, from anywhere. {_ELSEWHERE}; or ask for a "
    'one-time sign-in link by mail ("Lost your secret?" on the first page), which works at once.',
    "gm": f"Too many wrong GM passwords lately, from anywhere. {_ELSEWHERE}; on the server, "
    "'gm portal link --gm' makes a one-time link that signs you in here.",
}


def refuse_if_blocked(limiter: SignInLimiter, *keys: str) -> None:
    """429 with Retry-After, saying why, while any of the keys has used up its failed sign-ins."""
    waits = limiter.waits(*keys)
    if waits:
        key = max(waits, key=lambda k: waits[k])
        raise TooManyRequests(
            f"{_BLOCKED[key.split(':', 1)[0]]} Try again in {wait_words(waits[key])}.", retry_after=int(waits[key]) + 1
        )
