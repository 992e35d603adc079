"""A vote sent through the portal (Chromium against `gm serve`): the seat reads its own vote
back, and the page of another seat says nothing of it (D-ALL-5)."""

from __future__ import annotations

from tests.web.chromium import browser_tests, screenshot
from tests.web.test_browser import sign_in

pytestmark = browser_tests


def test_a_draw_vote_through_the_portal_is_read_back_to_its_seat_only(page, served, game, gm, home, tmp_path):
    assert gm("game", "set", "g1", "draw", "all", home=home).code == 0
    sign_in(page, served, "BR", game["BR"])
    page.fill("#orders-text", "GAME g1\nPLAYER BR\nPASSWORD <your secret>\nCLAIM ENG SCO WAL\nDRAW\nEND\n")
    page.click("button[value=check]")
    assert "1 order read, and your vote: a draw." in page.inner_text("#result")
    page.click("button[value=submit]")
    assert page.inner_text("#result h2") == "Submitted"
    assert page.inner_text("#result p.vote").startswith("Your vote this turn: a draw. Votes are secret")
    screenshot(page, "seat-vote")
    page.context.clear_cookies()
    sign_in(page, served, "RU", game["RU"])
    assert "draw" not in page.inner_text("body").lower()
