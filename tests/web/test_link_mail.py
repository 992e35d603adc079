"""The portal's 'get a sign-in link by mail' page: CSRF, one answer for every seat, rate limits."""

from __future__ import annotations

import re
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from gm.clock import FixedClock
from gm.errors import GMError
from gm.home import Home
from gm.web.app import create_app
from tests.intake.mails import rows, set_mail_address
from tests.web.chromium import browser_tests
from tests.web.conftest import Player

ANSWER = "If that game has that seat, gm is sending a one-time sign-in link to the mail address"
NO_MAIL = "This portal does not send mail, so it cannot send you a sign-in link."


def link_mails(home) -> list[tuple]:
    return rows(home, "SELECT recipient, seat, body FROM outbox WHERE kind = 'link' ORDER BY id")


def main_part(html: str) -> str:
    """The page's <main>, without the CSRF token (the same in one session anyway)."""
    return re.sub(r'value="[^"]*"', "", html.split("<main>", 1)[1])


def set_portal(home: Path, **values) -> None:
    """Set [portal] keys in gm.toml: replace the line gm init wrote, or add one."""
    path = home / "gm.toml"
    text = path.read_text()
    for key, value in values.items():
        line = re.search(rf"^{key} = .*$", text, re.M)
        text = (
            text.replace(line.group(0), f"{key} = {value}", 1)
            if line
            else text.replace("[portal]\n", f"[portal]\n{key} = {value}\n", 1)
        )
    path.write_text(text)


@pytest.fixture
def clock():
    return FixedClock(datetime.now(UTC))


@pytest.fixture
def mailing(home, game, clock):
    """A player on a portal whose home sends mail, on a clock the test moves."""
    set_mail_address(home)
    return Player(create_app(Home(home), clock).test_client())


def ask(player: Player, game="g1", seat="BR", address="127.0.0.1"):
    player.get("/link-by-mail")
    return player.client.post(
        "/link-by-mail", data={"csrf": player.token, "game": game, "seat": seat}, environ_base={"REMOTE_ADDR": address}
    )


def test_the_sign_in_page_leads_to_a_phone_sized_form_with_a_csrf_token(mailing):
    assert '<a href="/link-by-mail">' in mailing.page.text
    form = mailing.get("/link-by-mail").text
    assert mailing.page.status_code == 200
    assert 'action="/link-by-mail"' in form and 'name="csrf"' in form and "<script" not in form
    assert 'name="game"' in form and 'name="seat"' in form and 'name="secret"' not in form
    assert 'name="viewport" content="width=device-width, initial-scale=1"' in form


def test_a_real_seat_gets_a_link_that_signs_in_once(mailing, home, app):
    answer = ask(mailing, game=" G1 ", seat="br")
    assert answer.status_code == 200 and ANSWER in answer.text
    [(recipient, seat, body)] = link_mails(home)
    assert (recipient, seat) == ("ann@example.org", "BR")
    assert "Someone, most likely you, asked the portal for a sign-in link for seat BR of g1." in body
    token = re.search(r"^http://127\.0\.0\.1:8000/link/(\S+)$", body, re.M)[1]
    assert "You are <strong>BR</strong>" in Player(app.test_client()).post("/link", {"token": token}).text
    assert Player(app.test_client()).post("/link", {"token": token}).status_code == 401


def test_unknown_game_or_seat_reads_the_same_and_queues_nothing(mailing, home):
    known = ask(mailing)
    for game, seat in (
        ("g1", "XX"),
        ("g9", "BR"),
        ("", ""),
        ("g1", "BR\r\nBcc: evil@example.net"),
        ("<b>g1</b>", "<script>"),
    ):
        other = ask(mailing, game, seat)
        assert other.status_code == known.status_code == 200
        assert main_part(other.text) == main_part(known.text)
        assert "&lt;script&gt;" not in other.text and "<script>" not in other.text
    assert [(r, s) for r, s, _ in link_mails(home)] == [("ann@example.org", "BR")]


def test_robots_and_seats_that_left_get_no_mail(mailing, home, gm):
    assert gm("seat", "drop", "g1", "RU", home=home).code == 0
    assert ANSWER in ask(mailing, seat="RU").text
    conn = sqlite3.connect(home / "gm.db")
    with conn:
        conn.execute("UPDATE accounts SET email = 'robot@bots.invalid' WHERE email = 'cy@example.org'")
    conn.close()
    assert ANSWER in ask(mailing, seat="FR").text
    assert link_mails(home) == []


def test_no_csrf_token_no_mail(mailing, home):
    for data in ({"game": "g1", "seat": "BR"}, {"game": "g1", "seat": "BR", "csrf": "forged"}):
        refused = mailing.client.post("/link-by-mail", data=data)
        assert refused.status_code == 400 and "This form has expired" in refused.text
    assert link_mails(home) == []


def test_one_link_per_seat_in_ten_minutes(mailing, home, clock):
    assert ANSWER in ask(mailing).text
    clock.when += timedelta(minutes=9)
    assert ANSWER in ask(mailing).text  # the same answer, but no second mail yet
    assert ANSWER in ask(mailing, seat="GE").text  # another seat is not held up
    assert [s for _, s, _ in link_mails(home)] == ["BR", "GE"]
    clock.when += timedelta(minutes=2)
    ask(mailing)
    assert [s for _, s, _ in link_mails(home)] == ["BR", "GE", "BR"]


def test_a_gm_mailed_link_counts_too(mailing, home, gm):
    assert gm("portal", "link", "g1", "BR", "--mail", home=home).code == 0
    ask(mailing)
    assert len(link_mails(home)) == 1


def test_requests_per_client_address_are_limited(mailing, home, clock):
    seats = ["BR", "RU", "FR", "GE", "XX"]
    for n in range(10):  # the default: 10 in an hour from one address, found or not
        assert ask(mailing, seat=seats[n % 5]).status_code == 200
    refused = ask(mailing, seat="GE")
    assert refused.status_code == 429 and "Too many requests for sign-in links" in refused.text
    assert 0 < int(refused.headers["Retry-After"]) <= 3601
    assert ask(mailing, seat="GE", address="127.0.0.2").status_code == 200  # another client is not held up
    assert len(link_mails(home)) == 4  # one per real seat, whatever the number of requests


def test_the_limits_are_settings(home, game, clock):
    set_mail_address(home)
    set_portal(home, link_requests_per_hour=2, mailed_link_minutes=0)
    player = Player(create_app(Home(home), clock).test_client())
    assert ask(player).status_code == 200 and ask(player).status_code == 200
    assert ask(player).status_code == 429
    assert len(link_mails(home)) == 2  # mailed_link_minutes = 0: no per-seat limit


def test_a_home_without_mail_says_so_plainly(player, home):
    page = player.get("/link-by-mail")
    assert page.status_code == 200 and NO_MAIL in page.text and 'action="/link-by-mail"' not in page.text
    answer = player.post("/link-by-mail", {"game": "g1", "seat": "BR"})
    assert NO_MAIL in answer.text and ANSWER not in answer.text
    assert link_mails(home) == []


def test_the_pages_are_autoescaped(app):
    assert app.extensions["gm"].env.autoescape("web/link_request.html")


@pytest.fixture
def served_mailing(home, game, request):
    """`gm serve` (a real process) on a home that sends mail."""
    set_mail_address(home)
    return request.getfixturevalue("served")


# Slow, and skipped where Debian's chromium is not installed, as every browser test is.
@browser_tests[0]
@browser_tests[1]
def test_in_chromium_without_javascript_on_a_phone(served_mailing, home, browser):
    context = browser.new_context(java_script_enabled=False, viewport={"width": 360, "height": 740})
    page = context.new_page()
    page.goto(served_mailing + "/")
    page.click("text=Lost your secret? Get a sign-in link by mail")
    assert page.url == served_mailing + "/link-by-mail"
    page.fill("input[name=game]", "g1")
    page.fill("input[name=seat]", "fr")
    page.click("button:has-text('Mail me a link')")
    assert ANSWER in page.inner_text("main")
    # One column that fits the phone: nothing sticks out to the side.
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert [(r, s) for r, s, _ in link_mails(home)] == [("cy@example.org", "FR")]


def test_a_limit_below_one_is_a_clear_error(home, game, gm):
    set_portal(home, link_requests_per_hour=0)
    with pytest.raises(GMError, match=r"\[portal\] link_requests_per_hour must be 1 or more, not 0"):
        create_app(Home(home))


def test_the_addresses_of_one_ipv6_network_ask_as_one_client(mailing, home):
    """Ten link requests from a /64 use its hour, whichever of its 2**64 addresses they come from."""
    seats = ["BR", "RU", "FR", "GE", "XX"]
    for n in range(10):
        assert ask(mailing, seat=seats[n % 5], address=f"2001:db8:9:9::{n + 1:x}").status_code == 200
    refused = ask(mailing, seat="GE", address="2001:db8:9:9:abcd::1")
    assert refused.status_code == 429 and "Too many requests for sign-in links" in refused.text
    assert ask(mailing, seat="GE", address="2001:db8:9:a::1").status_code == 200  # the next /64 is another client


def test_a_stranger_at_the_players_address_cannot_use_up_her_browsers_link_requests(mailing, home, game):
    """link_requests_per_hour counted the client address alone: ten requests from whoever shares
    the player's address (a campus, a carrier's NAT) and her "Lost your secret?" was refused for
    an hour. A browser that signed in to the seat before counts against itself, as its guesses do."""
    assert mailing.sign_in("BR", game["BR"]).status_code == 200
    mailing.post("/sign-out")
    stranger = Player(mailing.client.application.test_client())
    for _ in range(10):
        assert ask(stranger, seat="RU").status_code == 200
    assert ask(stranger, seat="RU").status_code == 429  # from the address: its ten are spent
    assert ask(mailing, seat="BR").status_code == 200  # her browser, at the same address
    assert [(to, seat) for to, seat, _ in link_mails(home)][-1] == ("ann@example.org", "BR")
    # Her browser has ten of its own, at this seat only; at another it is a stranger at the address.
    assert ask(mailing, seat="RU").status_code == 429
    assert [ask(mailing, seat="BR").status_code for _ in range(9)] == [200] * 9
    refused = ask(mailing, seat="BR")
    assert refused.status_code == 429 and "Too many requests for sign-in links from this browser" in refused.text
