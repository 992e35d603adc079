"""Press on the portal in-process: the seat page's form sends press through gm (archived first,
checked as a turn file's, CSRF-guarded), and each seat sees the press it received and sent."""

from __future__ import annotations

import hashlib
import json

from tests.cli.test_game import table_dump
from tests.intake.mails import rows, set_mail_address
from tests.web.conftest import Player
from tests.web.test_portal import orders


def test_press_from_the_seat_page_reaches_the_others_by_mail_and_on_their_page(app, signed_in, home, game):
    set_mail_address(home)
    page = signed_in.get("/")
    assert '<form method="post" action="/press">' in page.text
    assert '<input type="checkbox" name="to" value="FR"> FR' in page.text
    assert 'value="BR"' not in page.text.split('action="/press"')[1].split("</form>")[0]  # not to oneself
    assert "signed: they see it is from BR" in page.text
    sent = signed_in.post("/press", {"to": ["FR", "GE"], "text": "Shall we\r\nshare <Burgundy>?"}, follow=False)
    assert (sent.status_code, sent.headers["Location"]) == (303, "/#press")  # a reload cannot send it twice
    page = signed_in.get("/")
    assert "Sent to FR, GE. The other players get it by mail now, and in their next report." in page.text
    assert "Sent to FR, GE." not in signed_in.get("/").text  # said once
    assert "<strong>You</strong> wrote to FR, GE" in page.text and "Shall we\nshare &lt;Burgundy&gt;?" in page.text
    assert rows(home, "SELECT kind, seat, recipient FROM outbox ORDER BY id") == [
        ("press", "FR", "cy@example.org"),
        ("press", "GE", "di@example.org"),
    ]
    received = {"game": "g1", "seat": "BR", "text": "Shall we\nshare <Burgundy>?", "to": ["FR", "GE"]}
    digest = hashlib.sha256(json.dumps(received, ensure_ascii=False, sort_keys=True).encode()).hexdigest()
    assert rows(home, "SELECT channel, source, archive FROM press") == [("web", f"portal:{digest}#0", digest)]
    assert (home / "archive" / digest[:2] / digest).is_file()
    fr = Player(app.test_client())
    fr.sign_in("FR", game["FR"])
    assert "<strong>From BR</strong> to you, GE" in fr.get("/").text


def test_anonymous_press_on_the_portal_names_nobody(app, signed_in, home, gm, game):
    assert gm("game", "set", "g1", "press", "anonymous", home=home).code == 0
    assert "anonymous: nobody learns it is from you" in signed_in.get("/").text
    assert signed_in.post("/press", {"to": ["FR", "RU"], "text": "Guess who."}).status_code == 200
    fr = Player(app.test_client())
    fr.sign_in("FR", game["FR"])
    section = fr.get("/").text.split('id="press"')[1].split("</section>")[0]
    assert "<strong>Anonymous</strong>, to you and 1 other seat" in section and "BR" not in section.split("<ul")[1]


def test_a_refused_message_comes_back_in_the_form_and_changes_nothing(signed_in, home, gm):
    assert gm("game", "set", "g1", "press-length", "5", home=home).code == 0
    before = table_dump(home)
    page = signed_in.post("/press", {"to": ["FR", "ALL"], "text": "Far too long"})
    assert page.status_code == 400
    assert "Not sent: choose either everyone or seats, not both." in page.text
    page = signed_in.post("/press", {"to": ["FR"], "text": "Far too long"})
    assert page.status_code == 400
    assert (
        "Not sent: the press is 12 characters long and &#39;g1&#39; takes at most 5: shorten it, or send it in parts."
    ) in page.text
    assert '<input type="checkbox" name="to" value="FR" checked> FR' in page.text
    assert ">Far too long</textarea>" in page.text
    for form, why in [
        ({"text": "To whom?"}, "choose whom the press is for: tick one seat or more, or everyone"),
        ({"to": ["FR"], "text": "  "}, "write the message first"),
    ]:
        page = signed_in.post("/press", form)
        assert page.status_code == 400 and f"Not sent: {why}." in page.text
    assert table_dump(home) == before


def test_press_needs_a_signed_in_seat_and_the_forms_token(app, signed_in, home):
    before = table_dump(home)
    assert signed_in.client.post("/press", data={"to": "FR", "text": "no token"}).status_code == 400
    stranger = Player(app.test_client())
    assert stranger.post("/press", {"to": "FR", "text": "hi"}).status_code == 403
    assert table_dump(home) == before


def test_when_the_gm_allows_no_press_the_form_is_gone_and_a_post_is_refused(signed_in, home, gm):
    assert gm("game", "set", "g1", "press", "none", home=home).code == 0
    page = signed_in.get("/")
    assert 'action="/press"' not in page.text and "The GM allows no press in this game." in page.text
    page = signed_in.post("/press", {"to": ["FR"], "text": "hi"})
    assert page.status_code == 400 and "Not sent: the GM allows no press in &#39;g1&#39;." in page.text
    assert rows(home, "SELECT count(*) FROM press") == [(0,)]


def test_a_broadcast_only_game_offers_only_everyone(signed_in, home, gm):
    assert gm("game", "set", "g1", "press-to", "all", home=home).code == 0
    page = signed_in.get("/")
    assert '<input type="hidden" name="to" value="ALL">' in page.text and 'name="to" value="FR"' not in page.text
    assert signed_in.post("/press", {"to": "ALL", "text": "To all."}).status_code == 200
    assert rows(home, "SELECT everyone, recipients FROM press") == [(1, '["RU", "FR", "GE"]')]


def test_press_in_a_turn_file_on_the_portal_leaves_the_orders_alone(signed_in, home):
    signed_in.post("/orders", {"orders": orders("CLAIM ENG"), "action": "submit"})
    press_only = orders("PRESS TO FR: hello\nPRESS TO XX: lost")
    page = signed_in.post("/orders", {"orders": press_only, "action": "submit"})
    assert page.status_code == 400
    assert 'line 5: <span class="ok">sent to FR</span>' in page.text
    assert 'line 6: <span class="refusal">not sent: there is no seat XX in this game' in page.text
    assert rows(home, "SELECT verdict, current FROM submissions") == [("accepted", 1)]
    page = signed_in.post("/orders", {"orders": orders("CLAIM SCO\nPRESS TO GE: and orders"), "action": "submit"})
    assert "Accepted: 1 order for turn 1; they replace your earlier orders." in page.text
    assert 'line 6: <span class="ok">sent to GE</span>' in page.text


def test_the_seat_page_lists_the_newest_press_first(signed_in, home, gm):
    for n in range(22):
        assert signed_in.post("/press", {"to": ["FR"], "text": f"message {n}"}).status_code == 200
    assert gm("game", "announce", "g1", "-m", "From the top.", home=home).code == 0
    section = signed_in.get("/").text.split('id="press"')[1].split("</section>")[0]
    assert section.index("From the top.") < section.index("message 21") < section.index("message 3")
    assert "message 2<" not in section
    assert "The newest 20 messages; a turn’s link shows all of that turn’s press." in section
    assert '<a href="/press/1">Turn 1</a>' in section


def test_a_turns_press_page_shows_every_message_whole_where_the_report_sends_the_reader(app, signed_in, home, gm, game):
    """A report prints its press within a budget and sends the reader to /press/<turn> for the
    rest: every message of the turn the seat reads, whole; one the GM withheld only its sender."""
    long = "\n".join(f"line {n}" for n in range(300))
    for n in range(22):
        assert signed_in.post("/press", {"to": ["FR"], "text": f"message {n}"}).status_code == 200
    assert signed_in.post("/press", {"to": ["FR", "GE"], "text": long}).status_code == 200
    page = signed_in.get("/press/1")
    assert page.status_code == 200 and "<h2>23 messages</h2>" in page.text
    assert all(f"message {n}<" in page.text for n in range(22)) and long in page.text
    [(withheld,)] = rows(home, "SELECT id FROM press WHERE text = 'message 3'")
    assert gm("game", "press", "g1", "--withhold", withheld, home=home).code == 0
    fr = Player(app.test_client())
    fr.sign_in("FR", game["FR"])
    theirs = fr.get("/press/1").text
    assert "<h2>22 messages</h2>" in theirs and "message 3<" not in theirs and "<strong>From BR</strong>" in theirs
    assert "message 3" not in fr.get("/").text.split('id="press"')[1]
    mine = signed_in.get("/press/1").text
    assert "Withheld by the GM: the other players do not read it." in mine and "message 3<" not in mine
    for turn in ("0", "2", "99999999999999999999999"):
        assert signed_in.get(f"/press/{turn}").status_code == 404
    assert Player(app.test_client()).get("/press/1").status_code == 403


def test_a_nul_in_portal_press_is_dropped_as_mail_intake_drops_it(signed_in, home, game):
    # A raw NUL went on into the stored press and every recipient's mail, which may carry none
    # (RFC 5322): a mail server could refuse the mail or cut it there.
    set_mail_address(home)
    assert signed_in.post("/press", {"to": ["FR"], "text": "Meet\x00 me in Paris"}).status_code == 200
    assert rows(home, "SELECT text FROM press") == [("Meet me in Paris",)]
    [(body,)] = rows(home, "SELECT body FROM outbox WHERE kind = 'press'")
    assert "Meet me in Paris" in body and "\x00" not in body


# Every C0 control but the tab and the line ends, DEL, every C1 control but NEL, and the bidi
# embeddings, overrides and isolates: none reaches another seat.
CONTROLS = "".join(map(chr, [*range(1, 9), *range(14, 28), 31, *range(0x7F, 0x85), *range(0x86, 0xA0)]))
BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"


def test_control_characters_and_bidi_overrides_in_press_reach_no_other_seat(app, signed_in, home, game):
    # An escape sequence, backspaces or a form feed went on raw into the others' mail (a terminal
    # mail reader runs them), their PDF and their page, and a right-to-left override turned the
    # text around past the sender's words. A tab, a line break (a form feed, NEL or line
    # separator ends a line, as in a mailed turn file) and the marks right-to-left writing needs
    # (LRM, RLM, ALM) stay.
    set_mail_address(home)
    text = (
        f"\x1b]0;gm: your secret\x07Meet\tme\x08\x08 in {BIDI}Paris{CONTROLS}\r\n\u200f\u061c\u200eשלום\x0cat\x85dawn"
    )
    assert signed_in.post("/press", {"to": ["FR"], "text": text}).status_code == 200
    wanted = "]0;gm: your secretMeet\tme in Paris\n\u200f\u061c\u200eשלום\nat\ndawn"
    assert rows(home, "SELECT text FROM press") == [(wanted,)]
    [(body,)] = rows(home, "SELECT body FROM outbox WHERE kind = 'press'")
    assert wanted in body and not any(c in body for c in CONTROLS + BIDI + "\x1b\x07\x08")
    fr = Player(app.test_client())
    fr.sign_in("FR", game["FR"])
    page = fr.get("/").text
    assert "]0;gm: your secretMeet\tme in Paris" in page and not any(c in page for c in CONTROLS + BIDI)
    # A message of nothing else is refused, and nothing is stored.
    page = signed_in.post("/press", {"to": ["FR"], "text": "\x1b\x07\x1b" + BIDI})
    assert page.status_code == 400 and "Not sent: write the message first." in page.text
    assert len(rows(home, "SELECT text FROM press")) == 1
