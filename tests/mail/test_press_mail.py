"""Press by mail, end to end: players mail press to gm (a pipe and a mailbox), gm mails it on at once
from the house address through a real SMTP server (aiosmtpd on loopback), nobody learns anybody's
address, each seat's press is one thread, and the GM's announcements go the same way."""

from __future__ import annotations

import mailbox
import sqlite3
from email import message_from_bytes, policy

from tests.intake.mails import GM_ADDRESS, configure, mail, receive, rows, set_mail_address

ADDRESSES = {"BR": "ann@example.org", "RU": "bob@example.org", "FR": "cy@example.org", "GE": "di@example.org"}


def press_file(secret: str, body: str, seat: str = "BR") -> str:
    return f"GAME g1\nPLAYER {seat}\nPASSWORD {secret}\n{body}\nEND\n"


def delivered_to(smtp, address: str) -> list:
    return [
        (d.content, message_from_bytes(d.content, policy=policy.default))
        for d in smtp.handler.delivered
        if d.rcpt_tos == [address]
    ]


def test_press_by_mail_goes_out_at_once_from_the_house_and_threads_per_seat(home, gm, game, smtp, monkeypatch):
    set_mail_address(home)
    configure(home, smtp.settings())
    first = mail(
        press_file(game["BR"], "PRESS TO FR, RU\nShall we share Burgundy?\nENDPRESS"),
        sender="Ann Example <ann@example.org>",
        subject="press",
        message_id="<p1@ann>",
    )
    ran = receive(gm, monkeypatch, first, home)
    assert ran.out.startswith("stdin: press from BR in g1; press: 1 sent; answer: outbox"), ran.out
    second = mail(
        press_file(game["BR"], "PRESS TO FR: And Picardy?"),
        sender="Ann Example <ann@example.org>",
        message_id="<p2@ann>",
    )
    assert "press: 1 sent" in receive(gm, monkeypatch, second, home).out
    assert gm("mail", "send", home=home).out == "Sent 5 mail(s) over SMTP; 0 to try again; 0 failed.\n"

    [(_, answer), (_, answer2)] = delivered_to(smtp, "ann@example.org")
    assert answer["In-Reply-To"] == "<p1@ann>" and answer["Auto-Submitted"] == "auto-replied"
    assert "PRESS from BR in g1" in answer.get_content() and "line 4: SENT to RU, FR." in answer.get_content()
    [(raw_ru, to_ru)] = delivered_to(smtp, "bob@example.org")
    (raw_fr, to_fr), (raw_fr2, to_fr2) = delivered_to(smtp, "cy@example.org")
    for raw, message in [(raw_ru, to_ru), (raw_fr, to_fr), (raw_fr2, to_fr2)]:
        assert str(message["From"]) == f"Game Master <{GM_ADDRESS}>"
        assert message["Reply-To"] is None and message["Auto-Submitted"] == "auto-generated"
        assert b"ann@example.org" not in raw and b"Ann Example" not in raw
    assert to_fr["Subject"] == "g1: press from BR to FR"
    assert "BR sends press in g1, turn 1, to RU, you:\n\nShall we share Burgundy?\n" in to_fr.get_content().replace(
        "\r\n", "\n"
    )
    assert to_fr2.get_content().count("And Picardy?") == 1
    assert to_fr2["In-Reply-To"] == to_fr["Message-ID"] and to_fr2["References"] == to_fr["Message-ID"]
    assert to_ru["Message-ID"] != to_fr["Message-ID"] and to_ru["In-Reply-To"] is None


def test_anonymous_press_by_mail_names_nobody(home, gm, game, smtp, monkeypatch):
    set_mail_address(home)
    configure(home, smtp.settings())
    assert gm("game", "set", "g1", "press", "anonymous", home=home).code == 0
    sent = mail(
        press_file(game["RU"], "PRESS TO FR, GE\nWatch Britain.\nENDPRESS", seat="RU"),
        sender="Bob <bob@example.org>",
        message_id="<a1@bob>",
    )
    assert "press: 1 sent" in receive(gm, monkeypatch, sent, home).out
    assert gm("mail", "send", home=home).code == 0
    for address in ("cy@example.org", "di@example.org"):
        [(raw, message)] = delivered_to(smtp, address)
        assert message["Subject"] in ("g1: press (anonymous) to FR", "g1: press (anonymous) to GE")
        assert b"bob@example.org" not in raw and b"RU" not in raw and b"Bob" not in raw
        assert "Anonymous press in g1, turn 1, to you and 1 other seat:" in message.get_content()


def test_a_mailbox_of_press_takes_each_message_on_its_own(home, gm, game, smtp, monkeypatch, tmp_path):
    """Good press, a wrong secret, press with orders, press in a closed game: one bad message never
    stops the others, each is archived, and each sender gets the answer about their own."""
    set_mail_address(home)
    configure(home, smtp.settings())
    maildir = mailbox.Maildir(tmp_path / "Maildir", create=True)
    maildir.add(mail(press_file("wrong", "PRESS TO FR: from a stranger"), sender="x@example.net", message_id="<m1@x>"))
    maildir.add(
        mail(
            press_file(game["GE"], "CLAIM ENG\nPRESS TO BR: and orders too", seat="GE"),
            sender="Di <di@example.org>",
            message_id="<m2@x>",
        )
    )
    maildir.add(
        mail(
            press_file(game["FR"], "PRESS TO ALL\nHello all.\nENDPRESS\nPRESS TO XX: lost", seat="FR"),
            sender="Cy <cy@example.org>",
            message_id="<m3@x>",
        )
    )
    ran = gm("inbox", "import", tmp_path / "Maildir", home=home)
    assert "Taken: 1 accepted, 1 press, 1 refused" in ran.out, ran.out
    assert sorted(
        rows(home, "SELECT s.code, p.recipients, p.text FROM press p JOIN seats s ON s.id = p.sender_seat_id")
    ) == [("FR", '["BR", "RU", "GE"]', "Hello all."), ("GE", '["BR"]', "and orders too")]
    assert len({digest for (digest,) in rows(home, "SELECT digest FROM mail_taken")}) == 3
    assert gm("mail", "send", home=home).code == 0
    [(_, stranger)] = delivered_to(smtp, "x@example.net")
    assert "REFUSED: wrong password for player BR of 'g1'." in stranger.get_content()
    assert "Your press" not in stranger.get_content()
    [(_, cy)] = delivered_to(smtp, "cy@example.org")
    assert "line 4: SENT to everyone." in cy.get_content()
    assert "line 7: NOT SENT (to XX): there is no seat XX in this game" in cy.get_content()
    # The same mailbox again takes nothing twice.
    assert gm("inbox", "import", tmp_path / "Maildir", home=home).out == "No new mail (3 taken before).\n"
    assert rows(home, "SELECT count(*) FROM press") == [(2,)]


def test_press_a_crash_cut_short_is_told_never_sent_twice(home, gm, game, monkeypatch):
    """gm inbox receive takes one message step by step: if it stopped after the press was stored
    but before the message was recorded, the mail server hands the message over again; gm finds
    the press by its source, answers with it, and sends nothing twice."""
    set_mail_address(home)
    raw = mail(press_file(game["BR"], "PRESS TO FR: once only"), message_id="<c1@ann>")
    assert "press: 1 sent" in receive(gm, monkeypatch, raw, home).out
    # What a crash between the two commits leaves: the press and its mail, no record of the message.
    conn_rows = rows(home, "SELECT count(*) FROM outbox")
    conn = sqlite3.connect(home / "gm.db")
    with conn:
        conn.execute("DELETE FROM mail_taken")
        conn.execute("DELETE FROM outbox WHERE kind = 'acknowledgement'")
    conn.close()
    ran = receive(gm, monkeypatch, raw, home)
    assert ran.out.startswith("stdin: press from BR in g1; press: 1 sent; answer: outbox"), ran.out
    assert rows(home, "SELECT count(*) FROM press") == [(1,)]
    assert rows(home, "SELECT count(*) FROM outbox") == conn_rows
    assert rows(home, "SELECT kind FROM outbox ORDER BY id") == [("press",), ("acknowledgement",)]


def test_announcements_reach_every_player_by_smtp(home, gm, game, smtp):
    set_mail_address(home)
    configure(home, smtp.settings())
    assert gm("game", "announce", "g1", "-m", "Turn 1 is due on Friday, 18:00 UTC.", home=home).code == 0
    assert gm("mail", "send", home=home).out == "Sent 4 mail(s) over SMTP; 0 to try again; 0 failed.\n"
    for seat, address in ADDRESSES.items():
        [(raw, message)] = delivered_to(smtp, address)
        assert message["Subject"] == "g1: a note from the GM to every seat"
        assert "Turn 1 is due on Friday, 18:00 UTC." in message.get_content()
        assert f"for {seat}" in message.get_content()
        assert all(other.encode() not in raw for other in ADDRESSES.values() if other != address)


def test_control_characters_in_press_by_mail_reach_no_other_seat(home, gm, game, monkeypatch):
    # As on the portal (tests/web/test_press_portal.py): an escape sequence, a C1 control and a
    # right-to-left override in a mailed press block went on raw to every recipient.
    set_mail_address(home)
    text = "PRESS TO FR\nMeet me in \u202eParis\u202c\x1b[2J\x85 at \x0cdawn\tsharp\nENDPRESS"
    ran = receive(gm, monkeypatch, mail(press_file(game["BR"], text), message_id="<c1@ann>"), home)
    assert "press: 1 sent" in ran.out
    # The NEL and the form feed end lines, as they end the turn file's lines.
    assert rows(home, "SELECT text FROM press") == [("Meet me in Paris[2J\n at\ndawn\tsharp",)]
    [(body,)] = rows(home, "SELECT body FROM outbox WHERE kind = 'press'")
    assert "Meet me in Paris[2J\n at\ndawn\tsharp" in body and not any(c in body for c in "\u202e\u202c\x1b\x85\x0c")
    # A message of nothing else is refused, and nothing is stored.
    ran = receive(
        gm, monkeypatch, mail(press_file(game["BR"], "PRESS TO FR: \x1b\u202e\x07"), message_id="<c2@ann>"), home
    )
    assert "press: 0 sent, 1 not sent" in ran.out
    assert len(rows(home, "SELECT text FROM press")) == 1
    [*_, (answer,)] = rows(home, "SELECT body FROM outbox WHERE recipient = 'ann@example.org'")
    assert "the press has no text but control characters, which gm does not pass on: write the message." in answer


def test_a_file_of_thousands_of_press_messages_is_read_as_far_as_a_seat_may_send(home, gm, game, monkeypatch):
    """A seat sends at most press-per-turn messages in a turn; a file of 30,000 got an answer of
    30,000 'NOT SENT' lines (4 MB) on main. Now the rest is one line, and nothing more goes out."""
    set_mail_address(home)
    assert gm("game", "set", "g1", "press-per-turn", "3", home=home).code == 0
    flood = "\n".join(f"PRESS TO RU\nhello {n}\nENDPRESS" for n in range(30_000))
    ran = receive(gm, monkeypatch, mail(press_file(game["BR"], flood), message_id="<flood@ann>"), home)
    assert "; press: 3 sent, 1 not sent; answer: outbox" in ran.out
    assert rows(home, "SELECT count(*) FROM outbox WHERE kind = 'press'") == [(3,)]
    [(answer,)] = rows(home, "SELECT body FROM outbox WHERE kind = 'acknowledgement'")
    assert len(answer) < 2_000
    assert (
        "  line 13: NOT SENT: this turn file holds 30,000 press messages and gm reads at most 3 of one file "
        "(the most a seat sends in a turn of 'g1'): this one and the 29,996 after it were not read.\n"
    ) in answer
    # Within the limit, a seat's own count for the turn still decides each message.
    again = mail(press_file(game["BR"], "PRESS TO RU\nonce more\nENDPRESS"), message_id="<again@ann>")
    assert "press: 0 sent, 1 not sent" in receive(gm, monkeypatch, again, home).out
