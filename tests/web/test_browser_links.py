"""Links and sessions that belong to the player and the secret they were made for, in Chromium
against `gm serve` (issue 29): a new secret, or the player leaving, signs an open page out with a
page that says why; an old link says it is no longer valid; the rightful player's sign-in works."""

from __future__ import annotations

import re

from tests.web.chromium import DESKTOP, PHONE, browser_tests, screenshot
from tests.web.test_browser import sign_in

pytestmark = browser_tests


def link_of(gm, home, seat: str) -> str:
    made = gm("portal", "link", "g1", seat, home=home)
    assert made.code == 0, made.err
    return made.out.strip()


def open_link(page, served: str, link: str) -> None:
    page.goto(served + "/link/" + link.rsplit("/", 1)[1])
    page.click("button:has-text('Sign in')")


def test_a_new_secret_signs_the_old_page_out_and_voids_the_old_link(browser, served, game, gm, home):
    bob = browser.new_context(viewport=PHONE).new_page()
    open_link(bob, served, link_of(gm, home, "RU"))
    assert bob.inner_text("p.who").startswith("You are RU, Bob.")
    unused = link_of(gm, home, "RU")
    made = gm("game", "secret", "g1", "RU", home=home)
    new_secret = re.search(r"New secret for RU in g1: (\S+)", made.out)[1]

    bob.fill("#orders-text", "GAME g1\nPLAYER RU\nPASSWORD <your secret>\nCLAIM MOS\nEND\n")
    bob.click("button[value=submit]")  # the page was open: its next request is refused, and says why
    assert bob.inner_text("h1") == "Signed out"
    assert "You were signed out: seat RU of g1 has a new secret or a new player since you signed in." in (
        bob.inner_text("p.refusal")
    )
    screenshot(bob, "signed-out-new-secret-phone")
    bob.click("a:has-text('Back to the first page')")
    assert bob.inner_text("h1") == "Sign in to your seat"

    stranger = browser.new_context(viewport=PHONE).new_page()
    open_link(stranger, served, unused)
    assert stranger.inner_text("h1") == "That link is no longer valid"
    assert "This link no longer signs in: seat RU of g1 has a new secret or a new player since it was made." in (
        stranger.inner_text("p.refusal")
    )
    screenshot(stranger, "link-no-longer-valid-phone")

    sign_in(bob, served, "RU", new_secret)  # the rightful player, with the new secret
    assert bob.inner_text("p.who").startswith("You are RU, Bob.")
    open_link(stranger, served, link_of(gm, home, "RU"))  # and a link made now
    assert stranger.inner_text("p.who").startswith("You are RU, Bob.")


def test_a_player_who_left_is_signed_out_with_the_reason(browser, served, game, gm, home):
    di = browser.new_context(viewport=DESKTOP).new_page()
    sign_in(di, served, "GE", game["GE"])
    assert di.inner_text("p.who").startswith("You are GE, Di.")
    assert gm("seat", "drop", "g1", "GE", home=home).code == 0
    di.reload()
    assert di.inner_text("h1") == "Sign in to your seat"
    assert di.inner_text("#signed-out").startswith(
        "You were signed out: the player of seat GE of g1 has left the game (dropped)"
    )
    screenshot(di, "signed-out-left-desktop")
    sign_in(di, served, "GE", game["GE"])  # the secret is still right, and signs in to nothing
    assert "The player of seat GE of g1 has left the game (dropped)" in di.inner_text("p.refusal")
    assert di.locator("p.who").count() == 0
    screenshot(di, "sign-in-after-leaving-desktop")
