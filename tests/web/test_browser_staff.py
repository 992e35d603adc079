"""Issue 33 in Chromium (through Playwright, against `gm serve` on a loopback port): a GM of one
game signs in with her name, acts on her game under her name, and is refused the house's pages;
the owner signs in with the password alone, as before there were names."""

from __future__ import annotations

import io
import json
import sys

import pytest

from tests.web.chromium import DESKTOP, PHONE, browser_tests, screenshot
from tests.web.conftest import GM_PASSWORD
from tests.web.test_portal import set_gm_password

pytestmark = browser_tests

ANN = "ann's own long password"


@pytest.fixture
def house(home, game, gm, monkeypatch):
    """Before the server starts: g2 beside g1, the owner's password, ann a GM of g2 with hers."""
    assert gm("game", "new", "g2", "--ruleset", "clash", "--seed", "3", home=home).code == 0
    assert set_gm_password(gm, home, monkeypatch).code == 0
    assert gm("gm", "add", "ann", "--games", "g2", home=home).code == 0
    monkeypatch.setattr(sys, "stdin", io.StringIO(ANN + "\n"))
    assert gm("gm", "password", "ann", home=home).code == 0
    assert gm("game", "hold", "g1", home=home).code == 0
    return home


def sign_in(page, base: str, name: str, password: str) -> None:
    page.goto(base + "/gm")
    page.fill("input[name=name]", name)
    page.fill("input[name=password]", password)
    page.click("button:has-text('Sign in')")


@pytest.mark.parametrize(("width", "viewport"), [("desktop", DESKTOP), ("phone", PHONE)])
def test_a_gm_of_one_game_in_a_browser(house, served, browser, gm, home, width, viewport):
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.goto(served + "/gm")
    assert page.get_by_label("Your GM name").is_visible() and page.get_by_label("Password").is_visible()
    screenshot(page, f"staff-sign-in-{width}")
    sign_in(page, served, "ann", "not her password")
    assert page.inner_text("[role=alert]") == "That is not the password of that GM."
    sign_in(page, served, "ann", ANN)
    assert page.inner_text("#signed-in-gm") == "Signed in as ann, a GM of g2 only."
    assert page.locator("section.game").count() == 1 and page.locator("#game-g2").is_visible()
    assert page.locator("nav.jump a").all_inner_texts() == ["Games", "Audit log"]
    screenshot(page, f"staff-games-{width}")
    page.click("#game-g2 h2 a")
    page.click("#hold button")
    assert "g2 is held" in page.inner_text("#notice")
    assert "hold by ann" in page.inner_text("#log")
    screenshot(page, f"staff-game-{width}")
    page.goto(served + "/gm/game/g1")
    assert "You are a GM of g2 only: 'g1' is not yours to see or act on." in page.inner_text("main")
    screenshot(page, f"staff-refused-{width}")
    page.goto(served + "/gm/audit")
    entries = page.locator("#audit li").all_inner_texts()
    assert entries and all("· g2 ·" in e for e in entries) and "by ann" in entries[0]
    screenshot(page, f"staff-audit-{width}")
    context.close()
    held = [(e["game"], e["action"], e["by"]) for e in json.loads(gm("audit", "--json", home=home).out)]
    assert held[-2:] == [("g1", "hold", "owner"), ("g2", "hold", "ann")]


def test_the_owner_signs_in_with_the_password_alone(house, served, page):
    sign_in(page, served, "", GM_PASSWORD)
    assert page.inner_text("#signed-in-gm") == "Signed in as owner."
    assert page.locator("section.game").count() == 2
    page.goto(served + "/gm/audit")
    assert "Every game and the house" in page.inner_text("#game")
    screenshot(page, "staff-owner-audit-phone")
