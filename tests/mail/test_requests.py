"""Requests by mail (RESEND, JSON ON/OFF), and a message cut short by a crash taken again without doubling."""

from __future__ import annotations

import json

import pytest

from gm.clock import SystemClock
from gm.home import Home
from gm.intake.sources import Incoming
from gm.services.intake import Intake
from gm.store.database import open_database
from tests.conftest import played_home, use_home
from tests.intake.mails import mail, outbox_bodies, receive, rows, set_mail_address, turn_file


def request(secret: str, *lines: str, seat: str = "BR") -> str:
    return f"GAME g1\nPLAYER {seat}\nPASSWORD {secret}\n" + "\n".join(lines) + "\nEND\n"


@pytest.fixture(scope="module")
def turn_one(made, tmp_path_factory):
    """g1 with turn 1 run and its reports rendered (their mails queued, then sent into the folder);
    Ann (BR) paid for it, the others' reports are held for credits. Played once for the module."""
    buy = ("credits", "buy", "ann@example.org", "1", "--paid", "2.50")
    where = tmp_path_factory.mktemp("turn-one") / "home"
    return played_home(made, where, set_mail_address, buy, ("turn", "run", "g1", "--now"), ("mail", "send"))


@pytest.fixture
def played(turn_one, home, game):
    """turn_one, copied into this test's home; the seats' secrets."""
    use_home(turn_one, home)
    return game


@pytest.mark.slow
def test_resend_sends_the_last_report_as_the_answer(home, gm, played, monkeypatch):
    ran = receive(gm, monkeypatch, mail(request(played["BR"], "RESEND"), message_id="<again@x>"), home)
    assert ran.out == "stdin: request for BR in g1; answer: outbox 5\nTaken: 1 request\n"
    [(kind, to, subject, body)] = outbox_bodies(home)[4:]
    assert (kind, to) == ("resend", "ann@example.org") and subject.endswith("(turn 1), sent again")
    assert "As you asked, here is your last report again." in body
    [(in_reply_to, attachments)] = rows(home, "SELECT in_reply_to, attachments FROM outbox WHERE id = 5")
    assert in_reply_to == "<again@x>" and [a["filename"] for a in json.loads(attachments)] == [
        "g1-1-BR.pdf",
        "g1-1-BR.html",
        "g1-2-BR-orders.txt",
    ]  # the turn kit and the order form come again too


@pytest.mark.slow
def test_resend_from_another_address_goes_to_the_registered_one(home, gm, played, monkeypatch):
    raw = mail(request(played["BR"], "JSON ON", "RESEND"), sender="Ann <ann@work.example>")
    assert receive(gm, monkeypatch, raw, home).out.endswith("answer: outbox 5, 6\nTaken: 1 request\n")
    resend, answer = outbox_bodies(home)[4:]
    assert resend[:2] == ("resend", "ann@example.org") and answer[:2] == ("acknowledgement", "ann@work.example")
    assert "Report mails for BR in g1 will carry the JSON report too." in answer[3]
    assert "Your report for turn 1 of g1 was sent again to the address gm has for BR." in answer[3]
    [(attachments,)] = rows(home, "SELECT attachments FROM outbox WHERE id = 5")
    assert [a["filename"] for a in json.loads(attachments)] == [
        "g1-1-BR.pdf",
        "g1-1-BR.json",
        "g1-1-BR.html",
        "g1-2-BR-orders.txt",
    ]


@pytest.mark.slow
def test_resend_never_sends_a_report_held_for_credits(home, gm, played, monkeypatch):
    """Bob (RU) did not pay for turn 1: RESEND names the held report and sends nothing; after
    turn 2, paid for turn 1 only, RESEND sends turn 1's and still not turn 2's."""
    ran = receive(gm, monkeypatch, mail(request(played["RU"], "RESEND", seat="RU"), sender="bob@example.org"), home)
    assert ran.out == "stdin: request for RU in g1; answer: outbox 5\nTaken: 1 request\n"
    [(kind, to, _, body)] = outbox_bodies(home)[4:]
    assert (kind, to) == ("acknowledgement", "bob@example.org")
    assert (
        "Your report for turn 1 of g1 is held until it is paid for: your account is 1 turn credit short. "
        "The held notice gm sent you says how to pay; it comes as soon as your payment is recorded."
    ) in " ".join(body.split())
    assert "sent again" not in body
    assert gm("turn", "run", "g1", "--now", home=home).code == 0
    ran = gm("credits", "buy", "bob@example.org", "1", "--paid", "2.50", home=home)
    assert "Released 1 held report(s): g1 RU (turn 1)" in ran.out
    before = len(outbox_bodies(home))
    raw = mail(request(played["RU"], "RESEND", seat="RU"), sender="bob@example.org", message_id="<r2@x>")
    assert receive(gm, monkeypatch, raw, home).code == 0
    resent = [row for row in outbox_bodies(home)[before:] if row[0] == "resend"]
    assert [row[2].endswith("(turn 1), sent again") for row in resent] == [True]
    [answer] = [row[3] for row in outbox_bodies(home)[before:] if row[0] == "acknowledgement"]
    assert "turn 2 of g1 is held until it is paid for" in " ".join(answer.split())


def test_requests_need_the_secret_and_a_report(home, gm, game, monkeypatch):
    set_mail_address(home)
    ran = receive(gm, monkeypatch, mail(request("wrong", "RESEND")), home)
    assert ran.out.startswith("stdin: refused: wrong password for player BR of 'g1'; answer: outbox 1")
    ran = receive(gm, monkeypatch, mail(request(game["BR"], "resend"), message_id="<2@x>"), home)
    assert "There is no report for BR in g1 yet; the first comes when turn 1 is run." in outbox_bodies(home)[1][3]
    # A request mixed with orders is not a request: the ruleset says what is wrong with the line.
    ran = receive(gm, monkeypatch, mail(request(game["BR"], "CLAIM ENG", "RESEND"), message_id="<3@x>"), home)
    assert "rejected 1 order for BR in g1, turn 1; 1 problem" in ran.out


def test_a_message_cut_short_after_storing_is_never_stored_twice(home, gm, game, monkeypatch):
    set_mail_address(home)
    db = open_database(home / "gm.db")
    intake = Intake(db, Home(home), SystemClock(), "pipe")
    raw = mail(turn_file(game["BR"]), message_id="<cut@x>")
    # The process dies after the submission is stored, before the message is recorded: the
    # message's own transaction takes the submission back with it, so nothing is half taken.
    monkeypatch.setattr(Intake, "_record", lambda *args: (_ for _ in ()).throw(KeyboardInterrupt))
    with pytest.raises(KeyboardInterrupt):
        intake.take(Incoming(raw, "stdin"))
    assert rows(home, "SELECT count(*) FROM submissions") == [(0,)]
    assert rows(home, "SELECT count(*) FROM mail_taken") == [(0,)]
    monkeypatch.undo()
    set_mail_address(home)
    ran = receive(gm, monkeypatch, raw, home)
    assert ran.out == "stdin: accepted 1 order for BR in g1, turn 1; answer: outbox 1\nTaken: 1 accepted\n"
    assert rows(home, "SELECT count(*) FROM submissions") == [(1,)] and len(outbox_bodies(home)) == 1
