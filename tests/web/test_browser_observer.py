"""An observer in Chromium (against `gm serve` on a loopback port): the mailed link's button signs
in to the public pages of the game's turns; a seat's page stays closed to them."""

from __future__ import annotations

from tests.intake.mails import set_mail_address, turn_file
from tests.web.chromium import DESKTOP, PHONE, browser_tests, screenshot
from tests.web.test_observer_portal import OLGA, PRESS, observer_links

pytestmark = browser_tests


def test_an_observer_reads_the_public_pages_and_nothing_of_a_seat(browser, served, game, gm, home, tmp_path):
    set_mail_address(home)
    assert gm("game", "observe", "g1", OLGA, home=home).code == 0
    orders = tmp_path / "br.txt"
    orders.write_text(turn_file(game["BR"], f"CLAIM ENG SCO WAL\nPRESS TO FR\n{PRESS}\nENDPRESS"))
    assert gm("submit", orders, home=home).code == 0
    for _ in range(2):
        assert gm("turn", "run", "g1", "--now", home=home).code == 0
    tokens = observer_links(home)
    for (name, viewport), token in zip((("desktop", DESKTOP), ("phone", PHONE)), tokens, strict=True):
        context = browser.new_context(viewport=viewport)
        page = context.new_page()
        page.goto(f"{served}/link/{token}")
        page.click("button[type=submit]")
        assert page.url == f"{served}/observe/2"
        assert page.inner_text("#turn h2").endswith("· turn 2")
        assert page.locator("#standings tbody tr").count() == 4
        assert "Ann" in page.inner_text("#standings") and page.locator("#events li").count() >= 1
        text = page.inner_text("body")
        assert PRESS not in text and "PASSWORD" not in text and not any(s in text for s in game.values())
        screenshot(page, f"observer-turn-2-{name}")
        page.click("nav.turns a[href='/observe/1']")
        assert page.inner_text("#turn h2").endswith("· turn 1")
        assert page.goto(f"{served}/turn/1").status == 403  # a seat's page: not theirs
        assert page.goto(f"{served}/reports/g1/BR/1.pdf").status in (403, 404)
        page.goto(f"{served}/observe/1")
        page.click("text=Sign out")
        assert page.goto(f"{served}/observe/1").status == 403
        context.close()
