"""The portal's turn maps in Chromium (through Playwright, against `gm serve` on a loopback port)
carry this turn's arrows where the seat's PDF report draws them, from the same events."""

from __future__ import annotations

import json

from gm.core.arrows import arrows
from tests.web.chromium import DESKTOP, PHONE, browser_tests, screenshot
from tests.web.test_browser_seat import loaded

pytestmark = browser_tests


def conqueror_after_one_turn(gm, home) -> tuple[str, str, dict]:
    """A Conqueror! game g2 of four robots' seats after its first turn (whose attacks every seat
    sees); its first seat's code and secret, and that seat's report."""
    assert gm("game", "new", "g2", "--ruleset", "conqueror", "--seed", "7", home=home).code == 0
    secrets = {}
    for name in ["Eve", "Fay", "Gil", "Hal"]:
        ran = gm("game", "join", "g2", f"{name.lower()}@example.org", "--name", name, home=home)
        line = next(entry for entry in ran.out.splitlines() if entry.startswith("Secret for "))
        code, secret = line.removeprefix("Secret for ").split(": ")
        secrets[code] = secret
        assert gm("credits", "buy", f"{name.lower()}@example.org", "1", "--paid", "2.50", home=home).code == 0
    assert gm("turn", "run", "g2", "--now", home=home).code == 0  # (paid for: no report held)
    seat = sorted(secrets)[0]
    report = json.loads((home / "reports" / "g2" / "1" / f"{seat}.json").read_text())
    return seat, secrets[seat], report


def test_a_turns_map_shows_the_moves_and_attacks_its_report_draws(browser, served, game, gm, home):
    seat, secret, report = conqueror_after_one_turn(gm, home)
    moves = arrows(report["events"])
    assert moves  # Conqueror's first turn: every seat attacks out of its capital
    for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        context = browser.new_context(viewport=viewport)
        page = context.new_page()
        page.goto(served + "/")
        page.fill("input[name=game]", "g2")
        page.fill("input[name=seat]", seat)
        page.fill("input[name=secret]", secret)
        page.click("button:has-text('Sign in')")
        page.goto(served + "/turn/1")
        assert loaded(page, "#maps figure.map img")
        picture = page.request.get(served + "/turn/1/map.svg").text()
        # The report's overlay, in the picture: an edged shaft and its fill for each arrow, a bar
        # across the tip of each attack beaten off.
        assert picture.count("<polyline") == 2 * len(moves)
        assert picture.count('stroke="#c0161b" stroke-width') >= sum(1 for a in moves if a.kind == "attack")
        assert page.inner_text("#maps .map-key").startswith("Arrows: this turn's moves you may see")
        screenshot(page, f"turn-arrows-{name}")
        context.close()
