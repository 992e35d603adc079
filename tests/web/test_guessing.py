"""Guessing a seat's secret or the GM's password is slow however many addresses one has, and cannot
lock the real player or GM out: per-address and per-seat (GM: all strangers together) limits, with a
budget of its own for a browser that signed in before, and one-time links that always work."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gm.errors import GMError
from gm.home import Home
from gm.web.app import create_app
from tests.web.conftest import GM_PASSWORD, Player
from tests.web.test_portal import orders, set_gm_password

COOKIE = "gm_known"  # the known-browser cookie (gm/web/known_browsers.py)


def from_address(app, address: str) -> Player:
    """A new browser at another client address."""
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return Player(client)


def guess_from_many_addresses(app, seat: str, guesses: int, game: str = "g1", first: int = 1) -> list[int]:
    """`guesses` wrong secrets at a seat, two from each of as many addresses as that takes."""
    return [
        from_address(app, f"203.0.113.{first + n // 2}").sign_in(seat, "guess-guess-guess", game).status_code
        for n in range(guesses)
    ]


def test_many_addresses_get_no_more_guesses_at_a_seat_than_one(app, game):
    # 10 addresses would have had 100 guesses at BR; now the seat has 10 for all strangers together.
    assert guess_from_many_addresses(app, "BR", 10) == [401] * 10
    page = from_address(app, "198.51.100.7").sign_in("BR", "guess-guess-guess")
    assert page.status_code == 429 and "Too many wrong secrets for this seat lately" in page.text
    assert int(page.headers["Retry-After"]) > 0
    # Even the right secret, from a browser that never signed in: it could be the guesser's.
    assert from_address(app, "198.51.100.8").sign_in("BR", game["BR"]).status_code == 429
    # Other seats are not held up, nor is an unknown seat told apart from a known one.
    assert from_address(app, "198.51.100.9").sign_in("RU", game["RU"]).status_code == 200
    assert guess_from_many_addresses(app, "XX", 11, first=50)[-1] == 429


def test_a_browser_that_signed_in_before_is_not_locked_out_by_strangers(app, game):
    own = from_address(app, "192.0.2.10")
    assert own.sign_in("BR", game["BR"]).status_code == 200
    own.post("/sign-out")
    assert COOKIE in {c.key for c in own.client._cookies.values()}  # the browser is known from now on
    guess_from_many_addresses(app, "BR", 20)
    assert own.sign_in("BR", game["BR"]).status_code == 200  # the player, at the player's browser
    own.post("/sign-out")
    # Its own budget: ten wrong secrets from this browser, and it waits too.
    assert [own.sign_in("BR", "typo-typo-typo").status_code for _ in range(10)] == [401] * 10
    page = own.sign_in("BR", game["BR"])
    assert page.status_code == 429 and "from this browser" in page.text


def test_a_known_browser_cookie_counts_only_for_its_seat_and_only_when_genuine(app, game):
    own = from_address(app, "192.0.2.10")
    assert own.sign_in("RU", game["RU"]).status_code == 200
    own.post("/sign-out")
    guess_from_many_addresses(app, "BR", 10)
    assert own.sign_in("BR", game["BR"]).status_code == 429  # known for RU, a stranger at BR
    known = next(c for c in own.client._cookies.values() if c.key == COOKIE).value
    forged = from_address(app, "192.0.2.11")
    forged.client.set_cookie(COOKIE, known.replace("RU", "BR"))
    assert forged.sign_in("BR", game["BR"]).status_code == 429


def test_a_one_time_link_signs_the_player_in_while_strangers_are_held_up(app, gm, home, game):
    guess_from_many_addresses(app, "BR", 10)
    token = gm("portal", "link", "g1", "BR", home=home).out.strip().rsplit("/", 1)[1]
    player = from_address(app, "203.0.113.1")  # even from a guesser's address
    assert "You are <strong>BR</strong>" in player.post("/link", {"token": token}).text
    player.post("/sign-out")
    # The browser is known now: the secret works there, whatever strangers do.
    assert player.sign_in("BR", game["BR"]).status_code == 200


def test_wrong_secrets_written_in_orders_on_the_portal_count_as_guesses(app, gm, home, game):
    token = gm("portal", "link", "g1", "BR", home=home).out.strip().rsplit("/", 1)[1]
    player = Player(app.test_client())
    player.post("/link", {"token": token})
    for _ in range(10):
        page = player.post(
            "/orders", {"orders": orders("CLAIM ENG").replace("<your secret>", "not-the-secret"), "action": "check"}
        )
        assert page.status_code == 400 and "wrong password" in page.text
    page = player.post(
        "/orders", {"orders": orders("CLAIM ENG").replace("<your secret>", game["BR"]), "action": "check"}
    )
    assert page.status_code == 429


def test_strangers_guesses_at_a_seat_do_not_hold_up_its_signed_in_player_whose_browser_forgot_it(app, game):
    """A signed-in session sends orders on its own word (no secret in the file: nothing guessed).
    A browser that kept the session but not gm_known (cleared, or past its twenty seats) was
    refused them with 429 while strangers guessed at the seat; a secret typed in is still a guess."""
    player = from_address(app, "192.0.2.10")
    assert player.sign_in("BR", game["BR"]).status_code == 200
    player.client.delete_cookie(COOKIE)
    assert guess_from_many_addresses(app, "BR", 10) == [401] * 10
    page = player.post("/orders", {"orders": orders("CLAIM ENG"), "action": "submit"})
    assert page.status_code == 200 and "<h2>Submitted</h2>" in page.text
    assert player.post("/orders/final").status_code == 200
    own_secret = orders("CLAIM ENG").replace("<your secret>", game["BR"])
    assert player.post("/orders", {"orders": own_secret, "action": "check"}).status_code == 429


@pytest.fixture
def gm_home(app, gm, home, game, monkeypatch):
    assert set_gm_password(gm, home, monkeypatch).code == 0
    return app


def gm_sign_in(player: Player, password: str):
    player.get("/gm")
    return player.post("/gm/sign-in", {"password": password})


def test_wrong_gm_passwords_from_anyone_do_not_lock_the_gm_out(gm_home):
    app = gm_home
    the_gm = from_address(app, "192.0.2.20")
    assert "<h1>Games</h1>" in gm_sign_in(the_gm, GM_PASSWORD).text
    the_gm.post("/sign-out")
    # Ten wrong passwords, one from each of ten addresses, then more: strangers are stopped ...
    for n in range(10):
        assert gm_sign_in(from_address(app, f"203.0.113.{n}"), "not the password").status_code == 401
    for n in range(10, 15):
        page = gm_sign_in(from_address(app, f"203.0.113.{n}"), "not the password")
        assert page.status_code == 429 and "Too many wrong GM passwords lately" in page.text
    # ... and the GM's own browser is not: the right password works at once, again and again.
    for _ in range(3):
        assert "<h1>Games</h1>" in gm_sign_in(the_gm, GM_PASSWORD).text
        the_gm.post("/sign-out")


def test_the_gm_browser_has_a_budget_of_its_own_and_one_address_its_own(gm_home):
    app = gm_home
    the_gm = from_address(app, "192.0.2.20")
    gm_sign_in(the_gm, GM_PASSWORD)
    the_gm.post("/sign-out")
    assert [gm_sign_in(the_gm, "not the password").status_code for _ in range(10)] == [401] * 10
    page = gm_sign_in(the_gm, GM_PASSWORD)
    assert page.status_code == 429 and "from this browser" in page.text
    guesser = from_address(app, "203.0.113.99")  # one address alone: stopped by its own limit
    assert "Game master sign-in" in guesser.get("/gm").text


def test_the_gm_signs_in_on_a_new_browser_with_a_one_time_link(gm_home, gm, home):
    app = gm_home
    for n in range(12):  # strangers have used up every new browser's tries
        gm_sign_in(from_address(app, f"203.0.113.{n}"), "not the password")
    ran = gm("portal", "link", "--gm", home=home)
    assert ran.code == 0 and "Works once" in ran.err
    token = ran.out.strip().rsplit("/", 1)[1]
    new_browser = from_address(app, "192.0.2.30")
    new_browser.get(f"/link/{token}")
    assert "<h1>Games</h1>" in new_browser.post("/link", {"token": token}).text
    new_browser.post("/sign-out")
    assert from_address(app, "192.0.2.31").post("/link", {"token": token}).status_code == 401  # once only
    assert "<h1>Games</h1>" in gm_sign_in(new_browser, GM_PASSWORD).text  # a known browser from now on
    # A new link voids the last one.
    first = gm("portal", "link", "--gm", home=home).out.strip().rsplit("/", 1)[1]
    second = gm("portal", "link", "--gm", home=home).out.strip().rsplit("/", 1)[1]
    assert from_address(app, "192.0.2.32").post("/link", {"token": first}).status_code == 401
    assert "<h1>Games</h1>" in from_address(app, "192.0.2.33").post("/link", {"token": second}).text


def test_gm_link_errors_are_one_line(gm, home, game):
    ran = gm("portal", "link", "--gm", home=home)
    assert (ran.code, ran.err) == (
        1,
        "Error: no GM password is set, so there is nothing to sign in to. Set one with 'gm portal password'.\n",
    )
    ran = gm("portal", "link", "g1", "BR", "--gm", home=home)
    assert ran.code == 1 and ran.err.startswith("Error: --gm makes the GM's own link")
    ran = gm("portal", "link", "g1", home=home)
    assert ran.code == 1 and ran.err.startswith("Error: give the game and the seat")


def behind_proxy(app, proxy: str, client: str) -> Player:
    """A browser at `client`, reaching the portal through a proxy at `proxy` that appends the
    client's address to X-Forwarded-For (as nginx's $proxy_add_x_forwarded_for does)."""
    browser = app.test_client()
    browser.environ_base.update(REMOTE_ADDR=proxy, HTTP_X_FORWARDED_FOR=f"10.9.9.9, {client}")
    return Player(browser)


def fail_at_other_seats(player: Player, times: int) -> list[int]:
    """Wrong secrets at as many different (unknown) seats: only the address limit can stop them."""
    return [player.sign_in(f"X{n}", "guess-guess-guess").status_code for n in range(times)]


def test_behind_a_trusted_proxy_the_address_limit_counts_each_client_not_the_proxy(app, game):
    # 127.0.0.1 is trusted by default ([portal] trusted_proxies): gm serve listens there behind a proxy.
    guesser = behind_proxy(app, "127.0.0.1", "203.0.113.66")
    assert fail_at_other_seats(guesser, 10) == [401] * 10
    page = guesser.sign_in("X99", "guess-guess-guess")
    assert page.status_code == 429 and "Too many failed sign-ins from here" in page.text
    # Another player through the same proxy, from a new browser, is not held up by the guesser.
    assert behind_proxy(app, "127.0.0.1", "198.51.100.20").sign_in("BR", game["BR"]).status_code == 200


def test_a_client_that_is_not_a_trusted_proxy_cannot_choose_its_address(app, game):
    # The same guesses from one untrusted address, each naming a new address in the header.
    guesses = [
        behind_proxy(app, "192.0.2.50", f"203.0.113.{n}").sign_in(f"X{n}", "guess-guess-guess").status_code
        for n in range(10)
    ]
    assert guesses == [401] * 10
    page = behind_proxy(app, "192.0.2.50", "198.51.100.21").sign_in("BR", game["BR"])
    assert page.status_code == 429 and "Too many failed sign-ins from here" in page.text


def test_trusted_proxies_are_the_gms_to_set_and_checked(home, game):
    settings = Path(home) / "gm.toml"
    text = settings.read_text(encoding="utf-8")
    # gm.toml as gm init writes it names the proxies already (loopback): change that line.
    trusted = re.compile(r"(?m)^trusted_proxies = .*$")
    assert trusted.search(text)
    settings.write_text(trusted.sub('trusted_proxies = ["10.0.0.0/8"]', text), encoding="utf-8")
    app = create_app(Home(home))
    # Loopback is no longer trusted: its forwarded header is ignored ...
    assert fail_at_other_seats(behind_proxy(app, "127.0.0.1", "203.0.113.7"), 10) == [401] * 10
    assert behind_proxy(app, "127.0.0.1", "203.0.113.8").sign_in("BR", game["BR"]).status_code == 429
    # ... and a proxy in 10.0.0.0/8 is trusted.
    assert behind_proxy(app, "10.1.2.3", "203.0.113.9").sign_in("BR", game["BR"]).status_code == 200
    settings.write_text(trusted.sub('trusted_proxies = ["nginx"]', text), encoding="utf-8")
    with pytest.raises(GMError, match=r"trusted_proxies holds 'nginx', which is not an address"):
        create_app(Home(home))


def test_the_addresses_of_one_ipv6_network_are_one_client(app, game):
    """An IPv6 client has a /64 (2**64 addresses) for the price of one: counted by address, it
    had 10 tries at every seat of the house. Now its /64 is one client, and a neighbour's is not."""
    codes = [f"X{n}" for n in range(10)]  # ten seats (unknown ones count alike): each seat's own limit stays unused
    pages = [
        from_address(app, f"2001:db8:5:6::{n + 1:x}").sign_in(code, "guess-guess-guess") for n, code in enumerate(codes)
    ]
    assert [p.status_code for p in pages] == [401] * 10
    page = from_address(app, "2001:db8:5:6:ffff::1").sign_in("Y1", "guess-guess-guess")
    assert page.status_code == 429 and "Too many failed sign-ins from here" in page.text
    assert from_address(app, "2001:db8:5:7::1").sign_in("RU", game["RU"]).status_code == 200  # the next /64
    # An IPv4 address written as IPv6 is that IPv4 client.
    pages = [from_address(app, "198.51.100.20").sign_in(f"Z{n}", "guess-guess-guess") for n in range(10)]
    assert from_address(app, "::ffff:198.51.100.20").sign_in("Z10", "guess-guess-guess").status_code == 429


def test_a_browser_is_known_for_its_twenty_newest_seats_and_its_cookie_stays_small(app):
    """The known-browser cookie names the seats it signed in to; past known_browsers.MOST (20)
    the oldest gives way, so a browser that signs in to many seats keeps a cookie browsers take
    (at most 4,096 bytes), and is still known for the seats it plays now."""
    from flask import request
    from werkzeug.wrappers import Response

    from gm.web.known_browsers import COOKIE, KnownBrowsers

    browsers = KnownBrowsers(b"k" * 32, secure=False)
    cookie = ""
    for n in range(25):  # five seats past the limit, written out: the limit may not set how many
        with app.test_request_context("/", headers={"Cookie": f"{COOKIE}={cookie}"} if cookie else {}):
            response = Response()
            browsers.remember(request, response, f"seat:game-number-{n:02d}/BR")
            cookie = response.headers["Set-Cookie"].split(";")[0].split("=", 1)[1]
    assert len(cookie) < 4096
    with app.test_request_context("/", headers={"Cookie": f"{COOKIE}={cookie}"}):
        known = [n for n in range(25) if browsers.known_for(request, f"seat:game-number-{n:02d}/BR")]
    assert known == list(range(5, 25))
