"""The seat page in Chromium (through Playwright, against `gm serve` on a loopback port): the
time zone guessed from the browser or typed, with and without the portal's script."""

from __future__ import annotations

import re

import pytest

from tests.web.chromium import DESKTOP, PHONE, browser_tests, screenshot
from tests.web.test_browser import sign_in

pytestmark = browser_tests


def test_the_browser_zone_is_used_at_sign_in_and_a_city_can_be_typed(browser, served, game, gm, home):
    assert gm("game", "deadline", "g1", "2030-01-04 18:00 UTC", home=home).code == 0
    context = browser.new_context(viewport=DESKTOP, timezone_id="Asia/Tokyo")
    page = context.new_page()
    sign_in(page, served, "BR", game["BR"])
    assert page.inner_text("#zone-now") == "Asia/Tokyo"
    assert "Sat 05 Jan 2030, 03:00 JST (Asia/Tokyo)" in page.inner_text("#deadline")
    assert not page.is_visible("#zone-guess")  # the browser's zone is the one shown
    page.fill("#zone-input", "new york")
    page.click("#zone button")
    assert page.inner_text("#zone-now") == "America/New_York"
    assert "Fri 04 Jan 2030, 13:00 EST (America/New_York)" in page.inner_text("#deadline")
    # Another zone than the browser's: the script offers the browser's back.
    assert page.is_visible("#zone-guess") and "Asia/Tokyo" in page.inner_text("#zone-guess")
    screenshot(page, "seat-zone-desktop")
    page.click("#zone-guess button")
    assert page.inner_text("#zone-now") == "Asia/Tokyo"
    page.fill("#zone-input", "Tokio")
    page.click("#zone button")
    assert "is not a time zone gm knows, so nothing changed" in page.inner_text("#zone .refusal")
    assert page.inner_text("#zone-now") == "Asia/Tokyo"
    context.close()


def test_without_javascript_times_stay_in_utc_until_a_zone_is_typed(browser, served, game, gm, home):
    assert gm("game", "deadline", "g1", "2030-01-04 18:00 UTC", home=home).code == 0
    context = browser.new_context(viewport=PHONE, timezone_id="Asia/Tokyo", java_script_enabled=False)
    page = context.new_page()
    sign_in(page, served, "BR", game["BR"])
    assert page.inner_text("#zone-now") == "UTC" and not page.is_visible("#zone-guess")
    page.fill("#zone-input", "tokyo")
    page.click("#zone button")
    assert page.inner_text("#zone-now") == "Asia/Tokyo"
    assert "Sat 05 Jan 2030, 03:00 JST (Asia/Tokyo)" in page.inner_text("#deadline")
    screenshot(page, "seat-zone-phone-no-script")
    context.close()


def loaded(page, selector: str) -> bool:
    """Whether the picture was fetched and drawn (a broken image has no natural width), once the
    browser is done with it: the maps are loading="lazy", fetched after the page itself, and on a
    busy machine the check could come first (it failed so once, in a run beside two other suites)."""
    page.wait_for_function(
        "s => { const img = document.querySelector(s); return img !== null && img.complete; }", arg=selector
    )
    return page.eval_on_selector(selector, "img => img.naturalWidth > 0")


def test_the_latest_map_standings_and_a_page_per_turn(browser, served, game, gm, home):
    assert gm("credits", "buy", "ann@example.org", "2", "--paid", "5", home=home).code == 0  # nothing held
    for _ in range(2):
        assert gm("turn", "run", "g1", "--now", home=home).code == 0
    for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        context = browser.new_context(viewport=viewport)
        page = context.new_page()
        sign_in(page, served, "BR", game["BR"])
        assert page.inner_text("#latest h2").startswith("Your latest report · Turn 2")
        assert loaded(page, "#latest figure.map img")
        assert page.locator("#latest table.standings tbody tr").count() == 4
        assert page.inner_text("#latest tr.you").split()[1] == "BR"
        screenshot(page, f"seat-latest-{name}")
        page.click("#turns a[href='/turn/1']")
        assert page.inner_text("#turn h2").startswith("Turn 1")
        assert loaded(page, "#maps figure.map img") and page.locator("#events li").count() >= 1
        screenshot(page, f"turn-1-{name}")
        page.click("a[rel=next]")
        assert page.inner_text("#turn h2").startswith("Turn 2") and page.locator("a[rel=next]").count() == 0
        response = page.goto(served + "/turn/1/map.svg")  # the map opened on its own, to zoom
        assert response.status == 200 and response.headers["content-type"].startswith("image/svg+xml")
        context.close()


def test_a_link_signs_in_to_submit_without_the_secret_and_the_final_box_shows_what_is_stored(
    page, served, game, gm, home
):
    link = gm("portal", "link", "g1", "BR", "--base-url", served, home=home).out.strip()
    page.goto(link)
    page.click("button:has-text('Sign in')")
    assert page.inner_text("p.who").startswith("You are BR")
    assert page.locator("input[name=secret]").count() == 0  # nothing asks for it
    assert not page.is_checked("#final-box")
    text = page.input_value("#orders-text")
    page.fill("#orders-text", text.replace("END", "CLAIM ENG SCO WAL\nEND"))
    page.check("#final-box")
    page.click("button[value=submit]")
    assert page.inner_text("#result h2") == "Submitted" and "marked final" in page.inner_text("#result")
    page.goto(served + "/")
    assert page.is_checked("#final-box") and "final" in page.inner_text("#my-orders")
    assert "signed in by link" in page.inner_text("#history")
    screenshot(page, "seat-link-final-phone")
    page.uncheck("#final-box")
    page.click("button[value=submit]")
    page.goto(served + "/")
    assert not page.is_checked("#final-box") and "not final" in page.inner_text("#my-orders")


@pytest.fixture
def long_named(home, game, gm):
    """Before the server starts: game w1, its seat BR taken by a player named with 60 letters and no
    space (as long as gm lets a name be); returns BR's secret."""
    assert gm("game", "new", "w1", "--ruleset", "clash", "--seats", "2", home=home).code == 0
    joined = gm("game", "join", "w1", "w@example.org", "--name", "W" * 60, "--seat", "BR", home=home)
    assert gm("game", "join", "w1", "v@example.org", "--name", "Vi", home=home).code == 0
    return re.search(r"Secret for BR: (\S+)", joined.out).group(1)


def test_a_long_name_without_spaces_does_not_widen_the_seat_page_on_a_phone(long_named, browser, served):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(served + "/")
    page.fill("input[name=game]", "w1")
    page.fill("input[name=seat]", "BR")
    page.fill("input[name=secret]", long_named)
    page.click("button:has-text('Sign in')")
    assert "W" * 60 in page.inner_text("p.who").replace("\n", "")
    screenshot(page, "seat-long-name-390")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    context.close()
