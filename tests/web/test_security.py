"""The portal's defences: cookies, CSRF, upload limits, sign-in limits, own reports only, escaping."""

from __future__ import annotations

import base64
import io
import re
import sqlite3
import zlib
from datetime import UTC, datetime, timedelta

import pytest
from werkzeug import formparser

from gm.clock import FixedClock
from gm.home import Home
from gm.services import portal_access
from gm.web.app import create_app
from tests.web.conftest import Player
from tests.web.test_portal import orders, submissions


def test_session_cookie_is_signed_httponly_samesite_and_holds_no_secret(player, game):
    player.sign_in("BR", game["BR"])
    cookie = next(c for c in player.client._cookies.values() if c.key == "gm_session")
    header = player.client.get("/").headers  # a page after sign-in
    payload = cookie.value.lstrip(".").split(".")[0]
    data = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))
    text = zlib.decompress(data) if cookie.value.startswith(".") else data
    assert game["BR"].encode() not in text
    first = Player(player.client.application.test_client())
    set_cookie = first.page.headers["Set-Cookie"]
    assert "HttpOnly" in set_cookie and "SameSite=Lax" in set_cookie
    assert header["Content-Security-Policy"].startswith("default-src 'none'")
    assert header["X-Frame-Options"] == "DENY" and header["Referrer-Policy"] == "no-referrer"


def test_a_tampered_cookie_signs_nobody_in(signed_in):
    cookie = next(c for c in signed_in.client._cookies.values() if c.key == "gm_session")
    signed_in.client.set_cookie("gm_session", cookie.value[:-3] + "AAA")
    assert "Sign in to your seat" in signed_in.get("/").text


@pytest.mark.parametrize("token", [None, "", "forged-token"])
def test_every_form_needs_its_csrf_token(signed_in, home, token):
    data = {"orders": orders("CLAIM ENG"), "action": "submit"}
    if token is not None:
        data["csrf"] = token
    page = signed_in.client.post("/orders", data=data)
    assert page.status_code == 400 and "This form has expired" in page.text
    assert submissions(home) == []
    for url in ("/sign-in", "/sign-out", "/zone", "/orders/final", "/link", "/gm/sign-in"):
        assert signed_in.client.post(url, data={"csrf": token or ""}).status_code == 400, url


def test_a_token_from_another_session_does_not_work(app, signed_in, home):
    stranger = Player(app.test_client())
    page = signed_in.client.post(
        "/orders", data={"csrf": stranger.token, "orders": orders("CLAIM ENG"), "action": "submit"}
    )
    assert page.status_code == 400 and submissions(home) == []


def test_uploads_are_limited_in_size_and_type(signed_in, home):
    huge = {"turn_file": (io.BytesIO(b"x" * 3_000_000), "big.txt"), "action": "check"}
    page = signed_in.post("/orders", huge, content_type="multipart/form-data")
    assert page.status_code == 413 and "a turn file may be at most 1,000,000 bytes" in page.text
    just_over = {
        "turn_file": (io.BytesIO(orders("CLAIM ENG").encode() + b"#" * 1_000_000), "br.txt"),
        "action": "submit",
    }
    page = signed_in.post("/orders", just_over, content_type="multipart/form-data")
    assert "the file is too large" in page.text
    image = {"turn_file": (io.BytesIO(b"\x89PNG\r\n\x1a\n"), "orders.png", "image/png"), "action": "submit"}
    page = signed_in.post("/orders", image, content_type="multipart/form-data")
    assert page.status_code == 400 and "is not a plain-text turn file" in page.text
    binary = {"turn_file": (io.BytesIO(b"GAME g1\x00\x01"), "br.txt", "text/plain"), "action": "submit"}
    assert "the file is not text" in signed_in.post("/orders", binary, content_type="multipart/form-data").text
    assert submissions(home) == []


def test_a_form_of_many_fields_or_bytes_is_refused_before_it_is_decoded(app, signed_in, home, gm, monkeypatch):
    """werkzeug decodes a urlencoded form whole and limits neither its fields nor its bytes: 2 MB
    of `a&a&...` held a form thread for 0.6-2 CPU-s (a million fields decoded) before the CSRF
    check refused it. Every POST route now answers such a form 413 without decoding it, and the
    portal's own largest forms still go through."""
    decoded = []
    real = formparser.parse_qsl
    monkeypatch.setattr(formparser, "parse_qsl", lambda *a, **k: decoded.append(1) or real(*a, **k))
    posts = sorted(rule.rule for rule in app.url_map.iter_rules() if "POST" in (rule.methods or ()))
    # The limits written out (MOST_URLENCODED_FIELDS, MOST_URLENCODED_BYTES): raised, they fail here.
    bodies = [b"a&" * 1_030_000, b"a&" * 1_000, b"a=" + b"%41" * (262_144 // 3 + 1)]
    for rule in posts:
        url = re.sub(r"<int:[^>]+>", "1", re.sub(r"<(?!int:)[^>]+>", "g1", rule))
        for body in bodies:
            page = signed_in.client.post(url, data=body, content_type="application/x-www-form-urlencoded")
            assert page.status_code == 413 and "That form is too large" in page.text, (url, len(body))
    assert decoded == []
    # The largest form the portal has: press of the most characters a game may take, at three
    # bytes each (90 kB percent-encoded); and an ordinary sign-in.
    assert gm("game", "set", "g1", "press-length", "10000", home=home).code == 0
    page = signed_in.post("/press", {"to": "RU", "text": "€" * 10_000})
    assert page.status_code == 200 and "Sent to RU." in page.text
    assert Player(app.test_client()).sign_in("RU", "x" * 500).status_code == 401
    assert decoded


def test_failed_sign_ins_are_limited_and_successes_are_not(app, game):
    player = Player(app.test_client())
    for _ in range(12):
        assert player.sign_in("BR", game["BR"]).status_code == 200
    for _ in range(10):
        assert player.sign_in("BR", "guess-guess-guess").status_code == 401
    page = player.sign_in("BR", game["BR"])
    assert page.status_code == 429 and "Too many failed sign-ins" in page.text
    assert int(page.headers["Retry-After"]) > 0


def test_seat_secrets_are_checked_in_constant_time_even_for_unknown_seats(home, game, monkeypatch):
    checked = []
    real = portal_access.check_secret
    monkeypatch.setattr(portal_access, "check_secret", lambda s, h: checked.append(h) or real(s, h))
    from gm.store.database import open_database

    db = open_database(home / "gm.db")
    verified = portal_access.VerifiedSecrets()
    assert portal_access.seat_sign_in(db, verified, "nope", "BR", game["BR"]) is None
    assert portal_access.seat_sign_in(db, verified, "g1", "XX", game["BR"]) is None
    assert portal_access.seat_sign_in(db, verified, "g1", "BR", game["BR"]) is not None
    assert portal_access.seat_sign_in(db, verified, "g1", "BR", game["BR"]) is not None  # remembered
    assert len(checked) == 3
    assert portal_access.seat_sign_in(db, verified, "g1", "BR", "wrong") is None and len(checked) == 4


@pytest.mark.slow
def test_nobody_reads_another_seats_report(signed_in, gm, home, game):
    signed_in.post("/orders", {"orders": orders("CLAIM ENG"), "action": "submit"})
    assert gm("credits", "buy", "ann@example.org", "1", "--paid", "2.50", home=home).code == 0  # not held
    assert gm("turn", "run", "g1", home=home).code == 0
    assert signed_in.get("/reports/g1/BR/1.pdf").status_code == 200
    assert signed_in.get("/reports/g1/BR/1.html").status_code == 200  # the seat's own turn kit
    for url in (
        "/reports/g1/RU/1.pdf",
        "/reports/g1/ru/1.json",
        "/reports/g1/BR/2.pdf",
        "/reports/g2/BR/1.pdf",
        "/reports/g1/RU/1.html",
        "/reports/g1/BR/2.html",
        "/reports/g1/BR/..%2F..%2Fgm.db",
        "/reports/g1/BR/1.pdf/../../RU/1.pdf",
    ):
        page = signed_in.get(url)
        assert page.status_code == 404, url
        assert b"%PDF" not in page.data
    stranger = Player(signed_in.client.application.test_client())
    assert stranger.get("/reports/g1/RU/1.pdf").status_code == 403


def test_player_text_is_always_escaped(app, gm, home, signed_in):
    assert gm("game", "new", "g2", "--seed", "3", home=home).code == 0
    ran = gm("game", "join", "g2", "x@example.org", "--name", "<script>alert(1)</script>", home=home)
    secret = ran.out.split("Secret for BR: ")[1].split()[0]
    evil = Player(app.test_client())
    page = evil.sign_in("BR", secret, "g2")
    assert page.status_code == 400 and "is waiting for the GM to seat more players" in page.text
    assert gm("game", "join", "g2", "y@example.org", "--name", "Y", home=home).code == 0
    page = evil.sign_in("BR", secret, "g2").text
    assert "<script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    text = orders("CLAIM <img src=x onerror=alert(2)>").replace("g1", "g2")
    page = evil.post("/orders", {"orders": text, "action": "check"}).text
    assert "<img" not in page and "&lt;img src=x onerror=alert(2)&gt;" in page
    page = signed_in.post(
        "/orders",
        {"turn_file": (io.BytesIO(b"GAME g1\n"), '"><b>x</b>.txt'), "action": "submit"},
        content_type="multipart/form-data",
    ).text
    assert "<b>x</b>" not in page


def test_a_new_secret_ends_sessions_made_with_the_old_one(signed_in, gm, home):
    ran = gm("game", "secret", "g1", "br", home=home)
    assert ran.code == 0 and ran.out.startswith("New secret for BR in g1: ")
    assert "Sign in to your seat" in signed_in.get("/").text
    new = ran.out.split(": ")[1].split()[0]
    assert "You are <strong>BR</strong>" in signed_in.sign_in("BR", new).text


def test_forged_and_expired_links_do_not_sign_in(home, game, gm):
    link = gm("portal", "link", "g1", "RU", "--minutes", "5", home=home).out.strip()
    token = link.rsplit("/", 1)[1]
    later = FixedClock(datetime.now(UTC) + timedelta(minutes=6))
    app = create_app(Home(home), later)
    player = Player(app.test_client())
    assert player.post("/link", {"token": token[:-2] + "xx"}).status_code == 401
    assert player.post("/link", {"token": token}).status_code == 401
    on_time = Player(create_app(Home(home)).test_client())
    assert "You are <strong>RU</strong>" in on_time.post("/link", {"token": token}).text


def test_a_seat_session_does_not_open_the_gm_page(signed_in):
    page = signed_in.get("/gm").text
    assert "Game master sign-in" in page and "ann@example.org" not in page


def test_cli_errors_are_one_line(gm, home, game):
    ran = gm("portal", "link", "g1", "XX", home=home)
    assert (ran.code, ran.err) == (1, "Error: game 'g1' has no seat 'XX'. Its seats: BR, RU, FR, GE.\n")
    ran = gm("portal", "link", "g1", "BR", "--base-url", "javascript:alert(1)", home=home)
    assert ran.code == 1 and "is not a web address" in ran.err
    ran = gm("game", "secret", "g9", "BR", home=home)
    assert ran.code == 1 and ran.err.startswith("Error: unknown game 'g9'.")
    assert sqlite3.connect(home / "gm.db").execute("SELECT COUNT(*) FROM portal_links").fetchone() == (0,)


def test_every_post_route_refuses_a_form_without_its_token(app, signed_in, home):
    """Every state-changing route of the portal, found in its URL map (a new one cannot be
    forgotten here): without the session's token, 400 and nothing stored."""
    posts = sorted(rule.rule for rule in app.url_map.iter_rules() if "POST" in (rule.methods or ()))
    assert len(posts) >= 18, posts
    for rule in posts:
        url = re.sub(r"<int:[^>]+>", "1", re.sub(r"<(?!int:)[^>]+>", "g1", rule))
        for token in (None, "forged-token"):
            data = {"csrf": token} if token else {}
            page = signed_in.client.post(url, data=data)
            assert page.status_code == 400 and "This form has expired" in page.text, (url, token)
    assert submissions(home) == []
    assert "You are <strong>BR</strong>" in signed_in.get("/").text  # not even signed out


def test_a_form_field_past_a_turn_file_and_64_kib_is_refused_before_it_is_held(signed_in, home):
    """A text field (the orders box) is held in memory whole: werkzeug stops one past
    [submissions] max_bytes and 64 KiB (MAX_FORM_MEMORY_SIZE) with 413, before any of it is read
    as orders; one within it is read, and a turn file too large is refused in words."""
    text = orders("CLAIM ENG")
    past = {"orders": text + "#" * (1_065_537 - len(text)), "action": "check"}
    page = signed_in.post("/orders", past, content_type="multipart/form-data")
    assert page.status_code == 413 and "a turn file may be at most 1,000,000 bytes" in page.text
    within = {"orders": text + "#" * (1_065_536 - len(text)), "action": "check"}
    page = signed_in.post("/orders", within, content_type="multipart/form-data")
    assert page.status_code == 400 and "the file is too large" in page.text
    assert submissions(home) == []
