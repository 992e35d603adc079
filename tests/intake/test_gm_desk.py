"""What the GM does from the command line that the portal's GM page does too (issue 16): remind
the seats without orders now, answer a question by mail, mark one answered, take a player off a
waiting list; each written in the audit log."""

from __future__ import annotations

import json
import mailbox
from email import message_from_bytes, policy

import pytest

import gm.services.questions as questions_service
import gm.services.turnfiles as turnfiles_service
from tests.intake.mails import mail, outbox_bodies, receive, rows, signed_up


def audit(gm, home, game: str | None = None) -> list[dict]:
    return json.loads(gm("audit", *([game] if game else []), "--json", home=home).out)


@pytest.fixture
def due(home, gm, mail_home):
    """g1 (mail_home) with a deadline to come."""
    assert gm("game", "deadline", "g1", "2030-01-04 18:00 UTC", home=home).code == 0
    return mail_home


def test_remind_mails_the_seats_without_orders_and_says_so_in_the_audit_log(home, gm, due, monkeypatch):
    receive(gm, monkeypatch, mail(f"GAME g1\nPLAYER BR\nPASSWORD {due['BR']}\nCLAIM ENG\nEND\n"), home)
    before = len(outbox_bodies(home))
    ran = gm("game", "remind", "g1", home=home)
    assert (ran.code, ran.out) == (
        0,
        "Reminded FR, GE, RU of g1; the mail is queued (gm mail send, or gm run-due, sends it).\n",
    )
    reminders = outbox_bodies(home)[before:]
    assert [(kind, to) for kind, to, _, _ in reminders] == [  # FR, GE, RU
        ("reminder", "cy@example.org"),
        ("reminder", "di@example.org"),
        ("reminder", "bob@example.org"),
    ]
    assert reminders[0][2] == "g1: reminder, orders for turn 1 are due"
    assert "GAME g1\nPLAYER FR\nPASSWORD <your secret>\nTURN 1" in reminders[0][3]
    assert audit(gm, home, "g1")[-1]["action"] == "remind"
    assert audit(gm, home, "g1")[-1]["detail"] == {"seats": ["FR", "GE", "RU"], "turn": 1}
    # The cycle's own reminder still comes: the GM's is not recorded as it.
    assert rows(home, "SELECT COUNT(*) FROM reminders") == [(0,)]


def test_reminding_four_seats_reads_the_game_state_once(home, gm, due, monkeypatch):
    read = []
    current_state = turnfiles_service.current_state

    def counted(db, game):
        read.append(game.name)
        return current_state(db, game)

    monkeypatch.setattr(turnfiles_service, "current_state", counted)
    ran = gm("game", "remind", "g1", home=home)
    assert ran.out.startswith("Reminded BR, FR, GE, RU of g1;")
    assert read == ["g1"]  # one read for the four seats' order forms, not one a seat


def test_remind_one_seat_and_what_is_refused(home, gm, mail_home):
    ran = gm("game", "remind", "g1", home=home)
    assert (ran.code, ran.err) == (
        1,
        "Error: game 'g1' has no deadline, so a reminder would have no date to give. "
        "Set one with 'gm game deadline g1 WHEN' first.\n",
    )
    assert gm("game", "deadline", "g1", "2030-01-04 18:00 UTC", home=home).code == 0
    assert gm("game", "remind", "g1", "--seat", "ru", home=home).out.startswith("Reminded RU of g1;")
    ran = gm("game", "remind", "g1", "--seat", "XX", home=home)
    assert (ran.code, ran.err) == (1, "Error: game 'g1' has no seat XX. Its seats: BR, FR, GE, RU.\n")
    (home / "gm.toml").write_text((home / "gm.toml").read_text().replace('address = "gm@example.org"', 'address = ""'))
    before = len(outbox_bodies(home))
    ran = gm("game", "remind", "g1", home=home)
    assert ran.code == 1 and ran.err.startswith("Error: reminders go by mail, and gm.toml names no [mail] address.")
    assert len(outbox_bodies(home)) == before


def test_nobody_to_remind(home, gm, due, monkeypatch):
    for n, seat in enumerate(["BR", "FR", "GE", "RU"]):
        claim = {"BR": "CLAIM ENG", "FR": "CLAIM PAR", "GE": "CLAIM BER", "RU": "CLAIM MOS"}[seat]
        receive(
            gm,
            monkeypatch,
            mail(f"GAME g1\nPLAYER {seat}\nPASSWORD {due[seat]}\n{claim}\nEND\n", message_id=f"<o{n}@x>"),
            home,
        )
    ran = gm("game", "remind", "g1", home=home)
    assert (ran.code, ran.err) == (
        1,
        "Error: every active seat of 'g1' has sent orders for turn 1; nobody to remind.\n",
    )
    ran = gm("game", "remind", "g1", "--seat", "BR", home=home)
    assert ran.code == 1 and "BR of 'g1' need no reminder (orders in, away, a robot or out of the game)" in ran.err


QUESTION = "Hello,\n\nwhen is the next game?\nZed"


def test_reply_answers_a_question_by_mail_in_its_thread(home, gm, mail_home, monkeypatch):
    receive(
        gm,
        monkeypatch,
        mail(
            QUESTION,
            sender="Zed <zed@example.org>",
            subject="Next game?",
            message_id="<q1@example.org>",
            Reply_To="Zed Home <zed@home.example.org>",
        ),
        home,
    )
    ran = gm("inbox", "reply", "1", "-m", "It starts on Friday.\nWrite JOIN clash.", home=home)
    assert (ran.code, ran.out) == (0, "Answer to question 1 queued for zed@home.example.org; it is marked answered.\n")
    kind, to, subject, body = outbox_bodies(home)[-1]
    assert (kind, to, subject) == ("notice", "zed@home.example.org", "Re: Next game?")
    assert body.startswith("Hello Zed Home,\n\nIt starts on Friday.\nWrite JOIN clash.\n\n-- \n")
    assert "you wrote:\n> Hello,\n> \n> when is the next game?\n> Zed\n" in body
    assert rows(home, "SELECT in_reply_to, refs FROM outbox ORDER BY id DESC LIMIT 1") == [
        ("<q1@example.org>", '["<q1@example.org>"]')
    ]
    assert gm("inbox", "questions", home=home).out == "No questions wait for the GM.\n"
    entry = audit(gm, home)[-1]
    assert (entry["action"], entry["detail"]) == (
        "question answered",
        {"question": 1, "from": "zed@example.org", "how": "by mail"},
    )
    assert gm("mail", "send", home=home).code == 0
    sent = message_from_bytes(next((home / "outbox").glob("*notice*.eml")).read_bytes(), policy=policy.default)
    assert sent["In-Reply-To"] == "<q1@example.org>" and sent["To"] == "Zed Home <zed@home.example.org>"


def test_reply_refuses_nothing_to_say_and_no_question(home, gm, mail_home, monkeypatch, tmp_path):
    receive(gm, monkeypatch, mail(QUESTION, sender="Zed <zed@example.org>", subject="Next game?"), home)
    before = len(outbox_bodies(home))
    for args, error in [
        (["1", "-m", "  \n "], "Error: the answer is empty. Write what to tell them, then send it.\n"),
        (["9", "-m", "hi"], "Error: there is no question 9. See them with 'gm inbox questions --all'.\n"),
        (["1"], "Error: give the answer once: with --message TEXT, or --file FILE ('-' for standard input).\n"),
    ]:
        ran = gm("inbox", "reply", *args, home=home)
        assert (ran.code, ran.err) == (1, error)
    answer = tmp_path / "answer.txt"
    answer.write_text("From a file.\n")
    assert gm("inbox", "reply", "1", "--file", answer, home=home).code == 0
    assert len(outbox_bodies(home)) == before + 1 and "From a file." in outbox_bodies(home)[-1][3]


def test_marking_a_question_answered_is_in_the_audit_log(home, gm, mail_home, monkeypatch):
    receive(gm, monkeypatch, mail(QUESTION, sender="Zed <zed@example.org>"), home)
    assert gm("inbox", "answered", "1", home=home).code == 0
    entry = audit(gm, home)[-1]
    assert (entry["action"], entry["detail"]) == (
        "question answered",
        {"question": 1, "from": "zed@example.org", "how": "elsewhere"},
    )


def join(gm, monkeypatch, home, sender: str, n: int, target: str = "c2"):
    signed_up(gm, monkeypatch, home, sender, n, target)


def test_a_flood_of_questions_is_cleared_reading_each_mail_once(home, gm, mail_home, monkeypatch, tmp_path):
    """Marking a question answered, or answering it, read every question ever asked from the
    archive again to find it: clearing a flood of 5,000 took 5,000 x 0.8 CPU-s."""
    box = mailbox.Maildir(tmp_path / "flood", create=True)
    for n in range(40):
        box.add(mail("Buy now", sender=f"v{n}@victims.example", message_id=f"<q{n}@spam.example>"))
    assert gm("inbox", "import", tmp_path / "flood", home=home).code == 0
    reads = []
    real = questions_service.read_letter
    monkeypatch.setattr(questions_service, "read_letter", lambda raw: reads.append(1) or real(raw))
    ran = gm("inbox", "answered", *range(1, 40), home=home)
    assert ran.code == 0 and ran.out.count(" marked answered.") == 39
    assert len(reads) == 39  # on main: 1,560, every question for each
    reads.clear()
    assert gm("inbox", "reply", "40", "-m", "No.", home=home).code == 0
    assert len(reads) == 1
    assert gm("inbox", "questions", home=home).out == "No questions wait for the GM.\n"


def test_remove_waiting_takes_a_player_off_the_list_and_says_why_in_the_audit_log(home, gm, mail_home, monkeypatch):
    assert gm("game", "new", "c2", "--ruleset", "clash", home=home).code == 0
    join(gm, monkeypatch, home, "Ann <ann@example.org>", 1)
    join(gm, monkeypatch, home, "Bob <bob@example.org>", 2, target="clash")  # the next clash game
    listed = gm("game", "waiting", "c2", "--json", home=home).out
    numbers = {w["email"]: w["number"] for w in json.loads(listed)}
    ran = gm("game", "remove-waiting", "c2", str(numbers["bob@example.org"]), "--reason", "asked to leave", home=home)
    assert (ran.code, ran.out) == (0, "Bob <bob@example.org> is off the list for the next clash game.\n")
    ran = gm("game", "remove-waiting", "c2", str(numbers["ann@example.org"]), home=home)
    assert ran.out == "Ann <ann@example.org> is off the list of c2.\n"
    assert gm("game", "waiting", "c2", home=home).out == "Nobody waits for c2.\n"
    removed = [e for e in audit(gm, home) if e["action"] == "waiting removed"]
    assert [(e["game"], e["detail"]["email"], e["detail"]["for"], e["detail"]["reason"]) for e in removed] == [
        (None, "bob@example.org", "the next game of clash", "asked to leave"),
        ("c2", "ann@example.org", "game c2", ""),
    ]
    ran = gm("game", "remove-waiting", "c2", str(numbers["ann@example.org"]), home=home)
    assert (ran.code, ran.err) == (
        1,
        f"Error: nobody waits as number {numbers['ann@example.org']} for c2. See who "
        "waits, and their numbers, with 'gm game waiting c2'.\n",
    )


def test_a_seated_player_is_not_on_the_list_to_remove(home, gm, mail_home, monkeypatch):
    assert gm("game", "new", "c2", "--ruleset", "clash", home=home).code == 0
    join(gm, monkeypatch, home, "Ann <ann@example.org>", 1)
    number = json.loads(gm("game", "waiting", "c2", "--json", home=home).out)[0]["number"]
    assert gm("game", "seat-waiting", "c2", home=home).code == 0
    ran = gm("game", "remove-waiting", "c2", str(number), home=home)
    assert ran.code == 1 and "nobody waits as number" in ran.err
    assert rows(home, "SELECT COUNT(*) FROM waiting WHERE seated IS NOT NULL") == [(1,)]
