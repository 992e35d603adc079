"""Portal fixtures: the app on the clash game g1, a signed-in test client, and the real gm serve."""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gm.home import Home
from gm.web.app import create_app
from tests.web.chromium import browser, launched_browser, page  # noqa: F401 (fixtures for the browser tests)

GM_PASSWORD = "correct horse battery staple"


def csrf_of(html: str) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', html)[1]


class Player:
    """A Flask test client that remembers the last page's CSRF token."""

    def __init__(self, client):
        self.client = client
        self.page = client.get("/")
        self.token = csrf_of(self.page.text)

    def get(self, url):
        self.page = self.client.get(url)
        if self.page.mimetype == "text/html" and 'name="csrf"' in self.page.text:
            self.token = csrf_of(self.page.text)
        return self.page

    def post(self, url, data=None, follow=True, **kwargs):
        data = {"csrf": self.token, **(data or {})}
        self.page = self.client.post(url, data=data, follow_redirects=follow, **kwargs)
        if 'name="csrf"' in self.page.text:
            self.token = csrf_of(self.page.text)
        return self.page

    def sign_in(self, seat, secret, game="g1"):
        return self.post("/sign-in", {"game": game, "seat": seat, "secret": secret})


@pytest.fixture
def app(home, game):
    return create_app(Home(home))


@pytest.fixture
def player(app):
    return Player(app.test_client())


@pytest.fixture
def signed_in(player, game):
    """A test client signed in as BR of g1."""
    assert player.sign_in("BR", game["BR"]).status_code == 200
    return player


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def served(home, game):
    """`gm serve` on a loopback port in its own process; yields its address."""
    port = free_port()
    gm = Path(sys.executable).with_name("gm")
    process = subprocess.Popen(
        [str(gm), "serve", "--home", str(home), "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            if process.poll() is not None:
                raise RuntimeError(process.stdout.read()) from None
            time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    process.terminate()
    process.wait(timeout=10)
