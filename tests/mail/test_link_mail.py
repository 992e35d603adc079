"""Mailed sign-in links through a real SMTP server (aiosmtpd): the delivered link signs in once,
and nothing a player's name or the portal's form holds can add a header or a recipient."""

from __future__ import annotations

import re
import sqlite3
from email import message_from_bytes, policy

import pytest

from gm.home import Home
from gm.web.app import create_app
from tests.intake.mails import configure, rows, set_mail_address
from tests.web.conftest import Player


@pytest.fixture
def smtp_home(home, game, smtp):
    set_mail_address(home)
    configure(home, smtp.settings())
    return game


def delivered_link(delivered) -> tuple[dict, str, str]:
    """(headers, body, token) of a delivered link mail."""
    message = message_from_bytes(delivered.content, policy=policy.default)
    body = message.get_content().replace("\r\n", "\n")
    token = re.search(r"^http://127\.0\.0\.1:8000/link/(\S+)$", body, re.M)[1]
    return message, body, token


def test_the_delivered_link_signs_in_once(home, gm, smtp_home, smtp):
    assert gm("portal", "link", "g1", "BR", "--mail", home=home).code == 0
    ran = gm("mail", "send", home=home)
    assert (ran.code, ran.out) == (0, "Sent 1 mail(s) over SMTP; 0 to try again; 0 failed.\n")
    [delivered] = smtp.handler.delivered
    assert delivered.rcpt_tos == ["ann@example.org"] and delivered.mail_from == "gm@example.org"
    message, body, token = delivered_link(delivered)
    assert message["To"] == "Ann <ann@example.org>" and message["Auto-Submitted"] == "auto-generated"
    assert message["Subject"] == "g1: your one-time sign-in link for BR"
    app = create_app(Home(home))
    player = Player(app.test_client())
    assert 'name="token"' in player.get(f"/link/{token}").text  # opening it uses nothing up
    assert "You are <strong>BR</strong>" in player.post("/link", {"token": token}).text
    again = Player(app.test_client())
    refused = again.post("/link", {"token": token})
    assert refused.status_code == 401 and "was used already" in refused.text
    assert rows(home, "SELECT status FROM outbox") == [("sent",)]


def test_run_due_sends_a_link_the_player_asked_for(home, gm, smtp_home, smtp):
    player = Player(create_app(Home(home)).test_client())
    player.get("/link-by-mail")
    assert "gm is sending a one-time sign-in link" in player.post("/link-by-mail", {"game": "g1", "seat": "ge"}).text
    ran = gm("run-due", home=home)
    assert ran.code == 0, ran.out + ran.err
    [delivered] = smtp.handler.delivered
    assert delivered.rcpt_tos == ["di@example.org"]
    _, body, token = delivered_link(delivered)
    assert "Someone, most likely you, asked the portal for a sign-in link for seat GE of g1." in body
    assert (
        "You are <strong>GE</strong>"
        in Player(create_app(Home(home)).test_client()).post("/link", {"token": token}).text
    )


def test_no_header_injection_through_a_name_or_the_form(home, gm, smtp_home, smtp):
    conn = sqlite3.connect(home / "gm.db")
    with conn:
        conn.execute(
            "UPDATE accounts SET name = ? WHERE email = 'ann@example.org'",
            ["Ann\r\nBcc: evil@example.net\r\nSubject: pwned"],
        )
    conn.close()
    player = Player(create_app(Home(home)).test_client())
    for game, seat in (
        ("g1\r\nBcc: evil@example.net", "BR"),
        ("g1", "BR\r\nBcc: evil@example.net"),
        ("g1", "BR\nCc: evil@example.net"),
    ):
        player.get("/link-by-mail")
        assert player.post("/link-by-mail", {"game": game, "seat": seat}).status_code == 200
    assert rows(home, "SELECT count(*) FROM outbox") == [(0,)]  # no such game or seat: nothing queued
    assert gm("portal", "link", "g1", "BR", "--mail", home=home).code == 0
    assert gm("mail", "send", home=home).code == 0
    [delivered] = smtp.handler.delivered
    assert delivered.rcpt_tos == ["ann@example.org"]
    head = delivered.content.split(b"\r\n\r\n", 1)[0].split(b"\r\n")
    assert b"To: ann@example.org" in head
    assert not [h for h in head if h.lower().startswith((b"bcc", b"cc"))]
    assert [h for h in head if h.startswith(b"Subject:")] == [b"Subject: g1: your one-time sign-in link for BR"]
    assert b"evil@example.net" not in delivered.content.split(b"\r\n\r\n", 1)[0]
