"""The portal in-process: signing in, the order check, submitting, reports, the GM page."""

from __future__ import annotations

import io
import json
import re
import sqlite3
import sys

from gm.store.archive import archived_path
from tests.web.conftest import GM_PASSWORD, Player


def orders(body: str, seat: str = "BR", final: bool = False) -> str:
    return f"GAME g1\nPLAYER {seat}\nPASSWORD <your secret>\nTURN 1\n{body}\n{'FINAL' if final else ''}\nEND\n"


def submissions(home) -> list[tuple]:
    conn = sqlite3.connect(home / "gm.db")
    return conn.execute("""SELECT s.code, sub.channel, sub.verdict, sub.current, sub.final FROM submissions sub
                           JOIN seats s ON s.id = sub.seat_id ORDER BY sub.id""").fetchall()


def test_sign_in_shows_the_seat_page_with_the_order_form(signed_in):
    page = signed_in.get("/").text
    assert "You are <strong>BR</strong>, Ann." in page
    assert "GAME g1\nPLAYER BR\nPASSWORD &lt;your secret&gt;\nTURN 1\n" in page
    assert 'Your orders for this turn:\n<strong class="bad">none yet</strong>' in page


def test_wrong_secret_unknown_seat_and_game_read_the_same(player, game):
    for seat, secret, name in [("BR", "wrong-secret", "g1"), ("XX", game["BR"], "g1"), ("BR", game["BR"], "nope")]:
        page = player.sign_in(seat, secret, name)
        assert page.status_code == 401
        assert "That game, seat and secret do not match." in page.text


def test_check_then_fix_then_submit(signed_in, home):
    page = signed_in.post("/orders", {"orders": orders("CLAIM ENG\nFROBNICATE 3"), "action": "check"})
    assert "Checked: 1 problem</h2>" in page.text
    assert '<li value="6" class="problem"><code>FROBNICATE 3</code>' in page.text
    assert "line 6: " in page.text
    assert submissions(home) == []  # a check stores nothing
    page = signed_in.post("/orders", {"orders": orders("CLAIM ENG SCO WAL"), "action": "check"})
    assert "Checked: no problems" in page.text
    page = signed_in.post("/orders", {"orders": orders("CLAIM ENG SCO WAL"), "action": "submit"})
    assert "Accepted: 1 order for turn 1." in page.text
    assert submissions(home) == [("BR", "web", "accepted", 1, 0)]
    assert "PASSWORD &lt;your secret&gt;" in page.text  # the secret is never shown back


def test_the_check_guesses_the_order_word_a_slip_missed(signed_in, home):
    page = signed_in.post("/orders", {"orders": orders("CLAM ENG"), "action": "check"})
    assert "CLAM is not an order (did you mean CLAIM?); the orders are CLAIM, PLACE" in page.text


def test_upload_with_a_bad_line_is_stored_but_not_used(signed_in, home):
    data = {"turn_file": (io.BytesIO(orders("CLAIM ENG\nFROBNICATE").encode()), "br.txt"), "action": "submit"}
    page = signed_in.post("/orders", data, content_type="multipart/form-data")
    assert "Stored, but not used" in page.text and "FROBNICATE" in page.text
    assert submissions(home) == [("BR", "web", "rejected", 0, 0)]


def test_mark_final_by_checkbox_and_by_button(signed_in, home):
    signed_in.post("/orders", {"orders": orders("CLAIM ENG"), "action": "submit"})
    assert 'id="mark-final"' in signed_in.get("/").text
    page = signed_in.post("/orders/final")
    assert "Accepted: 1 order for turn 1; they replace your earlier orders, marked final." in page.text
    signed_in.post("/orders", {"orders": orders("CLAIM SCO"), "action": "submit", "final": "yes"})
    assert submissions(home)[-1] == ("BR", "web", "accepted", 1, 1)
    assert "<strong>final</strong>" in signed_in.get("/").text


def final_box(page: str) -> bool:
    """Whether the order form's "final" box is ticked."""
    box = re.search(r'<input type="checkbox" name="final"[^>]*>', page)[0]
    return " checked" in box


def test_the_final_box_shows_what_is_stored(signed_in, home):
    assert not final_box(signed_in.get("/").text)  # nothing stored yet
    signed_in.post("/orders", {"orders": orders("CLAIM ENG"), "action": "submit", "final": "yes"})
    assert final_box(signed_in.get("/").text)
    signed_in.post("/orders", {"orders": orders("CLAIM SCO"), "action": "submit"})
    assert not final_box(signed_in.get("/").text)
    # A check stores nothing: the box keeps what the player ticked, for the submit that follows.
    assert final_box(signed_in.post("/orders", {"orders": orders("CLAIM WAL"), "action": "check", "final": "yes"}).text)
    assert not final_box(signed_in.get("/").text)
    # Final by a FINAL line (or the button) is final too.
    signed_in.post("/orders", {"orders": orders("CLAIM WAL", final=True), "action": "submit"})
    assert final_box(signed_in.get("/").text) and submissions(home)[-1][-1] == 1


def test_orders_for_another_seat_are_refused_without_storing(signed_in, home, game):
    text = orders("CLAIM MOS", seat="RU").replace("<your secret>", game["RU"])
    page = signed_in.post("/orders", {"orders": text, "action": "submit"})
    assert page.status_code == 400
    assert "these orders are for RU in &#39;g1&#39;; you are signed in as BR in &#39;g1&#39;" in page.text
    assert submissions(home) == []


def archived(home, submission: int = -1) -> bytes:
    """The archived bytes of a submission (the last by default)."""
    conn = sqlite3.connect(home / "gm.db")
    digests = [row[0] for row in conn.execute("SELECT archive FROM submissions ORDER BY id")]
    return archived_path(home / "archive", digests[submission]).read_bytes()


def test_a_link_sign_in_checks_and_submits_without_the_secret(app, gm, home, game):
    link = gm("portal", "link", "g1", "fr", home=home).out.strip()
    player = Player(app.test_client())
    token = link.rsplit("/", 1)[1]
    assert 'name="token"' in player.get(f"/link/{token}").text  # opening it does not use it up
    page = player.post("/link", {"token": token})
    assert "You are <strong>FR</strong>" in page.text and 'name="secret"' not in page.text
    page = player.post("/orders", {"orders": orders("CLAIM PAR\nBOGUS", seat="FR"), "action": "check"})
    assert "Checked: 1 problem</h2>" in page.text and submissions(home) == []
    page = player.post("/orders", {"orders": orders("CLAIM PAR", seat="FR"), "action": "submit"})
    assert "Accepted: 1 order for" in page.text
    assert submissions(home) == [("FR", "web", "accepted", 1, 0)]
    # The secret was never asked for, so it is nowhere: not in the archive, not on the page.
    assert b"PASSWORD (signed-in)" in archived(home) and game["FR"].encode() not in archived(home)
    assert "(signed-in)" not in page.text and "PASSWORD &lt;your secret&gt;" in page.text
    assert "typed or pasted in the portal, signed in by link" in player.get("/history").text
    again = Player(app.test_client())
    assert again.post("/link", {"token": token}).status_code == 401  # one time only


def test_a_secret_sign_in_keeps_no_secret_either(signed_in, home, game):
    signed_in.post("/orders", {"orders": orders("CLAIM ENG"), "action": "submit"})
    assert submissions(home) == [("BR", "web", "accepted", 1, 0)]
    assert b"PASSWORD (signed-in)" in archived(home) and game["BR"].encode() not in archived(home)
    assert "signed in by link" not in signed_in.get("/history").text


def test_the_session_word_counts_only_on_the_portal_and_only_for_its_seat(signed_in, gm, home, game, tmp_path):
    # Written by hand into a turn file by mail (or gm submit), it is a wrong password.
    mailed = tmp_path / "br.txt"
    mailed.write_text(orders("CLAIM ENG").replace("<your secret>", "(signed-in)"))
    ran = gm("submit", mailed, home=home)
    assert ran.code == 1 and "wrong password for player BR" in ran.out + ran.err
    # A file with its own PASSWORD line is checked as written: a wrong one is a wrong secret.
    page = signed_in.post(
        "/orders", {"orders": orders("CLAIM ENG").replace("<your secret>", "not-it"), "action": "submit"}
    )
    assert page.status_code == 400 and "wrong password for player BR" in page.text
    assert submissions(home) == []


def test_history_nmr_deadline_and_reports_after_turns(signed_in, gm, home):
    assert gm("credits", "buy", "ann@example.org", "2", "--paid", "5", home=home).code == 0  # nothing held
    signed_in.post("/orders", {"orders": orders("CLAIM ENG\nBOGUS"), "action": "submit"})
    signed_in.post("/orders", {"orders": orders("CLAIM ENG SCO WAL"), "action": "submit"})
    assert gm("turn", "run", "g1", "--now", home=home).code == 0
    assert gm("turn", "run", "g1", "--now", "--no-render", home=home).code == 0  # BR sent nothing for turn 2
    assert gm("game", "deadline", "g1", "2026-11-27 18:00 UTC", "--past", home=home).code == 0  # past or not
    signed_in.post("/zone", {"zone": "Asia/Tokyo"})
    page = signed_in.get("/").text
    assert "Deadline:\n<strong>Sat 28 Nov 2026, 03:00 JST (Asia/Tokyo)</strong>" in page
    assert "1 in a row, 1 in all." in page
    assert page.count("✔ this one") == 1
    assert '<a href="/reports/g1/BR/1.pdf">PDF</a>' in page
    pdf = signed_in.get("/reports/g1/BR/1.pdf")
    assert pdf.status_code == 200 and pdf.data.startswith(b"%PDF")
    assert pdf.headers["Content-Disposition"] == "attachment; filename=g1-turn1-BR.pdf"
    report = json.loads(signed_in.get("/reports/g1/br/1.json").data)
    assert report["seat"] == "BR"


def test_deadline_that_does_not_parse_is_shown_as_written(signed_in, gm, home):
    # Deadlines set before schedules existed were free text.
    conn = sqlite3.connect(home / "gm.db")
    conn.execute("UPDATE games SET deadline = 'Friday <b>teatime</b>', due = NULL")
    conn.commit()
    assert "<strong>Friday &lt;b&gt;teatime&lt;/b&gt;</strong>" in signed_in.get("/").text


def set_gm_password(gm, home, monkeypatch, password=GM_PASSWORD):
    monkeypatch.setattr(sys, "stdin", io.StringIO(password + "\n"))
    return gm("portal", "password", home=home)


def test_gm_page_shows_every_game(app, gm, home, game, monkeypatch):
    assert "No GM password is set" in Player(app.test_client()).get("/gm").text
    ran = set_gm_password(gm, home, monkeypatch)
    assert ran.code == 0 and GM_PASSWORD not in (home / "gm.toml").read_text()
    gm_player = Player(app.test_client())
    gm_player.get("/gm")
    assert gm_player.post("/gm/sign-in", {"password": "not it"}).status_code == 401
    signed_in = Player(app.test_client())
    signed_in.get("/gm")
    assert "Games" in signed_in.post("/gm/sign-in", {"password": GM_PASSWORD}).text
    player = Player(app.test_client())
    player.sign_in("BR", game["BR"])
    player.post("/orders", {"orders": orders("CLAIM ENG", final=True), "action": "submit"})
    page = signed_in.get("/gm").text
    assert "Orders in <strong>1</strong> of 4,\n  missing <strong>3</strong>, final <strong>1</strong>" in page
    assert "ann@example.org" in page


def test_a_short_gm_password_is_refused(gm, home, monkeypatch):
    ran = set_gm_password(gm, home, monkeypatch, "short")
    assert (ran.code, ran.err) == (1, "Error: the GM password must be at least 10 characters long.\n")


def test_credits_and_discount_from_the_books(signed_in, gm, home):
    assert "Turn credits: 0." in signed_in.get("/").text
    assert gm("credits", "buy", "ann@example.org", "10", "--paid", "20", home=home).code == 0
    assert gm("credits", "adjust", "ann@example.org", "--discount", "2", "--reason", "won emp-1", home=home).code == 0
    assert gm("turn", "run", "g1", "--now", "--no-render", home=home).code == 0  # charges one credit
    page = signed_in.get("/").text
    assert "Turn credits: 9." in page and "Discount: 2 bonus turns with every 10 you buy at once." in page


def test_the_gm_page_never_counts_robots_among_the_missing(app, gm, home, game, monkeypatch):
    """Issue 28: a game of robots waiting for its players showed the robots as missing orders."""
    assert gm("game", "new", "i1", "--ruleset", "imperials", "--robots", "2", "--seed", "1", home=home).code == 0
    assert gm("game", "new", "c2", "--ruleset", "clash", "--robots", "2", "--seed", "1", home=home).code == 0
    assert gm("game", "join", "c2", "zed@example.org", "--name", "Zed", home=home).code == 0
    set_gm_password(gm, home, monkeypatch)
    signed_in = Player(app.test_client())
    signed_in.get("/gm")
    page = signed_in.post("/gm/sign-in", {"password": GM_PASSWORD}).text
    waiting = page.split('id="game-i1"')[1].split("</section>")[0]
    assert "Orders in <strong>0</strong> of 0,\n  missing <strong>0</strong>" in waiting
    assert "2 robot seats, which send none" in waiting
    running = page.split('id="game-c2"')[1].split("</section>")[0]
    assert "Orders in <strong>0</strong> of 1,\n  missing <strong>1</strong>" in running


def test_a_check_shows_the_warnings_beside_the_problems_at_their_lines(signed_in):
    # The acknowledgement and gm orders check give warnings; the portal's check showed none.
    text = "GAME g1\nPLAYER BR\nPASSWORD <your secret>\nTURN 1\nCLAIM ENG\nFROBNICATE 3\nEND\nFINAL\n"
    page = signed_in.post("/orders", {"orders": text, "action": "check"})
    assert "Checked: 1 problem</h2>" in page.text
    assert "1 warning: not errors (orders with only warnings count), but check it." in page.text
    assert '<li value="8" class="warning"><code>FINAL</code>' in page.text
    assert "line 8: warning: FINAL after END is ignored, so these orders are not final" in page.text
