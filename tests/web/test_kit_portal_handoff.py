"""The turn kit hands its turn file to the portal (docs/turn-kit.md): in the real Chromium, from
the kit opened as a file to `gm serve` on a loopback port; the file travels in the address's
fragment, the secret never does, and only the player's own Submit sends the orders."""

from __future__ import annotations

import json

from gm.render.environment import make_environment
from gm.render.kit import kit_html
from gm.rulesets import installed, template_dirs
from tests.web.chromium import DESKTOP, PHONE, browser_tests, screenshot

pytestmark = browser_tests

HANDOFF_MAX = 60_000  # characters of the encoded file (kit.js, web/handoff.js)


def _kit(home, served, tmp_path):
    report = json.loads((home / "reports" / "g1" / "1" / "BR.json").read_text(encoding="utf-8"))
    env = make_environment(None, template_dirs(installed()["clash"]))
    path = tmp_path / "g1-1-BR.html"
    path.write_text(kit_html(env, report, "gm@house.example", served), encoding="utf-8")
    return path


def test_the_kit_opens_the_portal_with_its_file_and_the_player_submits_it(browser, served, game, gm, home, tmp_path):
    assert gm("credits", "buy", "ann@example.org", "2", "--paid", "5", home=home).code == 0
    assert gm("turn", "run", "g1", "--now", home=home).code == 0
    kit = _kit(home, served, tmp_path)
    context = browser.new_context(viewport=DESKTOP)
    requests: list[str] = []
    context.on("request", lambda r: requests.append(r.url))
    page = context.new_page()
    page.goto(kit.as_uri())
    page.fill("#secret", "s3cret-never-sent")
    text = page.input_value("#turn-file").replace("\nEND", "\n# placed as the kit's form has it\nEND")
    page.fill("#turn-file", text)
    with context.expect_page() as opened:
        page.click("#portal")
    portal = opened.value
    portal.wait_for_load_state()
    # Signed out: the sign-in form is filled from the file's GAME and PLAYER, and the file waits.
    assert portal.is_visible("#kit-waiting")
    assert portal.input_value("input[name=game]") == "g1" and portal.input_value("input[name=seat]") == "BR"
    assert "#kit=" not in portal.url  # out of the address at once (history, bookmarks)
    screenshot(portal, "kit-handoff-sign-in")
    portal.fill("input[name=secret]", game["BR"])
    portal.click("button:has-text('Sign in')")
    assert portal.is_visible("#from-kit")
    assert portal.input_value("#orders-text") == text
    assert "PASSWORD <your secret>" in text  # the portal, signed in, fills in the secret itself
    screenshot(portal, "kit-handoff-seat")
    assert "Your orders for this turn" in portal.inner_text("#my-orders")
    assert portal.inner_text("#my-orders strong") != "in"  # nothing sent by the link alone
    portal.click("button[value=submit]")
    assert "Accepted:" in portal.inner_text("#result")
    assert not portal.is_visible("#from-kit")  # used once: the box now shows what was stored
    # The secret typed into the kit went nowhere; the file went in no address the server saw.
    assert not any("s3cret-never-sent" in url for url in requests)
    assert not any("placed" in url.split("#", 1)[0] for url in requests)
    context.close()


def test_a_file_too_long_for_a_link_is_not_handed_over(browser, served, game, gm, home, tmp_path):
    assert gm("credits", "buy", "ann@example.org", "2", "--paid", "5", home=home).code == 0
    assert gm("turn", "run", "g1", "--now", home=home).code == 0
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(_kit(home, served, tmp_path).as_uri())
    page.fill("#turn-file", "GAME g1\nPLAYER BR\n# " + "x" * HANDOFF_MAX + "\nEND\n")
    page.click("#portal")
    assert len(context.pages) == 1  # no tab opened
    assert "too long to hand over by a link" in page.inner_text("#sent")
    # Nor does the portal take one made by hand: it is dropped, and the box keeps its own form.
    portal = context.new_page()
    portal.goto(served + "/#kit=" + "x" * (HANDOFF_MAX + 1))
    assert not portal.is_visible("#kit-waiting")
    context.close()
