"""The portal's front page lists the games open for sign-up, as a LIST mail does (Chromium
against `gm serve`): a private game and a started one are not there."""

from __future__ import annotations

from tests.intake.mails import configure, set_mail_address
from tests.web.chromium import DESKTOP, browser_tests, screenshot

pytestmark = browser_tests


def test_the_front_page_lists_the_open_games_but_not_a_private_one(page, served, game, gm, home):
    set_mail_address(home)
    configure(home, {"credits.price": "2.50 EUR a turn"})
    assert gm("game", "new", "c2", "--ruleset", "clash", home=home).code == 0
    assert gm("game", "schedule", "c2", "weekly on friday 18:00", home=home).code == 0
    assert gm("game", "new", "hidden", "--ruleset", "clash", home=home).code == 0
    assert gm("game", "set", "hidden", "private", "yes", home=home).code == 0
    page.goto(served + "/")
    listed = page.inner_text("#open-games")
    assert "c2\tClash of Empires (clash, europe)\t4 of 4\tweekly on friday 18:00" in listed
    assert "hidden" not in listed and "g1" not in listed  # g1 has started; hidden is private
    assert "To sign up, mail gm@example.org a line JOIN and the game's name (JOIN c2)" in listed
    assert "Turn credits: 2.50 EUR a turn" in listed
    screenshot(page, "front-open-games-phone")
    page.set_viewport_size(DESKTOP)
    screenshot(page, "front-open-games-desktop")
