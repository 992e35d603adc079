"""Mail a ruleset fails to read (issue 28): a plug-in whose check_orders raises takes none of a
batch no more. Each message has a savepoint of its own: every other one is stored and answered,
the bad one is kept, answered that it could not be processed, shown to the GM (gm status, gm
doctor, the portal's GM page) and read again, as it came, at every later import until it goes
through."""

from __future__ import annotations

import mailbox

import pytest

from tests.cycle.test_faults import gm_page
from tests.faulty_plugin import faulty  # noqa: F401 (fixture)
from tests.intake.mails import mail, outbox_bodies, receive, rows, turn_file

FAULT = (
    "the faulty ruleset (0.1) failed in check_orders for game 'f1': ZeroDivisionError: division by zero "
    "(faulty_game/__init__.py line 10)"
)
KEPT = "1 mail(s) kept: its ruleset failed while reading the turn file; read again at the next gm inbox import, fetch or receive"


@pytest.fixture
def two_games(home, gm, mail_home, faulty):
    """g1 (Clash, four players) and f1 (the faulty plug-in: Bea and a robot); the secrets of
    g1's seats and of f1's BR."""
    assert (
        gm("game", "new", "f1", "--ruleset", "faulty", "--scenario", "lowlands", "--robots", "1", home=home).code == 0
    )
    joined = gm("game", "join", "f1", "bea@example.org", "--name", "Bea", home=home).out
    secret = next(line for line in joined.splitlines() if line.startswith("Secret for BR: ")).split(": ")[1]
    faulty.FAULTS.add("check_orders")  # Bea's seat filled f1: her start mail is outbox 1
    return {**mail_home, "f1": secret}


def mbox(path, *messages: bytes):
    box = mailbox.mbox(path)
    for raw in messages:
        message = mailbox.mboxMessage(raw)
        message.set_from("player@example.org")  # not MAILER-DAEMON, a bounce
        box.add(message)
    box.flush()
    return path


def batch(secrets, tmp_path):
    """Three mails: g1's BR, f1's BR (its ruleset fails on it), g1's FR."""
    return mbox(
        tmp_path / "box.mbox",
        mail(turn_file(secrets["BR"]), message_id="<m1@x>"),
        mail(turn_file(secrets["f1"], "CLAIM ENG", game="f1"), "Bea <bea@example.org>", message_id="<m2@x>"),
        mail(turn_file(secrets["FR"], "CLAIM BRI", seat="FR"), "Bob <bob@example.org>", message_id="<m3@x>"),
    )


def test_a_fault_keeps_one_message_and_the_rest_of_the_batch_is_taken(
    two_games, faulty, gm, home, tmp_path, monkeypatch
):
    box = batch(two_games, tmp_path)
    ran = gm("inbox", "import", box, home=home)
    assert ran.code == 0, ran.err
    assert ran.out.splitlines() == [
        f"{box}:1: accepted 1 order for BR in g1, turn 1; answer: outbox 2",
        f"{box}:2: could not be processed, kept: {FAULT}. This is a bug in the ruleset, not in the game: give "
        "this message to the ruleset's author and install a fixed version. answer: outbox 3",
        f"{box}:3: accepted 1 order for FR in g1, turn 1; answer: outbox 4",
        "Taken: 2 accepted, 1 fault",
    ]
    assert "Warning: 1 mail(s) could not be processed: a game's ruleset failed while reading them" in ran.err
    assert rows(
        home,
        "SELECT g.name, s.code FROM submissions JOIN seats s ON s.id = seat_id JOIN games g ON g.id = s.game_id ORDER BY 1, 2",
    ) == [
        ("g1", "BR"),
        ("g1", "FR"),
    ]
    start, *answers = outbox_bodies(home)
    assert start[1:3] == ("bea@example.org", "f1 has started")
    assert [(kind, to) for kind, to, _, _ in answers] == [
        ("acknowledgement", "ann@example.org"),
        ("acknowledgement", "bea@example.org"),
        ("acknowledgement", "bob@example.org"),
    ]
    assert "Your mail could not be processed: the program that reads this address failed while" in answers[1][3]
    assert "been told. (Game: f1.)" in answers[1][3] and "ZeroDivisionError" not in answers[1][3]
    assert rows(home, "SELECT message_id, outcome FROM mail_taken ORDER BY id") == [
        ("<m1@x>", "accepted"),
        ("<m2@x>", "fault"),
        ("<m3@x>", "accepted"),
    ]
    assert f"  problem: {KEPT}" in gm("status", home=home).out
    assert f"PROBLEM  games: f1: {KEPT}" in gm("doctor", home=home).out
    assert KEPT in gm_page(home, monkeypatch, gm)

    again = gm("inbox", "import", box, home=home)  # still broken: kept, not answered again
    assert again.out == "No new mail (3 taken before).\n" and len(outbox_bodies(home)) == 4
    assert rows(home, "SELECT outcome FROM mail_taken WHERE message_id = '<m2@x>'") == [("fault",)]

    faulty.FAULTS.clear()  # the fixed version is installed: the next import reads it again
    (tmp_path / "nothing").mkdir()
    fixed = gm("inbox", "import", tmp_path / "nothing", home=home)
    assert fixed.code == 0 and fixed.err == ""
    assert fixed.out.splitlines() == [
        f"{box}:2: accepted 1 order for BR in f1, turn 1; answer: outbox 5",
        "Taken: 1 accepted",
    ]
    assert "ACCEPTED: 1 order for BR in f1, turn 1." in outbox_bodies(home)[4][3]
    assert rows(home, "SELECT message_id, outcome FROM mail_taken ORDER BY id") == [
        ("<m1@x>", "accepted"),
        ("<m3@x>", "accepted"),
        ("<m2@x>", "accepted"),
    ]
    assert "problem" not in gm("status", home=home).out


def test_a_kept_message_read_after_its_turn_ran_is_for_that_turn(two_games, faulty, gm, home, monkeypatch):
    raw = mail(turn_file(two_games["f1"], "CLAIM ENG", game="f1"), "Bea <bea@example.org>")
    assert "could not be processed, kept" in receive(gm, monkeypatch, raw, home).out
    assert gm("turn", "run", "f1", "--now", "--no-render", home=home).code == 0
    faulty.FAULTS.clear()
    other = mail(turn_file(two_games["BR"]), message_id="<later@x>")
    ran = receive(gm, monkeypatch, other, home)  # a mail server's pipe: the kept one first
    assert ran.out.splitlines() == [
        "stdin: refused: these orders are for turn 1, which has already been run; 'f1' is collecting turn 2; "
        "answer: outbox 3",
        "stdin: accepted 1 order for BR in g1, turn 1; answer: outbox 4",
        "Taken: 1 accepted, 1 refused",
    ]
    assert rows(home, "SELECT COUNT(*) FROM submissions s JOIN games g ON g.id = s.game_id WHERE g.name = 'f1'") == [
        (0,)
    ]
