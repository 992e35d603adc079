"""The GM's page in Chromium (through Playwright, against `gm serve` on a loopback port): every
action of issue 16 from a browser, at a desktop's width and a phone's."""

from __future__ import annotations

import io
import json
import sys

import pytest

from tests.intake.mails import mail, outbox_bodies, receive, set_mail_address, signed_up
from tests.web.chromium import DESKTOP, PHONE, browser_tests, screenshot
from tests.web.conftest import GM_PASSWORD

pytestmark = browser_tests


@pytest.fixture
def house(home, game, gm, monkeypatch):
    """Before the server starts: a GM password, the [mail] address, an open game c2 with three
    players waiting, and two questions mailed to the house."""
    set_mail_address(home)
    monkeypatch.setattr(sys, "stdin", io.StringIO(GM_PASSWORD + "\n"))
    assert gm("portal", "password", home=home).code == 0
    assert gm("game", "new", "c2", "--ruleset", "clash", home=home).code == 0
    for n, who in enumerate(["Ann <ann@example.org>", "Eve <eve@example.org>", "Bob <bob@example.org>"]):
        assert signed_up(gm, monkeypatch, home, who, n).code == 0
    receive(
        gm,
        monkeypatch,
        mail("Can I play Empires too?", sender="Zed <zed@example.org>", subject="Empires?", message_id="<q1@x>"),
        home,
    )
    receive(
        gm,
        monkeypatch,
        mail("Thanks for the game!", sender="Yan <yan@example.org>", subject="Thanks", message_id="<q2@x>"),
        home,
    )
    return home


def gm_sign_in(page, base):
    page.goto(base + "/gm")
    page.fill("input[name=password]", GM_PASSWORD)
    page.click("button:has-text('Sign in')")


@pytest.mark.parametrize(("width", "viewport"), [("desktop", DESKTOP), ("phone", PHONE)])
def test_the_gm_acts_from_a_browser(house, served, browser, gm, home, width, viewport):
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    gm_sign_in(page, served)
    assert "2 questions mailed to the house wait for you" in page.inner_text("#questions-waiting")
    screenshot(page, f"gm-games-{width}")
    page.click("#game-g1 h2 a")
    assert page.inner_text("h1").startswith("g1")
    page.click("#hold button")
    assert "g1 is held" in page.inner_text("#notice") and "held" in page.inner_text("#state")
    page.fill("#when", "2030-01-04 18:00 UTC")
    page.click("#deadline button")
    assert "Fri 2030-01-04 18:00 UTC" in page.inner_text("#notice")
    page.click("#remind button")
    assert "Reminded BR, FR, GE, RU" in page.inner_text("#notice")
    assert sum(kind == "reminder" for kind, *_ in outbox_bodies(home)) == 4
    screenshot(page, f"gm-game-{width}")
    page.click("#hold button")  # release
    assert "g1 is released." in page.inner_text("#notice")

    page.goto(served + "/gm/game/c2")
    assert page.locator("#waiting li").count() == 3
    eve = page.locator("#waiting li", has_text="eve@example.org")
    eve.locator("input[name=reason]").fill("plays elsewhere")
    eve.locator("button").click()
    assert "Eve <eve@example.org> is off the waiting list." in page.inner_text("#notice")
    assert page.locator("#waiting li").count() == 2
    screenshot(page, f"gm-waiting-{width}")

    page.click("nav.jump a:has-text('Questions')")
    assert page.locator("section.question").count() == 2
    screenshot(page, f"gm-questions-{width}")
    zed = page.locator("section.question", has_text="Empires?")
    zed.locator("textarea").fill("Yes: an Empires game starts next month. Write JOIN empires.")
    zed.locator("button:has-text('Send the answer')").click()
    assert "queued for zed@example.org" in page.inner_text("#notice")
    page.locator("section.question", has_text="Thanks").locator("button:has-text('Mark answered')").click()
    assert "No questions wait for you." in page.inner_text("main")

    page.click("nav.jump a:has-text('Audit log')")
    log = page.inner_text("#audit")
    for action in ("hold", "deadline", "remind", "release", "waiting removed", "question answered"):
        assert action in log
    screenshot(page, f"gm-audit-{width}")
    actions = [e["action"] for e in json.loads(gm("audit", "--json", home=home).out)]
    assert actions[-7:] == [
        "hold",
        "deadline",
        "remind",
        "release",
        "waiting removed",
        "question answered",
        "question answered",
    ]
    context.close()
