"""Reading a mail: charsets, transfer encodings, HTML, attachments, quoted replies, robots."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from gm.intake.finding import find_turn_files
from gm.intake.letter import Text, read_letter
from gm.intake.text import decode_bytes, html_to_text
from tests.intake.mails import mail, turn_file

TF = turn_file("s3cr-et", "CLAIM ENG")


def files(raw: bytes) -> list[str]:
    return [f.text for f in find_turn_files(read_letter(raw).texts)]


def test_plain_mail_gives_its_turn_file_and_how_to_answer():
    raw = mail(
        "Hi GM,\n\n" + TF + "\nAnn\n",
        sender="Ann Example <Ann@Example.org>",
        subject="  my \t orders ",
        message_id="<abc@example.org>",
        References="<old@x.org>",
    )
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
    raw = (
        f"From: a@example.org\nSubject: x\nMIME-Version: 1.0\nContent-Type: text/plain; charset={charset}\n"
        f"Content-Transfer-Encoding: {cte}\n\n"
    ).encode()
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
    assert decode_bytes("Zoë".encode(), "us-ascii") == "Zoë"  # declared ASCII, sent UTF-8
    assert decode_bytes("Zoë".encode(), "iso-8859-1") == "Zoë"  # declared Latin-1, sent UTF-8
    assert decode_bytes("Zoë".encode("cp1252"), "utf-8") == "Zoë"  # declared UTF-8, sent cp1252
    assert decode_bytes("Zoë".encode("cp1252"), "x-no-such-charset") == "Zoë"
    assert decode_bytes(b"\xef\xbb\xbfGAME g1", "latin-1") == "GAME g1"  # a BOM decides


def test_nbsp_bom_and_zero_width_are_cleaned():
    text = "\ufeffGAME\u00a0g1\nPLAYER BR\u200b\nPASSWORD s3cr-et\nCLAIM\u00a0ENG\nEND\n"
    raw = (
        b"From: a@example.org\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n"
        + text.encode()
    )
    assert files(raw) == [TF]


def test_html_only_mail_is_made_text_without_its_quote():
    html = (
        "<html><body><div dir='ltr'><div>GAME g1</div><div>PLAYER&nbsp;BR</div><p>PASSWORD s3cr-et</p>"
        "CLAIM ENG<br>END</div><div class='gmail_quote'>On Sat wrote:<blockquote>GAME g1<br>PLAYER BR<br>"
        "PASSWORD old<br>CLAIM WAL<br>END</blockquote></div></body></html>"
    )
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


@pytest.mark.parametrize(
    "name, content_type",
    [("orders.txt", "text/plain"), ("BR.ord", "application/octet-stream"), ("orders", "text/x-orders")],
)
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
    text = f"{TF}\nOn Sat, 21 Nov 2026 at 10:00, Game Master <\ngm@example.org> wrote:\n" + "".join(
        f"> {entry}\n" for entry in old.splitlines()
    )
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


def _forwarded_as_attachment(note: str, inner: bytes) -> bytes:
    """A mail with `note` as its body and `inner` attached whole (message/rfc822), as Thunderbird's
    and Outlook's "Forward as attachment" send it."""
    return (
        b"From: Ann <ann@example.org>\r\nTo: gm@example.org\r\nSubject: Fwd: orders\r\n"
        b"Message-ID: <fwd@x>\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=BB\r\n\r\n"
        b"--BB\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" + note.encode() + b"\r\n"
        b"--BB\r\nContent-Type: message/rfc822\r\nContent-Disposition: attachment; filename=orders.eml\r\n\r\n"
        + inner
        + b"\r\n--BB--\r\n"
    )


def test_a_turn_file_in_a_mail_forwarded_as_an_attachment_is_taken():
    # It was answered "It has no turn file in it", and went to the GM as a question.
    raw = _forwarded_as_attachment("Here are my orders again.", mail(TF, message_id="<old@x>"))
    found = find_turn_files(read_letter(raw).texts)
    assert [(f.where, f.text) for f in found] == [("forwarded message", TF)]


def test_a_mail_forwarded_as_an_attachment_counts_only_when_the_rest_holds_no_turn_file():
    new = turn_file("s3cr-et", "CLAIM SCO")
    raw = _forwarded_as_attachment(f"New orders, the old ones attached:\n{new}", mail(TF, message_id="<old@x>"))
    assert files(raw) == [new]


def test_a_mail_of_many_mails_forwarded_or_nested_is_read_at_once(monkeypatch):
    # Each forwarded mail was walked whole from every mail it was in: 900 nested in each other
    # (40 kB) took 4 CPU-seconds. Only the mail's own parts are forwarded mails, and 10 at most.
    # What is counted is the work, not the time: each part's walk() is one step, so a mail of n
    # parts read once costs about n steps (a walk from every mail it is in would cost n*n/2).
    from email.message import Message

    from gm.intake.letter import MOST_FORWARDED

    walked = 0
    walk = Message.walk

    def counted(self):  # type: ignore[no-untyped-def]
        nonlocal walked
        walked += 1
        return walk(self)

    monkeypatch.setattr(Message, "walk", counted)
    nested = mail(TF, message_id="<in@x>")
    for _ in range(900):
        nested = b"From: a@b.c\r\nContent-Type: message/rfc822\r\n\r\n" + nested
    attached = b"--BB\r\nContent-Type: message/rfc822\r\n\r\n" + mail("nothing here", message_id="<in@x>") + b"\r\n"
    many = _forwarded_as_attachment("x", b"").replace(b"--BB--", attached * 2000 + b"--BB--")
    assert files(nested) == [TF]
    assert walked <= 3 * 902, walked  # 901 messages and the text inside
    walked = 0
    texts = read_letter(many).texts
    assert walked <= 3 * 4002, walked  # the mail, 2,000 attachments and the mail in each
    assert sum(t.where == "forwarded message" for t in texts) == MOST_FORWARDED


def test_inline_reply_below_a_quote_is_taken():
    text = "On Sat, Game Master wrote:\n> Your report is attached.\n> Deadline Monday.\n\n" + TF
    assert files(mail(text)) == [TF]


def test_game_without_end_is_still_found_so_it_can_be_refused_with_the_reason():
    assert files(mail("GAME g1\nPLAYER BR\nPASSWORD x\nCLAIM ENG\n")) == ["GAME g1\nPLAYER BR\nPASSWORD x\nCLAIM ENG\n"]
    assert files(mail("Game on! see you\n" + TF)) == [TF]


@pytest.mark.parametrize(
    "headers, why",
    [
        ({"Auto-Submitted": "auto-replied"}, "Auto-Submitted: auto-replied"),
        ({"Precedence": "bulk"}, "Precedence: bulk"),
        ({"Precedence": "junk"}, "Precedence: junk"),
        ({"List-Id": "<pbm.lists.example.org>"}, "a mailing list (List-Id)"),
        ({"Return-Path": "<>"}, "a bounce (empty return path)"),
        ({"Return-Path": "<MAILER-DAEMON@mx.example.org>"}, "a bounce (return path MAILER-DAEMON@mx.example.org)"),
        ({"X-Autoreply": "yes"}, "an auto-reply (X-Autoreply)"),
    ],
)
def test_mail_from_programs_is_recognised(headers, why):
    assert read_letter(mail(TF, **{k.replace("-", "_"): v for k, v in headers.items()})).automatic == why


def test_a_person_and_auto_submitted_no_are_not_robots():
    assert read_letter(mail(TF, Auto_Submitted="no", Precedence="first-class")).automatic is None
    assert read_letter(mail(TF), envelope_sender="ann@example.org").automatic is None
    assert read_letter(mail(TF), envelope_sender="").automatic == "a bounce (empty return path)"


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b"\x00\xff" * 50,
        b"From: <<<@@@>>>\n\n",
        b"Content-Type: multipart/mixed\n\nno boundary",
        b"Subject: =?utf-8?b?!!!?=\nMessage-ID: <a b>\n\nx",
    ],
)
def test_never_raises(raw):
    letter = read_letter(raw)
    assert letter.content_hash and isinstance(letter.texts, tuple)
    find_turn_files(letter.texts)


def test_texts_keep_where_they_came_from():
    assert read_letter(mail(TF)).texts == (Text("body", TF),)


# Headers in plain shapes are read without the header registry (gm/intake/letter.py, _Headers);
# what they give must be exactly what the registry gives, for these values and for whole mails.
HEADER_VALUES = {
    "Subject": [
        "orders",
        "  my \t orders  ",
        'Re: [g1] (turn 3) "now"',
        "=?utf-8?q?Zo=C3=AB?=",
        "a =? b",
        "folded\r\n\tline",
        "",
        " ",
        "x\x7fy",
        "tab\tend\t",
    ],
    "From": [
        "Player BR <br1@example.org>",
        "br@example.org",
        "<br@example.org>",
        "O'Brien <ob@x.org>",
        "a.b <x@y.org>",
        '"Doe, John" <j@d.org>',
        "x@y.org (Ann)",
        "  Ann   Lee   <ann@x.org>  ",
        "Ann <a..b@x.org>",
        "Ann <.a@x.org>",
        "Ann<ann@x.org>",
        "ann@x.org, bob@y.org",
        "Ann <ann@x>",
        "=?utf-8?q?Zo=C3=AB?= <z@x.org>",
        "Ann <ann@[192.0.2.1]>",
        "MAILER-DAEMON@mx.example.org",
        "Ann <ann@-x.org>",
        "Ann <ann@x.org.>",
        "a_b+c-d <a_b+c-d@x-y.org>",
        "Ann <ann@x.org",
        "@x.org",
        "Ann <>",
        "",
        "ann",
        "Ann B. <ann@x.org>",
        "Ann\r\n <ann@x.org>",
        "A <a@b.org> B",
        "Ann+ <a@x.org>",
    ],
    "Content-Type": [
        "text/plain",
        "text/plain; charset=utf-8",
        'Text/Plain; Charset="UTF-8"',
        "text/plain;charset=utf-8;",
        "text/plain; charset=utf-8; name=a.txt; name=b.txt",
        "text/plain; format=flowed; delsp=yes",
        'multipart/mixed; boundary="===abc=="',
        'text/plain; name=""',
        "text",
        "text/",
        "/plain",
        'application/octet-stream; name="BR.ord"',
        "text/plain; charset = utf-8",
        "text/plain; name*=utf-8''a%20b.txt",
        "text/plain ; charset=utf-8",
        'text/plain; name="a;b.txt"',
        'text/plain; name="a\\"b"',
        'text/plain; name="=?utf-8?q?a?="',
        "text/plain; charset=utf-8'",
        "text/plain; charset",
        "text/plain; =x",
        'text/plain; name="x  y.txt"',
        "text/plain;\r\n charset=utf-8",
        "text/plain (comment)",
        "text/plain; a=b c",
        "text/x-orders",
        'text/plain; charset="utf-8"; name="orders.txt"',
        "TEXT/HTML; CHARSET=ISO-8859-1",
    ],
    "Content-Disposition": [
        "attachment",
        'attachment; filename="orders.txt"',
        "inline",
        "Attachment; Filename=x.txt",
        'attachment; filename="x y.txt"; size=12',
        "attachment;",
        "attachment; filename*=x",
        "",
        "form-data; name=x",
        "attachment/x",
    ],
}


def _registry_only(monkeypatch):
    from gm.intake import letter

    monkeypatch.setattr(letter._Headers, "plain", lambda self, name: None)


def _registry_reading(name: str, value: str):
    from email import message_from_bytes, policy

    from gm.intake import letter

    try:
        message = message_from_bytes(f"{name}: {value}\n\nbody\n".encode(), policy=policy.default)
        return _read_as(name, message, letter._Headers(message))
    except Exception as exc:  # noqa: BLE001 - read_letter says "unreadable" then: both must raise alike
        return "raises", type(exc).__name__


def _read_as(name, message, headers):
    from gm.intake import letter

    if name == "Subject":
        return headers.text(name)
    if name == "From":
        found = headers.address(name)
        return found and (found.display_name, found.addr_spec, found.username, found.domain)
    part = letter._described(message, headers)
    return part.type, part.charset, part.name, part.disposition


@pytest.mark.parametrize("name", sorted(HEADER_VALUES))
def test_plain_headers_read_as_the_registry_reads_them(name, monkeypatch):
    fast = [_registry_reading(name, value) for value in HEADER_VALUES[name]]
    with monkeypatch.context() as patched:
        _registry_only(patched)
        slow = [_registry_reading(name, value) for value in HEADER_VALUES[name]]
    assert list(zip(HEADER_VALUES[name], fast)) == list(zip(HEADER_VALUES[name], slow))
    from email import message_from_bytes, policy

    from gm.intake import letter

    plain = [
        v
        for v in HEADER_VALUES[name]
        if letter._Headers(message_from_bytes(f"{name}: {v}\n\n".encode(), policy=policy.default)).plain(name)
    ]
    assert len(plain) >= 3  # the fast path is taken for the common shapes, or this test proves nothing


def _mails() -> list[bytes]:
    from tests.intake.clients import corpus
    from tests.intake.test_corpus import CPYTHON

    raws = [raw for _, raw, _ in corpus("s3cr-et", "other")] + [p.read_bytes() for p in CPYTHON]
    for name, values in HEADER_VALUES.items():
        for value in values:
            headers = {
                "From": "Ann <ann@example.org>",
                "Subject": "orders",
                "Message-ID": "<1@example.org>",
                "Content-Type": "text/plain; charset=utf-8",
                name: value,
            }
            raws.append(("".join(f"{k}: {v}\n" for k, v in headers.items()) + "\n" + TF).encode())
    return raws


def test_whole_mails_read_as_through_the_registry(monkeypatch):
    raws = _mails()
    fast = [read_letter(raw) for raw in raws]
    with monkeypatch.context() as patched:
        _registry_only(patched)
        slow = [read_letter(raw) for raw in raws]
    for raw, a, b in zip(raws, fast, slow):
        assert a == b, raw[:300]
    assert len(raws) > 100 and sum(bool(letter.texts) for letter in fast) > 50


_HEADERISH = "aAzZ09 \t<>@.\"';=,()\\/-_+*?%&!#é"


@settings(max_examples=400, deadline=None)
@given(
    name=st.sampled_from(sorted(HEADER_VALUES)),
    value=st.text(alphabet=_HEADERISH, max_size=40)
    | st.sampled_from(sum(HEADER_VALUES.values(), [])).flatmap(
        lambda v: st.integers(0, len(v)).flatmap(
            lambda at: st.text(alphabet=_HEADERISH, max_size=4).map(lambda bit: v[:at] + bit + v[at:])
        )
    ),
)
def test_any_header_value_reads_as_the_registry_reads_it(name, value):
    from gm.intake import letter

    value = value.replace("\r", "").replace("\n", "")
    fast = _registry_reading(name, value)
    original = letter._Headers.plain
    letter._Headers.plain = lambda self, header: None
    try:
        slow = _registry_reading(name, value)
    finally:
        letter._Headers.plain = original
    assert fast == slow


@pytest.mark.parametrize(
    "header",
    [
        b"Subject: {words}",
        b"From: {words}<ann@example.org>",
        b"Reply-To: {words}<ann@example.org>",
        b'Content-Type: text/plain; name="{words}"',
        b'Content-Disposition: attachment; filename="{words}"',
    ],
)
def test_one_header_of_400_kb_of_encoded_words_is_read_in_a_moment(header, parsed):
    # The header registry's parse grows faster than the value: 400 kB of RFC 2047 words in one
    # Content-Type took 11 CPU-s, a From 17 (a mail of 10 MB would take hours). Each value is
    # parsed only as far as its first 2,000 characters (gm.mail.headers.CutHeaders).

    words = b"=?utf-8?q?x?= " * 28_000
    raw = b"From: Ann <ann@example.org>\r\nMessage-ID: <big@x>\r\n" + header.replace(b"{words}", words)
    raw = raw.replace(b"From: Ann <ann@example.org>\r\nFrom:", b"From:") + b"\r\n\r\n" + TF.encode()
    from gm.mail.headers import CutHeaders

    letter = read_letter(raw)
    assert max(parsed.values, default=0) <= CutHeaders.MOST == 2_000  # 400 kB before
    assert letter.unreadable is None and [f.text for f in find_turn_files(letter.texts)] == [TF]
    if header.startswith(b"Subject"):
        assert letter.subject.startswith("x" * 140)  # the words within the first 2,000 characters


class _Parsed:
    """What reading mail asked of the costly parts: the length of every header value the header
    registry parsed (KeptHeaders._made, its one costly step, 2-20 microseconds a character) and of
    every mail the email package's parser was given (about 0.35 microseconds a byte of headers).
    Tests bound these instead of a time, which a loaded machine stretches."""

    def __init__(self) -> None:
        self.values: list[int] = []
        self.mails: list[int] = []


@pytest.fixture
def parsed(monkeypatch) -> _Parsed:
    import gm.intake.letter as letter_module
    from gm.mail.headers import KeptHeaders

    seen = _Parsed()
    made, parser = KeptHeaders._made, letter_module._PARSER

    def counted(self, name, value):
        seen.values.append(len(value) if isinstance(value, str) else 0)
        return made(self, name, value)

    class Counted:
        def parsebytes(self, raw):
            seen.mails.append(len(raw))
            return parser.parsebytes(raw)

    monkeypatch.setattr(KeptHeaders, "_made", counted)
    monkeypatch.setattr(letter_module, "_PARSER", Counted())
    return seen


def _parts(header: bytes, count: int) -> bytes:
    """A mail from Ann of `count` small text parts, each with `header`."""
    part = b"--XX\r\n" + header + b"\r\n\r\nx\r\n"
    return (
        b"From: Ann <ann@example.org>\r\nMessage-ID: <parts@x>\r\nMIME-Version: 1.0\r\n"
        b"Content-Type: multipart/mixed; boundary=XX\r\n\r\n" + part * count + b"--XX--\r\n"
    )


@pytest.mark.parametrize(
    "header",
    [
        b"Content-Type: text/plain; " + b"a=b; " * 390,
        b'Content-Type: text/plain; name="' + b"a b " * 490 + b'"',
        b"Content-Type: text/plain; name=" + b"=?utf-8?q?a?= " * 140,
    ],
)
def test_a_mail_of_many_parts_with_long_headers_is_refused_in_a_moment_with_its_sender_known(header, parsed):
    # Each value is cut at 2,000 characters, but the email package reads a part's Content-Type
    # several times: 100 parts of 2,000 characters of parameters (200 kB) took 9 CPU-s, a 1 MB
    # mail of 500 of them 47. The header values of one mail are parsed as far as 100,000
    # characters in all (CutHeaders.MOST_A_MAIL); past that it is refused, answered at its From.

    from gm.mail.headers import CutHeaders

    letter = read_letter(_parts(header, 100))
    # Within the budget, its own headers read again for the sender included (hundreds of
    # thousands of characters before, 9 CPU-s).
    assert sum(parsed.values) <= 2 * CutHeaders.MOST_A_MAIL
    assert letter.unreadable == (
        "the mail could not be read: its headers are too long to read (more than 100,000 characters in "
        "all, its parts' with its own): send the turn file in a new mail"
    )
    assert (letter.sender, letter.message_id, letter.texts) == ("ann@example.org", "<parts@x>", ())
    # A mail of a few such parts, or of many parts with headers a person's program writes, reads.
    assert read_letter(_parts(header, 3)).unreadable is None
    many = read_letter(_parts(b'Content-Type: text/plain; charset="utf-8"; name="orders.txt"', 2_000))
    assert many.unreadable is None and len(many.texts) == 2_000


def test_a_header_block_over_1_mib_is_refused_unparsed_with_its_sender_known(parsed):
    # A 4 MB block of 300,000 short headers took 1.4 CPU-s, 10 MB 3.5 (about 0.35 microseconds
    # a byte). The header block a mail begins with is at most MOST_HEADER_BYTES; past that only
    # its first 1 MiB are read, for the sender.

    from gm.intake.letter import MOST_HEADER_BYTES

    def block(size: int) -> bytes:
        lines = b"".join(b"X-H%06d: v\r\n" % n for n in range(size // 13 + 1))[:size]
        return lines[: lines.rfind(b"\n") + 1]

    head = b"From: Ann <ann@example.org>\r\nMessage-ID: <big@x>\r\n"
    letter = read_letter(head + block(10_000_000) + b"\r\n" + TF.encode())
    assert parsed.mails and max(parsed.mails) <= MOST_HEADER_BYTES + 1  # 10 MB parsed before
    assert letter.unreadable == (
        "the mail could not be read: its header block is too large (more than 1,048,576 bytes): send the turn "
        "file in a new mail"
    )
    assert (letter.sender, letter.message_id, letter.texts) == ("ann@example.org", "<big@x>", ())
    one_line = read_letter(head + b"X-Long: " + b"x" * MOST_HEADER_BYTES + b"\r\n\r\n" + TF.encode())
    assert one_line.unreadable == letter.unreadable and one_line.sender == "ann@example.org"
    # Just under the bound: read as any mail.
    under = head + block(MOST_HEADER_BYTES - len(head) - 2) + b"\r\n"
    assert MOST_HEADER_BYTES - 16 < len(under) <= MOST_HEADER_BYTES
    assert files(under + TF.encode()) == [TF]
