"""Reading a mail: charsets, transfer encodings, HTML, attachments, quoted replies, robots."""
from __future__ import annotations

import pytest

from gm.intake.finding import find_turn_files
from gm.intake.letter import Text, read_letter
from gm.intake.text import decode_bytes, html_to_text
from tests.intake.mails import mail, turn_file

TF = turn_file("s3cr-et", "CLAIM ENG")


def files(raw: bytes) -> list[str]:
    return [f.text for f in find_turn_files(read_letter(raw).texts)]


def test_plain_mail_gives_its_turn_file_and_how_to_answer():
    raw = mail("Hi GM,\n\n" + TF + "\nAnn\n", sender="Ann Example <Ann@Example.org>", subject="  my \t orders ",
               message_id="<abc@example.org>", References="<old@x.org>")
    letter = read_letter(raw)
    assert (letter.message_id, letter.sender, letter.subject) == ("<abc@example.org>", "ann@example.org", "my orders")
    assert (letter.answer_to.display_name, letter.answer_to.addr_spec) == ("Ann Example", "Ann@Example.org")
    assert letter.references == ("<old@x.org>", "<abc@example.org>")
    assert letter.automatic is None and letter.unreadable is None
    assert files(raw) == [TF]


def test_reply_to_wins_over_from():
    letter = read_letter(mail(TF, Reply_To="Ann at home <ann@home.example>"))
    assert letter.answer_to.addr_spec == "ann@home.example" and letter.sender == "ann@example.org"


@pytest.mark.parametrize("cte", ["quoted-printable", "base64"])
@pytest.mark.parametrize("charset", ["utf-8", "iso-8859-1", "windows-1252", "utf-16"])
def test_transfer_encodings_and_charsets(cte, charset):
    body = TF.replace("CLAIM ENG", "CLAIM ENG  # Zoë’s move" if charset != "iso-8859-1" else "CLAIM ENG  # Zoë")
    raw = (f"From: a@example.org\nSubject: x\nMIME-Version: 1.0\nContent-Type: text/plain; charset={charset}\n"
           f"Content-Transfer-Encoding: {cte}\n\n").encode()
    data = body.encode(charset)
    if cte == "base64":
        import base64
        raw += base64.encodebytes(data)
    else:
        import quopri
        raw += quopri.encodestring(data)
    [found] = files(raw)
    assert found.splitlines()[3].startswith("CLAIM ENG  # Zo")
    assert "Zoë" in found


def test_wrong_charset_declarations_fall_back():
    assert decode_bytes("Zoë".encode("utf-8"), "us-ascii") == "Zoë"        # declared ASCII, sent UTF-8
    assert decode_bytes("Zoë".encode("utf-8"), "iso-8859-1") == "Zoë"      # declared Latin-1, sent UTF-8
    assert decode_bytes("Zoë".encode("cp1252"), "utf-8") == "Zoë"          # declared UTF-8, sent cp1252
    assert decode_bytes("Zoë".encode("cp1252"), "x-no-such-charset") == "Zoë"
    assert decode_bytes(b"\xef\xbb\xbfGAME g1", "latin-1") == "GAME g1"   # a BOM decides


def test_nbsp_bom_and_zero_width_are_cleaned():
    text = "\ufeffGAME\u00a0g1\nPLAYER BR\u200b\nPASSWORD s3cr-et\nCLAIM\u00a0ENG\nEND\n"
    raw = b"From: a@example.org\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n" + text.encode()
    assert files(raw) == [TF]


def test_html_only_mail_is_made_text_without_its_quote():
    html = ("<html><body><div dir='ltr'><div>GAME g1</div><div>PLAYER&nbsp;BR</div><p>PASSWORD s3cr-et</p>"
            "CLAIM ENG<br>END</div><div class='gmail_quote'>On Sat wrote:<blockquote>GAME g1<br>PLAYER BR<br>"
            "PASSWORD old<br>CLAIM WAL<br>END</blockquote></div></body></html>")
    raw = b"From: a@example.org\nContent-Type: text/html; charset=utf-8\n\n" + html.encode()
    [found] = files(raw)
    assert [line.strip() for line in found.splitlines() if line.strip()] == TF.splitlines()
    assert html_to_text("") == "" and html_to_text("<?xml version='1.0' encoding='utf-8'?><p>x</p>").strip() == "x"


def test_plain_part_is_preferred_over_html():
    message = mail(TF)
    from email import message_from_bytes, policy
    msg = message_from_bytes(message, policy=policy.default)
    msg.add_alternative("<p>GAME g1</p><p>PLAYER BR</p><p>PASSWORD other</p><p>PASS</p><p>END</p>", subtype="html")
    assert files(msg.as_bytes()) == [TF]


@pytest.mark.parametrize("name, content_type", [("orders.txt", "text/plain"), ("BR.ord", "application/octet-stream"),
                                                ("orders", "text/x-orders")])
def test_turn_file_as_attachment(name, content_type):
    from email import message_from_bytes, policy
    msg = message_from_bytes(mail("Orders attached.\n-- \nAnn\n"), policy=policy.default)
    maintype, subtype = content_type.split("/")
    msg.add_attachment(TF.encode("utf-16"), maintype=maintype, subtype=subtype, filename=name)
    found = find_turn_files(read_letter(msg.as_bytes()).texts)
    assert [(f.where, f.text) for f in found] == [(f"attachment {name}", TF)]


def test_pdf_attachment_is_not_read():
    from email import message_from_bytes, policy
    msg = message_from_bytes(mail("see attached"), policy=policy.default)
    msg.add_attachment(b"%PDF-1.7 GAME g1", maintype="application", subtype="pdf", filename="report.pdf")
    assert [t.where for t in read_letter(msg.as_bytes()).texts] == ["body"]


def test_two_turn_files_one_per_game_and_a_repeat_counts_once():
    other = turn_file("xyz", "PASS", seat="FR", game="g2")
    raw = mail(f"{TF}\nand the other game:\n\n{other}\nagain: {TF}")
    assert files(raw) == [TF, other]


def test_top_posted_reply_takes_the_new_orders_not_the_quoted_ones():
    old = turn_file("s3cr-et", "CLAIM WAL")
    text = f"{TF}\nOn Sat, 21 Nov 2026 at 10:00, Game Master <\ngm@example.org> wrote:\n" + "".join(f"> {l}\n" for l in old.splitlines())
    assert files(mail(text)) == [TF]


def test_outlook_original_message_below_is_left_out():
    old = turn_file("s3cr-et", "CLAIM WAL")
    text = f"{TF}\n________________________________\nFrom: Game Master <gm@example.org>\nSent: Saturday\nTo: Ann\nSubject: report\n\n{old}"
    assert files(mail(text)) == [TF]
    text = f"New ones:\n{TF}\n-----Original Message-----\n{old}"
    assert files(mail(text)) == [TF]


def test_forwarded_turn_file_is_taken():
    text = f"Please take my orders, my mail is broken.\n\n---------- Forwarded message ---------\nFrom: Ann\n\n{TF}"
    assert files(mail(text)) == [TF]


def test_inline_reply_below_a_quote_is_taken():
    text = "On Sat, Game Master wrote:\n> Your report is attached.\n> Deadline Monday.\n\n" + TF
    assert files(mail(text)) == [TF]


def test_game_without_end_is_still_found_so_it_can_be_refused_with_the_reason():
    assert files(mail("GAME g1\nPLAYER BR\nPASSWORD x\nCLAIM ENG\n")) == ["GAME g1\nPLAYER BR\nPASSWORD x\nCLAIM ENG\n"]
    assert files(mail("Game on! see you\n" + TF)) == [TF]


@pytest.mark.parametrize("headers, why", [
    ({"Auto-Submitted": "auto-replied"}, "Auto-Submitted: auto-replied"),
    ({"Precedence": "bulk"}, "Precedence: bulk"),
    ({"Precedence": "junk"}, "Precedence: junk"),
    ({"List-Id": "<pbm.lists.example.org>"}, "a mailing list (List-Id)"),
    ({"Return-Path": "<>"}, "a bounce (empty return path)"),
    ({"Return-Path": "<MAILER-DAEMON@mx.example.org>"}, "a bounce (return path MAILER-DAEMON@mx.example.org)"),
    ({"X-Autoreply": "yes"}, "an auto-reply (X-Autoreply)"),
])
def test_mail_from_programs_is_recognised(headers, why):
    assert read_letter(mail(TF, **{k.replace("-", "_"): v for k, v in headers.items()})).automatic == why


def test_a_person_and_auto_submitted_no_are_not_robots():
    assert read_letter(mail(TF, Auto_Submitted="no", Precedence="first-class")).automatic is None
    assert read_letter(mail(TF), envelope_sender="ann@example.org").automatic is None
    assert read_letter(mail(TF), envelope_sender="").automatic == "a bounce (empty return path)"


@pytest.mark.parametrize("raw", [b"", b"\x00\xff" * 50, b"From: <<<@@@>>>\n\n", b"Content-Type: multipart/mixed\n\nno boundary",
                                 b"Subject: =?utf-8?b?!!!?=\nMessage-ID: <a b>\n\nx"])
def test_never_raises(raw):
    letter = read_letter(raw)
    assert letter.content_hash and isinstance(letter.texts, tuple)
    find_turn_files(letter.texts)


def test_texts_keep_where_they_came_from():
    assert read_letter(mail(TF)).texts == (Text("body", TF),)
