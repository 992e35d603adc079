"""Credit releases held reports: a payment, a correction, a transfer, a policy that stops holding,
a return slip's transfer. Each held report is mailed exactly once, the held notice not yet sent is
withdrawn, and the books stay balanced (issue 28, "Money and held reports")."""

from __future__ import annotations

import email
import email.policy

from gm.services import credits
from gm.store.database import open_database, transaction
from tests.intake.mails import joined, rows, set_mail_address

ANN = "ann@example.org"
JOIN = b"From: Ann <ann@example.org>\r\nTo: gm@pbm.example.org\r\nSubject: join\r\nMessage-ID: <j1@example.org>\r\n\r\nJOIN c1\r\nNAME Ann\r\n"


def outbox(home, seat="BR") -> list[tuple[str, int | None, str]]:
    """(kind, turn, status) of the seat's report mails and held notices, in the order queued."""
    return rows(
        home,
        "SELECT kind, turn, status FROM outbox WHERE seat = ? AND (kind = 'report' OR turn IS NOT NULL) ORDER BY id",
        seat,
    )


def held_game(gm, home, monkeypatch) -> None:
    """The README's sign-up path: a clash game with two robots, Ann seated from the waiting list
    (JOIN by mail), turn 1 run with her report held for want of credits."""
    set_mail_address(home)
    assert gm("game", "new", "c1", "--ruleset", "clash", "--robots", "2", "--seed", "7", home=home).code == 0
    assert joined(gm, monkeypatch, home, JOIN).code == 0
    assert gm("game", "seat-waiting", "c1", home=home).out == "seated ann@example.org in BR of c1\n"
    ran = gm("turn", "run", "c1", "--now", home=home)
    assert ran.code == 0 and "held for credits: BR (turn 1)" in ran.out
    assert outbox(home) == [("notice", 1, "queued")]


def test_a_payment_from_a_player_seated_from_the_waiting_list_releases_the_report(home, gm, monkeypatch):
    held_game(gm, home, monkeypatch)
    ran = gm("credits", "buy", ANN, "10", "--paid", "25", home=home)
    assert (ran.code, ran.err) == (0, "")
    assert ran.out.endswith(
        "ann@example.org now has 9 credits and a discount of 0.\n"
        "Released 1 held report(s): c1 BR (turn 1); queued: send them with 'gm mail send'.\n"
    )
    # The report is queued once and the held notice, not sent yet, never goes.
    assert outbox(home) == [("notice", 1, "cancelled"), ("report", 1, "queued")]
    assert gm("mail", "send", home=home).code == 0
    subjects = [
        email.message_from_bytes(p.read_bytes(), policy=email.policy.default)["Subject"]
        for p in sorted((home / "outbox").glob("*.eml"))
    ]
    assert "c1: turn 1 report held for credits" not in subjects
    assert subjects.count("c1: Set-up: claiming territories (turn 1)") == 1
    assert gm("credits", "buy", ANN, "1", "--paid", "2.50", home=home).out.count("Released") == 0
    assert outbox(home) == [("notice", 1, "cancelled"), ("report", 1, "sent")]
    assert gm("ledger", "check", home=home).code == 0


def test_an_adjustment_releases_the_held_report(home, gm, monkeypatch):
    held_game(gm, home, monkeypatch)
    ran = gm("credits", "adjust", ANN, "--credits", "1", "--reason", "paid in cash", home=home)
    assert ran.code == 0 and "Released 1 held report(s): c1 BR (turn 1)" in ran.out
    assert outbox(home) == [("notice", 1, "cancelled"), ("report", 1, "queued")]


def test_a_transfer_releases_the_held_report_of_the_account_it_reaches(home, gm, monkeypatch):
    held_game(gm, home, monkeypatch)
    assert gm("credits", "buy", "zed@example.org", "3", "--paid", "7.50", "--name", "Zed", home=home).code == 0
    ran = gm("credits", "transfer", "zed@example.org", ANN, "2", home=home)
    assert ran.code == 0 and "Released 1 held report(s): c1 BR (turn 1)" in ran.out
    assert outbox(home) == [("notice", 1, "cancelled"), ("report", 1, "queued")]


def test_a_policy_that_stops_holding_releases_the_game_s_held_reports(home, gm, monkeypatch):
    held_game(gm, home, monkeypatch)
    assert gm("credits", "policy", "c1", "--unpaid", "hold", home=home).out.count("Released") == 0
    ran = gm("credits", "policy", "c1", "--unpaid", "free", home=home)
    assert ran.code == 0 and "Released 1 held report(s): c1 BR (turn 1)" in ran.out
    assert outbox(home) == [("notice", 1, "cancelled"), ("report", 1, "queued")]
    assert gm("credits", "policy", "c1", "--unpaid", "deliver", home=home).out.count("Released") == 0
    assert outbox(home) == [("notice", 1, "cancelled"), ("report", 1, "queued")]


def test_a_partial_payment_releases_the_oldest_and_keeps_the_newer_notice(home, gm, monkeypatch):
    held_game(gm, home, monkeypatch)
    assert gm("turn", "run", "c1", "--now", home=home).code == 0
    assert outbox(home) == [("notice", 1, "queued"), ("notice", 2, "queued")]
    ran = gm("credits", "buy", ANN, "1", "--paid", "2.50", home=home)
    assert "Released 1 held report(s): c1 BR (turn 1)" in ran.out
    assert outbox(home) == [("notice", 1, "cancelled"), ("notice", 2, "queued"), ("report", 1, "queued")]
    assert gm("credits", "buy", ANN, "1", "--paid", "2.50", home=home).out.count("c1 BR (turn 2)") == 1
    assert outbox(home) == [
        ("notice", 1, "cancelled"),
        ("notice", 2, "cancelled"),
        ("report", 1, "queued"),
        ("report", 2, "queued"),
    ]


def test_credit_that_came_another_way_is_released_before_any_mail_goes(home, gm, monkeypatch):
    """However credit came (here an entry made as a return slip's transfer makes it, outside
    the credits commands), sending the outbox first queues the released report and withdraws
    the notice: the notice never goes after its report was paid for."""
    held_game(gm, home, monkeypatch)
    assert gm("credits", "buy", "zed@example.org", "3", "--paid", "7.50", "--name", "Zed", home=home).code == 0
    db = open_database(home / "gm.db")
    with transaction(db):
        credits.move(db, "2026-11-27T12:00:00Z", "zed@example.org", ANN, 1, "return slip of GE in c0")
    db.conn.close()
    ran = gm("mail", "send", home=home)
    assert ran.code == 0 and "Released 1 held report(s): c1 BR (turn 1); their reports go now." in ran.out
    assert outbox(home) == [("notice", 1, "cancelled"), ("report", 1, "sent")]
    assert gm("ledger", "check", home=home).code == 0
