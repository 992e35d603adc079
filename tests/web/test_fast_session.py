"""The portal's session cookie: re-signed once a minute rather than on every response, with the
same flags, signature and server-side expiry as Flask's."""

from __future__ import annotations

import time

import pytest

from gm.home import Home
from gm.web.app import create_app
from gm.web.session_cookie import PortalSessionInterface
from tests.web.conftest import Player
from tests.web.test_link_mail import set_portal


@pytest.fixture
def later(monkeypatch):
    """later(s): every clock that signs and checks cookies (itsdangerous's and the portal's)
    reads s seconds after the test began. Until the first call it stands still at the start, a
    whole second (itsdangerous stamps whole seconds): ask for this fixture before signing in, so
    the cookie is stamped exactly then."""
    began = float(int(time.time()))
    monkeypatch.setattr(time, "time", lambda: began)
    return lambda seconds: monkeypatch.setattr(time, "time", lambda: began + seconds)


def _cookie_header(response) -> str | None:
    return next((v for k, v in response.headers.items() if k == "Set-Cookie" and v.startswith("gm_session=")), None)


def _with_cookie(player, value: str):
    """The first page for a browser holding this session cookie (and keeping no new one)."""
    client = player.client.application.test_client()
    client.set_cookie("gm_session", value)
    return client.get("/")


def test_a_fresh_cookie_is_not_sent_again_on_every_page(signed_in):
    assert _cookie_header(signed_in.get("/")) is None  # signed in a moment ago
    page = signed_in.client.get("/")
    assert "Sign out" in page.text and _cookie_header(page) is None
    assert page.headers["Vary"] == "Cookie"


def test_a_minute_old_cookie_is_signed_again_with_the_same_flags(later, signed_in):
    first = next(c for c in signed_in.client._cookies.values() if c.key == "gm_session").value
    later(61)
    header = _cookie_header(signed_in.client.get("/"))
    assert header is not None and header.split(";", 1)[0] != f"gm_session={first}"
    assert "HttpOnly" in header and "SameSite=Lax" in header and "Expires=" in header
    assert "Secure" not in header
    later(90)
    assert _cookie_header(signed_in.client.get("/")) is None  # the new cookie is 29 seconds old


def test_a_changed_session_is_sent_at_once(signed_in):
    page = signed_in.client.post("/zone", data={"csrf": signed_in.token, "zone": "Europe/Paris"})
    assert _cookie_header(page) is not None
    page = signed_in.client.post("/sign-out", data={"csrf": signed_in.token})
    assert _cookie_header(page).startswith("gm_session=;")  # deleted


def test_the_session_ends_a_lifetime_after_the_last_refresh(later, signed_in):
    hours = 12 * 3600
    later(hours - 30)
    assert "Sign out" in signed_in.get("/").text and _cookie_header(signed_in.page) is not None  # refreshed
    refreshed = _cookie_header(signed_in.page).split(";", 1)[0].removeprefix("gm_session=")
    later(2 * hours - 31)
    assert "Sign out" in _with_cookie(signed_in, refreshed).text  # a lifetime after the refresh, less a second
    later(2 * hours - 29)
    assert "Sign in to your seat" in _with_cookie(signed_in, refreshed).text  # checked on the server


def test_activity_within_the_minute_does_not_extend_the_session(later, signed_in):
    """The price of not re-signing every response: the session may end up to a minute early."""
    later(59)
    assert "Sign out" in signed_in.get("/").text and _cookie_header(signed_in.page) is None
    later(12 * 3600 + 2)
    assert "Sign in to your seat" in signed_in.get("/").text


def test_an_old_cookie_is_refused_even_if_the_browser_keeps_it(later, signed_in):
    later(12 * 3600 + 1)
    assert "Sign in to your seat" in signed_in.get("/").text


def test_secure_cookies_when_configured(home, game):
    set_portal(home, secure_cookies="true")
    player = Player(create_app(Home(home)).test_client())
    assert "Secure" in _cookie_header(player.page)


def test_the_serializer_is_made_once_per_key(app):
    sessions = app.session_interface
    assert isinstance(sessions, PortalSessionInterface)
    made = sessions.get_signing_serializer(app)
    assert sessions.get_signing_serializer(app) is made
    app.config["SECRET_KEY_FALLBACKS"] = [b"an older key"]
    assert sessions.get_signing_serializer(app) is not made
