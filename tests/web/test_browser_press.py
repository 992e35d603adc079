"""A turn's press on the portal in Chromium (against `gm serve`): a report's press budget sends
the reader there, from the seat page's "Turn N" link, for every message whole."""

from __future__ import annotations

from tests.web.chromium import DESKTOP, browser_tests, screenshot
from tests.web.test_browser import sign_in

pytestmark = browser_tests


def test_the_seat_pages_turn_link_opens_the_turns_press_whole(browser, served, game, gm, home, tmp_path):
    flood = "\n".join("x" * 300)
    path = tmp_path / "press.txt"
    body = "".join(f"PRESS TO FR\n{n}\n{flood}\nENDPRESS\n" for n in range(3)) + "PRESS TO FR: and a last word"
    path.write_text(f"GAME g1\nPLAYER BR\nPASSWORD {game['BR']}\n{body}\nEND\n")
    assert gm("submit", path, home=home).code == 0
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    sign_in(page, served, "FR", game["FR"])
    page.click("#press a[href='/press/1']")
    assert page.url == served + "/press/1"
    assert page.inner_text("#press h2") == "4 messages"
    texts = page.locator("#press .press-text").all_inner_texts()
    assert [t.split("\n")[0] for t in texts] == ["0", "1", "2", "and a last word"]
    assert all(len(t.split("\n")) == 301 for t in texts[:3])  # whole, as no report prints them
    screenshot(page, "press-turn-desktop")
    page.click("a:has-text('Back to your seat page')")
    assert "#press" in page.url
    context.close()
