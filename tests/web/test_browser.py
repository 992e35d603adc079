"""The portal in Debian's Chromium through Playwright, against `gm serve` on a loopback port."""

from __future__ import annotations

import io
import json
import os
import sys
from pathlib import Path

from tests.intake.mails import rows, set_mail_address
from tests.web.chromium import browser_tests
from tests.web.conftest import GM_PASSWORD

pytestmark = browser_tests


def sign_in(page, base, seat, secret):
    page.goto(base + "/")
    page.fill("input[name=game]", "g1")
    page.fill("input[name=seat]", seat)
    page.fill("input[name=secret]", secret)
    page.click("button:has-text('Sign in')")


def test_upload_fix_submit_final_and_read_the_report(page, served, game, gm, home, tmp_path):
    sign_in(page, served, "br", game["BR"])
    assert page.inner_text("p.who").startswith("You are BR, Ann.")
    bad = tmp_path / "br.txt"
    bad.write_text(f"GAME g1\nPLAYER BR\nPASSWORD {game['BR']}\nTURN 1\nCLAIM ENG\nFROBNICATE 3\nEND\n")
    page.set_input_files("input[name=turn_file]", str(bad))
    page.click("button[value=submit]")
    assert page.inner_text("#result h2") == "Stored, but not used"
    problem = page.inner_text("li.problem")
    assert problem.startswith("FROBNICATE 3") and "line 6: FROBNICATE is not an order" in problem
    # The text box now holds the file (secret hidden); fix the line there and check, then submit.
    text = page.input_value("#orders-text")
    assert "PASSWORD <your secret>" in text and game["BR"] not in page.content()
    page.fill("#orders-text", text.replace("FROBNICATE 3", "CLAIM SCO WAL"))
    page.click("button[value=check]")
    assert page.inner_text("#result h2") == "Checked: no problems"
    page.click("button[value=submit]")
    assert page.inner_text("#result h2") == "Submitted"
    page.click("#mark-final")
    assert "marked final" in page.inner_text("#result")
    assert "final" in page.inner_text("#my-orders")
    assert page.locator("#history tr.counts").count() == 1
    assert gm("credits", "buy", "ann@example.org", "1", "--paid", "2.50", home=home).code == 0  # nothing held
    assert gm("turn", "run", "g1", home=home).code == 0
    page.goto(served + "/")
    assert "Turn 2:" in page.inner_text("#status")
    with page.expect_download() as download:
        page.click("a[href='/reports/g1/BR/1.pdf']")
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    assert saved.name == "g1-turn1-BR.pdf"
    assert saved.read_bytes() == (home / "reports" / "g1" / "1" / "BR.pdf").read_bytes()
    report = page.request.get(served + "/reports/g1/BR/1.json")
    assert json.loads(report.body())["seat"] == "BR"


def test_attacks_from_a_signed_in_browser(page, served, game, gm, home):
    sign_in(page, served, "BR", game["BR"])
    assert gm("turn", "run", "g1", "--now", home=home).code == 0
    response = page.goto(served + "/reports/g1/RU/1.pdf")  # another seat's report, by editing the URL
    assert response.status == 404 and page.inner_text("h1") == "Not here"
    assert page.request.get(served + "/reports/g1/RU/1.json").status == 404
    # A form posted without the page's CSRF token (as another site would) changes nothing.
    posted = page.request.post(served + "/orders", multipart={"orders": "GAME g1\nEND\n", "action": "submit"})
    assert posted.status == 400
    # The session cookie is out of reach of scripts.
    assert page.evaluate("document.cookie") == ""
    cookie = next(c for c in page.context.cookies() if c["name"] == "gm_session")
    assert cookie["httpOnly"] and cookie["sameSite"] == "Lax"


def test_wrong_secrets_then_the_limit(page, served, game):
    for _ in range(10):
        sign_in(page, served, "BR", "not-the-secret")
        assert "do not match" in page.inner_text("p.refusal")
    sign_in(page, served, "BR", game["BR"])
    assert page.inner_text("h1") == "Too many tries"


def test_gm_page(page, served, game, gm, home, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO(GM_PASSWORD + "\n"))
    assert gm("portal", "password", home=home).code == 0
    page.goto(served + "/gm")
    page.fill("input[name=password]", GM_PASSWORD)
    page.click("button:has-text('Sign in')")
    assert page.inner_text("h1") == "Games"
    assert "Orders in 0 of 4, missing 4, final 0" in page.inner_text("#game-g1")
    assert page.locator("#game-g1 tbody tr").count() == 4


def test_press_sent_from_one_seat_page_is_read_on_another(browser, page, served, game, home, tmp_path):
    """Screenshots (both press sections, the sender's whole page) land in $GM_SCREENSHOT_DIR (or
    tmp) to look at."""
    set_mail_address(home)
    shots = Path(os.environ.get("GM_SCREENSHOT_DIR", tmp_path))
    sign_in(page, served, "br", game["BR"])
    page.check("#press input[value=FR]")
    page.check("#press input[value=GE]")
    page.fill("#press-text", "Shall we share Burgundy?\n\nI hold BUR and will not move.")
    page.click("#send-press")
    assert page.inner_text("#press .press-result").startswith("Sent to FR, GE.")
    assert "I hold BUR and will not move." in page.inner_text("#press .press-list")
    page.locator("#press").screenshot(path=str(shots / "press-sent.png"))
    page.screenshot(path=str(shots / "seat-page.png"), full_page=True)
    # Sent with nothing ticked: refused, and the message stays in the box.
    page.fill("#press-text", "To nobody")
    page.click("#send-press")
    assert "Not sent: choose whom the press is for" in page.inner_text("#press .press-result")
    assert page.input_value("#press-text") == "To nobody"
    reader = browser.new_context(viewport={"width": 420, "height": 900}).new_page()
    sign_in(reader, served, "fr", game["FR"])
    item = reader.inner_text("#press .press-list li")
    assert "From BR to you, GE" in item and "Shall we share Burgundy?\n\nI hold BUR" in item
    reader.locator("#press").screenshot(path=str(shots / "press-received.png"))
    assert rows(home, "SELECT kind, seat FROM outbox ORDER BY id") == [("press", "FR"), ("press", "GE")]
