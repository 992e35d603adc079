"""The outbox: each mail sent once, retries with back-off, permanent failures, no header injection."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from email import message_from_bytes, policy

import pytest

from gm.clock import FixedClock
from gm.home import Home
from gm.mail.senders import MemorySender, SendFailure
from gm.services.delivery import send_outbox
from gm.store import outbox
from gm.store.database import open_database, transaction
from tests.intake.mails import configure, mail, receive, rows, set_mail_address, turn_file

NOON = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)


@pytest.fixture
def box(home):
    set_mail_address(home)
    return Home(home), open_database(home / "gm.db")


def queue(db, to="ann@example.org", name="Ann", subject="Re: orders", **extra):
    with transaction(db):
        return outbox.queue(
            db,
            NOON,
            kind="acknowledgement",
            recipient=to,
            recipient_name=name,
            subject=subject,
            body="Hello\n",
            domain="example.org",
            **extra,
        )


def test_each_mail_is_sent_once(box):
    home, db = box
    queue(db, in_reply_to="<m1@x>", references=["<m0@x>", "<m1@x>"])
    sender = MemorySender()
    report = send_outbox(db, home, FixedClock(NOON), sender)
    assert len(report.sent) == 1 and send_outbox(db, home, FixedClock(NOON), sender).sent == []
    [message] = sender.sent
    assert (str(message["From"]), str(message["To"]), message["In-Reply-To"], message["References"]) == (
        "Game Master <gm@example.org>",
        "Ann <ann@example.org>",
        "<m1@x>",
        "<m0@x> <m1@x>",
    )
    assert message["Auto-Submitted"] == "auto-replied"
    assert rows(home.root, "SELECT status, attempts, sent FROM outbox") == [("sent", 1, "2026-11-21T12:00:00Z")]


def test_temporary_failures_back_off_then_give_up(box):
    home, db = box
    queue(db)
    sender = MemorySender({"ann@example.org": SendFailure("451 4.3.0 try later", temporary=True)})
    waits = []
    now = NOON
    for _ in range(8):
        report = send_outbox(db, home, FixedClock(now), sender)
        if report.failed:
            break
        assert send_outbox(db, home, FixedClock(now), sender).retry == []  # not due again yet
        [(_, reason, when)] = report.retry
        waits.append(when - now)
        now = when
    assert waits == [timedelta(minutes=m) for m in (5, 10, 20, 40, 80, 160, 320)]
    [(_, reason)] = report.failed
    assert reason == "451 4.3.0 try later (gave up after 8 tries)"
    assert rows(home.root, "SELECT status, attempts FROM outbox") == [("failed", 8)]


def test_permanent_failure_is_reported_at_once(box):
    home, db = box
    queue(db, to="gone@example.org")
    queue(db, to="bob@example.org")
    sender = MemorySender({"gone@example.org": SendFailure("550 5.1.1 no such user", temporary=False)})
    report = send_outbox(db, home, FixedClock(NOON), sender)
    assert [m.recipient for m in report.sent] == ["bob@example.org"]
    assert [(m.recipient, why) for m, why in report.failed] == [("gone@example.org", "550 5.1.1 no such user")]


def test_header_injection_is_impossible(box):
    home, db = box
    # Bypass every check on the way in: the message builder still refuses.
    for name, to, subject in [
        ("Ann\r\nBcc: all@example.org", "ann@example.org", "x"),
        ("Ann", "ann@example.org\r\nBcc: all@example.org", "x"),
        ("Ann", "ann@example.org", "Re: x\r\nBcc: all@example.org"),
    ]:
        queue(db, to=to, name=name, subject=subject)
    sender = MemorySender()
    report = send_outbox(db, home, FixedClock(NOON), sender)
    assert sender.sent == [] and len(report.failed) == 3
    assert all(why.startswith("unusable address or subject") for _, why in report.failed)


def test_encoded_crlf_in_a_players_name_never_reaches_a_header(home, gm, game, monkeypatch):
    set_mail_address(home)
    raw = (
        b"From: =?utf-8?q?Evil=0D=0ABcc=3A_all=40example=2Eorg?= <evil@example.org>\r\nSubject: "
        b"=?utf-8?q?hi=0D=0ABcc=3A_x=40y?=\r\nMessage-ID: <e@x>\r\n\r\nhello\r\n"
    )
    assert receive(gm, monkeypatch, raw, home).code == 0
    assert gm("mail", "send", home=home).code == 0
    [eml] = (home / "outbox").glob("*.eml")
    sent = message_from_bytes(eml.read_bytes(), policy=policy.default)
    assert sent.get_all("Bcc") is None and [str(a) for a in sent["To"].addresses] == ["evil@example.org"]
    assert sent["Subject"] == "Re: hi Bcc: x@y"


def test_folder_transport_and_the_list(home, gm, game, monkeypatch):
    set_mail_address(home)
    receive(gm, monkeypatch, mail(turn_file(game["BR"])), home)
    listed = gm("mail", "list", home=home).out.splitlines()
    assert listed[0].split() == ["ID", "STATUS", "KIND", "TRIES", "TO", "SUBJECT"]
    assert listed[1].split() == ["1", "queued", "acknowledgement", "0", "ann@example.org", "Re:", "orders"]
    ran = gm("mail", "send", home=home)
    assert (ran.code, ran.out) == (0, f"Sent 1 mail(s) into {home / 'outbox'}; 0 to try again; 0 failed.\n")
    [eml] = (home / "outbox").glob("*.eml")
    assert eml.read_bytes().startswith(
        b"From: Game Master <gm@example.org>\nTo: Ann <ann@example.org>\nSubject: Re: orders\n"
    )
    assert gm("mail", "list", home=home).out == "The outbox is empty.\n"
    assert gm("mail", "list", "--all", home=home).out.splitlines()[1].split()[:2] == ["1", "sent"]
    assert gm("mail", "send", home=home).out == f"Sent 0 mail(s) into {home / 'outbox'}; 0 to try again; 0 failed.\n"


def test_send_needs_the_gms_address(home, gm):
    ran = gm("mail", "send", home=home)
    assert (ran.code, ran.err) == (
        1,
        "Error: gm.toml has no [mail] address: set it to the address players write to, then try again.\n",
    )


def test_tries_are_at_most_twelve_hours_apart(box):
    """LONGEST_WAIT: the back-off doubles from 5 minutes, to 12 hours apart at most. The default
    8 tries stop at 320 minutes; a house that sets more tries waits 640 minutes, then 12 hours."""
    home, db = box
    configure(home.root, {"mail.max_attempts": 11})
    home = Home(home.root)
    queue(db)
    sender = MemorySender({"ann@example.org": SendFailure("451 4.3.0 try later", temporary=True)})
    waits, now = [], NOON
    for _ in range(11):
        report = send_outbox(db, home, FixedClock(now), sender)
        if report.failed:
            break
        [(_, _, when)] = report.retry
        waits.append(when - now)
        now = when
    assert waits == [timedelta(minutes=m) for m in (5, 10, 20, 40, 80, 160, 320, 640, 720, 720)]
    assert rows(home.root, "SELECT status, attempts FROM outbox") == [("failed", 11)]
