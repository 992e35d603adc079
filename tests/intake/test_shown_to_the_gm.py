"""A stranger's mail drives no terminal: what gm prints of it has its control characters escaped."""

from __future__ import annotations

import base64
import json
import re

from tests.intake.mails import receive, turn_file

# ESC sequences (set the window title, clear the screen), a carriage return and backspaces that
# write over a line, a C1 control (CSI), a bidi override that turns the line around.
HOSTILE = "\x1b]2;pwned\x07\x1b[2J\rAll good\x08\x08\x9b8m\u202eevil"
UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _word(text: str) -> bytes:
    return b"=?utf-8?b?" + base64.b64encode(text.encode()) + b"?="


def _raw(body: str, message_id: str) -> bytes:
    return (
        b"From: " + _word("Ann" + HOSTILE) + b" <ann@example.org>\r\nTo: gm@example.org\r\n"
        b"Subject: " + _word("Q " + HOSTILE) + b"\r\nMessage-ID: <" + message_id.encode() + b">\r\n"
        b"MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n"
        b"Content-Transfer-Encoding: 8bit\r\n\r\n" + body.encode() + b"\r\n"
    )


def test_a_question_with_terminal_escapes_is_listed_with_them_spelled_out(home, gm, mail_home, monkeypatch):
    assert receive(gm, monkeypatch, _raw(f"Hello GM {HOSTILE}\nsecond line", "q1@x"), home).code == 0
    listed = gm("inbox", "questions", home=home)
    assert listed.code == 0 and not UNSAFE.search(listed.out + listed.err), repr(listed.out)
    # (intake makes the body's carriage return a line break)
    assert "Hello GM \\x1b]2;pwned\\x07\\x1b[2J\n    All good\\x08\\x08\\x9b8m\\u202eevil" in listed.out
    assert "    second line\n" in listed.out  # line breaks stay line breaks
    as_json = gm("inbox", "questions", "--json", home=home)
    assert not UNSAFE.search(as_json.out)
    # The JSON still says exactly what was sent.
    assert HOSTILE.replace("\r", "\n") in json.loads(as_json.out)[0]["text"]


def test_a_turn_file_naming_a_seat_with_terminal_escapes_is_answered_with_them_spelled_out(
    home, gm, mail_home, monkeypatch
):
    raw = _raw(turn_file(mail_home["BR"]).replace("PLAYER BR", "PLAYER BR" + HOSTILE), "t1@x")
    ran = receive(gm, monkeypatch, raw, home)
    assert ran.code == 0 and "refused" in ran.out
    assert not UNSAFE.search(ran.out + ran.err), repr(ran.out)
