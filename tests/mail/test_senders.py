"""The folder sender writes each message exactly as the standard library's as_bytes would."""

from __future__ import annotations

import random
from email import message_from_bytes, policy
from email.message import EmailMessage

import pytest

from gm.mail.senders import FolderSender


def mail(to: str, subject: str, message_id: str, body: str) -> EmailMessage:
    message = EmailMessage()
    message["From"] = "gm@house.example.org"
    message["To"] = to
    message["Subject"] = subject
    message["Message-ID"] = message_id
    message.set_content(body)
    return message


def report_mail() -> EmailMessage:
    message = mail(
        "Jörg Müller <player@example.org>",
        "g1 turn 3: your report",
        "<g1-3-BR@house.example.org>",
        "Your report is attached.\nOrders by Friday.\n",
    )
    pdf = random.Random(7).randbytes(300_000)
    message.add_attachment(pdf, maintype="application", subtype="pdf", filename="g1-3-BR.pdf")
    message.add_attachment("GAME g1\nPLAYER BR\nEND\n", subtype="plain", filename="orders.txt")
    return message


def odd_endings() -> EmailMessage:
    body = "one\r\ntwo\rthree\n\nfour, no newline at the end, ünïcödé"
    return mail("player@example.org", "line endings", "<odd@house.example.org>", body)


def eight_bit_from_the_wire() -> EmailMessage:
    raw = (
        b"From: a@example.org\r\nTo: b@example.org\r\nSubject: raw\r\nMessage-ID: <raw@example.org>\r\n"
        b"Content-Type: text/plain; charset=unknown-8bit\r\nContent-Transfer-Encoding: 8bit\r\n\r\n"
        b"caf\xe9\r\nline two\nline three"
    )
    return message_from_bytes(raw, policy=policy.default)


@pytest.mark.parametrize("make", [report_mail, odd_endings, eight_bit_from_the_wire])
def test_a_folder_mail_is_byte_for_byte_what_as_bytes_gives(make, tmp_path):
    message = make()
    FolderSender(tmp_path).send(message, "g1-3-BR-report")
    assert (tmp_path / "g1-3-BR-report.eml").read_bytes() == message.as_bytes(policy=policy.default)
