"""The player's time zone: typed and searched for (no script needed), or guessed from the browser."""

from __future__ import annotations

import re

import pytest

from gm.web.zones import find_zone


def zone_shown(page: str) -> str:
    return re.search(r'<strong id="zone-now">([^<]*)</strong>', page)[1]


@pytest.mark.parametrize(
    ("typed", "zone"),
    [
        ("Asia/Tokyo", "Asia/Tokyo"),
        ("tokyo", "Asia/Tokyo"),
        ("  New   York ", "America/New_York"),
        ("sao_paulo", "America/Sao_Paulo"),
        ("europe/london", "Europe/London"),
        ("utc", "UTC"),
        ("knox", "America/Indiana/Knox"),
        ("Tokio", None),
        ("", None),
        ("georgetown", None),  # a misspelling; nothing; two places of that name
        ("EST", None),
        ("../../etc/passwd", None),
        ("x" * 10_000, None),
    ],
)
def test_find_zone(typed, zone):
    assert find_zone(typed) == zone


def test_a_city_typed_sets_the_zone_and_the_deadline_follows(signed_in, gm, home):
    assert gm("game", "deadline", "g1", "2026-11-27 18:00 UTC", "--past", home=home).code == 0
    assert zone_shown(signed_in.get("/").text) == "UTC"
    page = signed_in.post("/zone", {"zone": "tokyo"})
    assert zone_shown(page.text) == "Asia/Tokyo"
    assert "Sat 28 Nov 2026, 03:00 JST (Asia/Tokyo)" in page.text


def test_a_zone_gm_does_not_know_changes_nothing_and_says_so(signed_in):
    signed_in.post("/zone", {"zone": "Europe/Paris"})
    page = signed_in.post("/zone", {"zone": "Tokio <b>"})
    assert page.status_code == 400
    assert "“Tokio &lt;b&gt;” is not a time zone gm knows, so nothing changed." in page.text
    assert zone_shown(page.text) == "Europe/Paris" and zone_shown(signed_in.get("/").text) == "Europe/Paris"


def test_the_zone_box_searches_every_zone_without_a_script(signed_in):
    page = signed_in.get("/").text
    box = re.search(r'<input id="zone-input"[^>]*>', page)[0]
    assert 'list="zones"' in box and 'value="UTC"' in box and "<select" not in page
    options = re.search(r'<datalist id="zones">(.*?)</datalist>', page, re.S)[1]
    assert "<option>Asia/Tokyo</option>" in options and options.count("<option>") > 300


def test_the_browser_zone_sent_at_sign_in_is_used_until_the_player_chooses(player, game):
    assert 'name="zone" class="browser-zone"' in player.page.text  # the sign-in form carries it
    page = player.post("/sign-in", {"game": "g1", "seat": "BR", "secret": game["BR"], "zone": "Europe/Berlin"})
    assert zone_shown(page.text) == "Europe/Berlin"
    assert 'id="zone-guess" data-current="Europe/Berlin" hidden' in page.text  # the script shows it if it differs
    assert zone_shown(player.post("/zone", {"zone": "Asia/Tokyo"}).text) == "Asia/Tokyo"


def test_a_browser_zone_that_is_no_zone_is_ignored(player, game):
    page = player.post("/sign-in", {"game": "g1", "seat": "BR", "secret": game["BR"], "zone": "Mars/Olympus"})
    assert zone_shown(page.text) == "UTC"


def test_a_link_sign_in_takes_the_browser_zone_too(app, gm, home, game, player):
    token = gm("portal", "link", "g1", "BR", home=home).out.strip().rsplit("/", 1)[1]
    assert 'name="zone" class="browser-zone"' in player.get(f"/link/{token}").text
    page = player.post("/link", {"token": token, "zone": "America/Chicago"})
    assert zone_shown(page.text) == "America/Chicago"


def test_the_scripts_are_served_from_here_and_nothing_runs_inline(app, signed_in):
    script = app.test_client().get("/zone.js")
    assert script.status_code == 200 and script.mimetype == "text/javascript"
    assert "resolvedOptions().timeZone" in script.text and "textContent" in script.text
    handoff = app.test_client().get("/handoff.js")  # the turn kit's hand-over (docs/turn-kit.md)
    assert handoff.status_code == 200 and handoff.mimetype == "text/javascript" and "#kit=" in handoff.text
    for text in (script.text, handoff.text):
        assert "innerHTML" not in text and "eval(" not in text  # what they write is text, never markup
    page = signed_in.get("/")
    policy = page.headers["Content-Security-Policy"]
    assert "script-src 'self';" in policy and "unsafe" not in policy
    assert re.findall(r"<script[^>]*>", page.text) == [
        '<script src="/zone.js" defer>',
        '<script src="/handoff.js" defer>',
    ]
