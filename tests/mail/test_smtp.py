"""gm mail send against a real SMTP server (aiosmtpd, STARTTLS, AUTH): what arrived, byte for byte."""

from __future__ import annotations

import json
from email import message_from_bytes, policy

import pytest

from tests.intake.mails import configure, mail, receive, rows, set_mail_address, turn_file


@pytest.fixture
def smtp_home(home, game, smtp):
    set_mail_address(home)
    configure(home, smtp.settings())
    return game


@pytest.mark.slow
def test_reports_after_a_turn_arrive_with_their_pdf(home, gm, smtp_home, smtp, monkeypatch):
    for player in ("ann", "bob", "cy", "di"):  # paid up, so no report is held for credits
        assert gm("credits", "buy", f"{player}@example.org", "10", "--paid", "20", home=home).code == 0
    # Ann (BR) asks for the JSON report too.
    receive(gm, monkeypatch, mail(turn_file(smtp_home["BR"], "JSON ON")), home)
    ran = gm("turn", "run", "g1", "--now", home=home)
    assert ran.code == 0 and "Mail: 4 report(s) queued; send them with 'gm mail send'.\n" in ran.out
    ran = gm("mail", "send", home=home)
    assert (ran.code, ran.out) == (0, "Sent 5 mail(s) over SMTP; 0 to try again; 0 failed.\n")
    assert sorted(d.rcpt_tos[0] for d in smtp.handler.delivered) == [  # Ann: the answer to JSON ON, and her report
        "ann@example.org",
        "ann@example.org",
        "bob@example.org",
        "cy@example.org",
        "di@example.org",
    ]
    reports = [d for d in smtp.handler.delivered if b"Auto-Submitted: auto-generated" in d.content]
    [ann] = [d for d in reports if d.rcpt_tos == ["ann@example.org"]]
    assert ann.mail_from == "gm@example.org"
    raw = ann.content
    assert b"\r\nTo: Ann <ann@example.org>\r\n" in raw and raw.startswith(b"From: Game Master <gm@example.org>\r\n")
    message = message_from_bytes(raw, policy=policy.default)
    assert message["Subject"].startswith("g1: ") and "(turn 1)" in message["Subject"]
    parts = {p.get_filename(): p for p in message.iter_attachments()}
    assert sorted(parts) == ["g1-1-BR.html", "g1-1-BR.json", "g1-1-BR.pdf", "g1-2-BR-orders.txt"]
    # The turn kit: the page gm wrote beside the report, offline, with the form in it and no secret.
    kit = parts["g1-1-BR.html"].get_payload(decode=True).decode("utf-8")
    assert parts["g1-1-BR.html"].get_content_type() == "text/html"
    assert kit.encode("utf-8") == (home / "reports/g1/1/BR.html").read_bytes()
    assert "default-src &#39;none&#39;" in kit and "PASSWORD &lt;your secret&gt;" in kit
    assert parts["g1-1-BR.pdf"].get_content_type() == "application/pdf"
    assert parts["g1-1-BR.pdf"]["Content-Transfer-Encoding"] == "base64"
    assert parts["g1-1-BR.pdf"].get_content() == (home / "reports/g1/1/BR.pdf").read_bytes()
    assert json.loads(parts["g1-1-BR.json"].get_content()) == json.loads((home / "reports/g1/1/BR.json").read_text())
    body = message.get_body(("plain",)).get_content().replace("\r\n", "\n")
    assert (
        body.startswith("Hello Ann,\n\n")
        and "Attached: g1-1-BR.pdf, g1-1-BR.json, g1-1-BR.html, g1-2-BR-orders.txt\n" in body
    )
    assert "open the attached turn kit, g1-1-BR.html, in any web browser" in body
    # The order form, in the body to reply with and attached as text: the form of the report.
    form = json.loads((home / "reports/g1/1/BR.json").read_text())["order_form"]
    assert form.startswith("GAME g1\nPLAYER BR\nPASSWORD <your secret>\nTURN 2\n")
    assert parts["g1-2-BR-orders.txt"].get_content().replace("\r\n", "\n") == form and f"\n\n{form}\n-- \n" in body
    assert message["Message-ID"] == "<report.g1.1.BR@example.org>" and message["In-Reply-To"] is None
    [bob] = [d for d in reports if d.rcpt_tos == ["bob@example.org"]]
    bob_files = [p.get_filename() for p in message_from_bytes(bob.content, policy=policy.default).iter_attachments()]
    assert bob_files == ["g1-1-RU.pdf", "g1-1-RU.html", "g1-2-RU-orders.txt"]


def test_acknowledgement_is_a_threaded_reply(home, gm, smtp_home, smtp, monkeypatch):
    raw = mail(
        turn_file(smtp_home["BR"]),
        sender="Zoë Ünal <ann@example.org>",
        subject="Befehle für Runde 1",
        message_id="<orders-1@mail.example.org>",
        References="<report-0@example.org>",
    )
    receive(gm, monkeypatch, raw, home)
    assert gm("mail", "send", home=home).code == 0
    [delivered] = smtp.handler.delivered
    assert delivered.rcpt_tos == ["ann@example.org"]
    head = delivered.content.split(b"\r\n\r\n")[0].split(b"\r\n")
    assert b"To: =?utf-8?q?Zo=C3=AB_=C3=9Cnal?= <ann@example.org>" in head
    assert b"Subject: Re: Befehle =?utf-8?q?f=C3=BCr?= Runde 1" in head
    assert b"In-Reply-To: <orders-1@mail.example.org>" in head
    assert b"References: <report-0@example.org> <orders-1@mail.example.org>" in head
    assert b'Content-Type: text/plain; charset="utf-8"' in head and b"Auto-Submitted: auto-replied" in head
    [message_id] = [h for h in head if h.startswith(b"Message-ID: ")]
    assert message_id.endswith(b"@example.org>")
    body = message_from_bytes(delivered.content, policy=policy.default).get_content()
    assert body.startswith("Hello Zoë Ünal,\n\nACCEPTED: 3 orders for BR in g1, turn 1.\n") or "ACCEPTED" in body


def test_temporary_and_permanent_refusals(home, gm, smtp_home, smtp, monkeypatch):
    smtp.handler.answers["later@example.org"] = ["451 4.7.1 greylisted, try again", None]
    smtp.handler.answers["nobody@example.org"] = "550 5.1.1 no such mailbox"
    receive(gm, monkeypatch, mail("hello", sender="later@example.org", message_id="<1@x>"), home)
    receive(gm, monkeypatch, mail("hello", sender="nobody@example.org", message_id="<2@x>"), home)
    ran = gm("mail", "send", home=home)
    assert ran.code == 1
    assert ran.out.startswith(
        "Mail 1 to later@example.org: not sent (451 4.7.1 greylisted, try again); trying again after "
    )
    assert ran.err == "Mail 2 to nobody@example.org failed for good: 550 5.1.1 no such mailbox.\n"
    assert ran.out.endswith("Sent 0 mail(s) over SMTP; 1 to try again; 1 failed.\n")
    assert rows(home, "SELECT status, attempts FROM outbox ORDER BY id") == [("queued", 1), ("failed", 1)]


def test_wrong_password_sends_nothing_and_keeps_the_queue(home, gm, smtp_home, smtp, monkeypatch):
    receive(gm, monkeypatch, mail("hello"), home)
    monkeypatch.setenv("GM_TEST_SMTP_PASSWORD", "wrong")
    ran = gm("mail", "send", home=home)
    assert ran.code == 1 and ran.err.startswith(
        f"Error: the SMTP server 127.0.0.1:{smtp.port} refused the login of gm (535)"
    )
    assert rows(home, "SELECT status, attempts FROM outbox") == [("queued", 0)] and smtp.handler.delivered == []
    monkeypatch.delenv("GM_TEST_SMTP_PASSWORD")
    ran = gm("mail", "send", home=home)
    assert ran.err == (
        "Error: no password for the SMTP user gm: set the environment variable GM_TEST_SMTP_PASSWORD "
        "or [smtp] password_file.\n"
    )
