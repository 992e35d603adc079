"""A mail's attachments in base64: gm.mail.compose.add_bytes gives the bytes the standard library's
add_attachment gives, for any size, file name and line ending, at a fraction of its CPU (issue 32)."""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import random
from datetime import UTC, datetime
from email import policy
from email.headerregistry import Address
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

import pytest

from gm.mail.compose import add_bytes, base64_lines, compose, set_boundary
from gm.store.outbox import Queued

SIZES = [0, 1, 2, 3, 56, 57, 58, 114, 1000, 4096, 300_001]
NAMES = ["empires-3-FR.pdf", "Überlingen-10-ÄÖ.html", "a name with spaces and a ; semicolon.json"]


def _message() -> EmailMessage:
    message = EmailMessage()
    message["Subject"] = "report"
    message.set_content("Your report is attached.\n")
    return message


@pytest.mark.parametrize("size", SIZES)
def test_an_attachment_is_the_standard_librarys_byte_for_byte(size: int) -> None:
    data = random.Random(size).randbytes(size)
    for name in NAMES:
        for maintype, subtype in [("application", "pdf"), ("text", "html"), ("application", "json")]:
            theirs, ours = _message(), _message()
            theirs.add_attachment(data, maintype=maintype, subtype=subtype, filename=name)
            add_bytes(ours, data, maintype, subtype, name)
            for made in (theirs, ours):
                made.set_boundary("the-same-boundary")  # else a random one each
            for how in (policy.default, policy.SMTP):
                assert ours.as_bytes(policy=how) == theirs.as_bytes(policy=how), (size, name, how)


def test_base64_lines_are_76_characters_and_read_back() -> None:
    data = random.Random(7).randbytes(10_000)
    text = base64_lines(data)
    lines = text.split("\n")
    assert lines[-1] == "" and all(len(line) == 76 for line in lines[:-2]) and 0 < len(lines[-2]) <= 76
    assert base64.b64decode(text) == data
    assert base64_lines(b"") == ""


def test_two_attachments_keep_their_order_and_bodies() -> None:
    message = _message()
    add_bytes(message, b"first", "application", "pdf", "one.pdf")
    add_bytes(message, b"second", "text", "html", "two.html")
    parts = list(message.iter_attachments())
    assert [p.get_filename() for p in parts] == ["one.pdf", "two.html"]
    assert [p.get_content() for p in parts] == [b"first", "second"]


def _queued(tmp_path: Path, body: str = "Your report is attached.\n", form: str = "A1 holds\n") -> Queued:
    (tmp_path / "r.pdf").write_bytes(b"%PDF-1.7 " + bytes(range(256)) * 50)
    sha = hashlib.sha256((tmp_path / "r.pdf").read_bytes()).hexdigest()
    return Queued(
        **{
            **{f.name: None for f in dataclasses.fields(Queued)},
            **dict(
                id=1,
                kind="report",
                recipient="p@players.example.org",
                recipient_name="Player One",
                subject="empires-1 turn 3",
                body=body,
                attachments=[
                    {"path": "r.pdf", "filename": "empires-1-3-FR.pdf", "type": "application/pdf", "sha256": sha},
                    {"filename": "empires-1-4-FR-orders.txt", "type": "text/plain", "content": form},
                ],
                message_id="<report-1@house.example.org>",
                references=[],
            ),
        }
    )


NOW = datetime(2026, 11, 28, 18, 0, tzinfo=UTC)
SENDER = Address("The House", addr_spec="gm@house.example.org")


def test_a_report_mail_has_a_boundary_of_its_content_and_reads_back(tmp_path: Path) -> None:
    mail = _queued(tmp_path)
    message = compose(mail, SENDER, tmp_path, NOW)
    boundary = message.get_boundary()
    assert boundary is not None and boundary.startswith("=_gm_")
    again = compose(mail, SENDER, tmp_path, NOW).as_bytes()
    assert message.as_bytes() == again  # the same mail, the same bytes: no boundary drawn at random
    read = BytesParser(policy=policy.default).parsebytes(again)
    assert isinstance(read, EmailMessage)
    parts = list(read.iter_attachments())
    assert [p.get_filename() for p in parts] == ["empires-1-3-FR.pdf", "empires-1-4-FR-orders.txt"]
    assert parts[0].get_content() == (tmp_path / "r.pdf").read_bytes() and parts[1].get_content() == "A1 holds\n"
    other = compose(_queued(tmp_path, form="B2 holds\n"), SENDER, tmp_path, NOW).get_boundary()
    assert other is not None and other != boundary  # another mail, another boundary


def test_a_boundary_a_part_holds_is_not_used(tmp_path: Path) -> None:
    message = compose(_queued(tmp_path), SENDER, tmp_path, NOW)
    taken = message.get_boundary()
    assert taken is not None
    message.get_payload()[-1].set_content(f"--{taken}\nA1 holds\n", filename="orders.txt")
    message.del_param("boundary")
    set_boundary(message, taken.removeprefix("=_gm_"))
    assert message.get_boundary() is None  # left to the generator, which picks another one
    flat = message.as_bytes()
    assert f"\n--{message.get_boundary()}\n".encode() in flat and message.get_boundary() != taken
    read = BytesParser(policy=policy.default).parsebytes(flat)
    assert [p.get_content() for p in read.iter_attachments()][-1] == f"--{taken}\nA1 holds\n"
