"""Held means held everywhere (issue 29, item 3): under the default hold policy a report not paid
for is on no page of the portal (the seat page's latest map and standings, the score, the turn's
page, its maps, the PDF and JSON downloads, the order form filled in from it) until it is paid
for; meanwhile the portal says what to do, in the house's words. Paid, it is all there."""

from __future__ import annotations

import json

from tests.intake.mails import configure

ANN = "ann@example.org"
PRICE = "2.50 EUR a turn; 10 turns for 22.50 EUR"
HOW = "PayPal to pay@example.org, with your e-mail address as the reference"


def held_everywhere(player, home, turn: int) -> None:
    """Nothing of turn `turn`'s report reaches the signed-in seat BR."""
    report = json.loads((home / "reports" / "g1" / str(turn) / "BR.json").read_text())
    page = player.get("/").text
    assert f"Your report for turn {turn} is held until paid for" in page or f"turns {turn}" in page
    assert f'href="/reports/g1/BR/{turn}.pdf"' not in page and f'href="/turn/{turn}"' not in page
    assert f'<img src="/turn/{turn}/' not in page
    assert "# Your last report is held until it is paid for" in page  # no form filled in from it
    assert report["order_form"].splitlines()[4] not in page  # the filled-in form's first order line
    for url in (
        f"/reports/g1/BR/{turn}.pdf",
        f"/reports/g1/BR/{turn}.json",
        f"/reports/g1/BR/{turn}.html",
        f"/turn/{turn}",
    ):
        answer = player.get(url)
        assert answer.status_code == 402, url
        assert answer.mimetype == "text/html" and b"%PDF" not in answer.data and b'"view"' not in answer.data
        assert "How to buy turn credits" in answer.text
    assert player.get(f"/turn/{turn}/map.svg").status_code == 404


def test_a_report_not_paid_for_is_on_no_page_until_it_is(signed_in, gm, home):
    configure(home, {"credits.price": PRICE, "credits.how_to_pay": HOW, "mail.address": "gm@pbm.example.org"})
    assert gm("turn", "run", "g1", "--now", home=home).code == 0
    held_everywhere(signed_in, home, 1)
    page = signed_in.get("/").text
    assert '<section class="card" id="latest">' not in page and "points: 0." not in page
    assert f'<dd id="price">{PRICE}</dd>' in page and f'<dd id="how-to-pay">{HOW}</dd>' in page
    assert '<a href="mailto:gm@pbm.example.org">gm@pbm.example.org</a>' in page
    assert "account is <strong>1 credit short</strong>" in page

    ran = gm("credits", "buy", ANN, "1", "--paid", "2.50", home=home)
    assert "Released 1 held report(s): g1 BR (turn 1)" in ran.out
    page = signed_in.get("/").text
    assert "held until paid" not in page and 'id="held"' not in page
    # The score by its name in the report's table (Clash's), not as "Score".
    assert '<section class="card" id="latest">' in page and "Victory points: 0." in page and "Score 0" not in page
    assert '<a href="/turn/1">Turn 1</a>' in page and "TURN 2\n" in page
    assert "# Your last report is held" not in page
    pdf = signed_in.get("/reports/g1/BR/1.pdf")
    assert pdf.status_code == 200 and pdf.data.startswith(b"%PDF")
    assert signed_in.get("/turn/1").status_code == 200
    assert signed_in.get("/turn/1/map.svg").status_code == 200


def test_the_newest_report_held_leaves_the_paid_ones_readable(signed_in, gm, home):
    """Paid for turn 1, not for turn 2: turn 1 is the latest the seat reads, turn 2 is held."""
    assert gm("credits", "buy", ANN, "1", "--paid", "2.50", home=home).code == 0
    assert gm("turn", "run", "g1", "--now", home=home).code == 0
    assert gm("turn", "run", "g1", "--now", home=home).code == 0
    held_everywhere(signed_in, home, 2)
    page = signed_in.get("/").text
    assert "Your orders" in page and "Turn 1: " in page.split('id="latest"')[1].split("</h2>")[0]
    assert '<a href="/turn/1">Turn 1</a>' in page and "Ask your game master how to pay." in page
    assert signed_in.get("/reports/g1/BR/1.pdf").status_code == 200
    assert 'rel="next"' not in signed_in.get("/turn/1").text  # no way on to the held turn
    # Another policy holds nothing: the game's GM delivers on credit.
    assert gm("credits", "policy", "g1", "--unpaid", "deliver", home=home).code == 0
    assert signed_in.get("/turn/2").status_code == 200 and signed_in.get("/reports/g1/BR/2.json").status_code == 200
