"""The turn kit on the portal's seat page: a link beside the report's PDF and JSON, the seat's
own kit as a download named as in the report mail, and nobody else's."""

from __future__ import annotations

import json

from markupsafe import escape


def test_the_seat_page_offers_the_seats_own_turn_kit(signed_in, gm, home):
    assert gm("credits", "buy", "ann@example.org", "1", "--paid", "2.50", home=home).code == 0
    assert gm("turn", "run", "g1", "--now", home=home).code == 0
    page = signed_in.get("/").text
    assert 'href="/reports/g1/BR/1.html"' in page and ">Turn kit</a>" in page
    answer = signed_in.get("/reports/g1/BR/1.html")
    assert answer.status_code == 200 and answer.mimetype == "text/html"
    assert answer.headers["Content-Disposition"] == "attachment; filename=g1-1-BR.html"
    assert answer.data == (home / "reports" / "g1" / "1" / "BR.html").read_bytes()
    report = json.loads((home / "reports" / "g1" / "1" / "BR.json").read_text())
    kit = answer.text
    assert "Content-Security-Policy" in kit and str(escape(report["order_form"])) in kit  # the form, whole
    assert signed_in.get("/reports/g1/RU/1.html").status_code == 404  # another seat's, by editing the URL
    assert signed_in.get("/reports/g1/BR/1.htm").status_code == 404


def test_the_kit_offers_the_portal_only_where_players_reach_it(signed_in, gm, home):
    """`[portal] base_url` on a name players reach: the kit's "Open it in the portal" goes there;
    the default (this machine only) gives no such button, as a player could not follow it."""
    assert gm("credits", "buy", "ann@example.org", "1", "--paid", "2.50", home=home).code == 0
    assert gm("turn", "run", "g1", "--now", home=home).code == 0
    kit = signed_in.get("/reports/g1/BR/1.html").text
    assert 'id="portal"' not in kit and '"portal":""' in kit
    settings = home / "gm.toml"
    text = settings.read_text()
    assert 'base_url = "http://127.0.0.1:8000"' in text
    settings.write_text(text.replace('base_url = "http://127.0.0.1:8000"', 'base_url = "https://pbm.example.org/"'))
    kit = signed_in.get("/reports/g1/BR/1.html").text
    assert '<a id="portal" href="https://pbm.example.org/" target="_blank"' in kit
    assert '"portal":"https://pbm.example.org"' in kit
