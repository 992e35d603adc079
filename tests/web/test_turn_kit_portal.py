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
