"""Intake never stalls the house (issue 14, items 5 and 6): a turn file for a game that cannot
take orders yet is refused with a clear answer while every other message is taken, and a
person's question without a turn file reaches the GM's list of questions, answered politely once."""

from __future__ import annotations

import json
import mailbox

import pytest

from tests.cli.test_game import table_dump
from tests.intake.mails import configure, mail, outbox_bodies, receive, rows, turn_file

NOT_YET = (
    "game 'wait' cannot take orders yet: it is still being seated (lowlands is for 2 to 2 seats, "
    "not 1); send them again once the game has started"
)


@pytest.fixture
def seating(home, gm, mail_home):
    """Beside g1, a game 'wait' with one of its two seats taken; returns that seat's secret."""
    assert gm("game", "new", "wait", "--scenario", "lowlands", home=home).code == 0
    out = gm("game", "join", "wait", "eve@example.org", "--name", "Eve", home=home).out
    return next(entry for entry in out.splitlines() if entry.startswith("Secret for ")).split(": ")[1]


def test_import_takes_every_message_beside_one_for_a_game_being_seated(home, gm, mail_home, seating, tmp_path):
    box = mailbox.Maildir(tmp_path / "Maildir", create=True)
    box.add(mail(turn_file(mail_home["BR"], "CLAIM ENG"), message_id="<a@x>"))
    box.add(mail(turn_file(seating, "CLAIM BEL", game="wait"), sender="Eve <eve@example.org>", message_id="<b@x>"))
    box.add(
        mail(turn_file(mail_home["FR"], "CLAIM BRI", seat="FR"), sender="Bob <bob@example.org>", message_id="<c@x>")
    )
    ran = gm("inbox", "import", tmp_path / "Maildir", home=home)
    assert (ran.code, ran.err) == (0, "")
    assert ran.out.endswith("Taken: 2 accepted, 1 refused\n")
    assert f"refused: {NOT_YET}" in ran.out
    assert rows(home, "SELECT count(*) FROM submissions WHERE verdict = 'accepted'") == [(2,)]
    [eve] = [b for kind, to, subject, b in outbox_bodies(home) if to == "eve@example.org"]
    assert f"REFUSED: {NOT_YET}." in eve


def test_receive_refuses_it_and_never_asks_the_server_to_try_again(home, gm, mail_home, seating, monkeypatch):
    ran = receive(gm, monkeypatch, mail(turn_file(seating, "CLAIM BEL", game="wait"), sender="eve@example.org"), home)
    assert (ran.code, ran.err) == (0, "")
    assert ran.out == f"stdin: refused: {NOT_YET}; answer: outbox 1\nTaken: 1 refused\n"


def test_submit_refuses_it_and_stores_the_other_files(home, gm, mail_home, seating, tmp_path):
    early, good = tmp_path / "early.txt", tmp_path / "good.txt"
    early.write_text(turn_file(seating, "CLAIM BEL", game="wait"))
    good.write_text(turn_file(mail_home["BR"], "CLAIM ENG"))
    ran = gm("submit", early, good, home=home)
    assert ran.code == 1 and f"{early}: refused: {NOT_YET}" in ran.err and "Traceback" not in ran.err
    assert f"{good}: accepted 1 order for BR in g1, turn 1" in ran.out


QUESTION = "Hello,\n\nCan I join the next game? I played Diplomacy by mail for years.\n\nZed\n"


def test_a_question_goes_to_the_gm_and_is_answered_politely_once(home, gm, mail_home, monkeypatch):
    raw = mail(QUESTION, sender="Zed <zed@example.org>", subject="Can I join?", message_id="<q1@x>")
    before = [t for t in table_dump(home) if t[0] not in ("mail_taken", "outbox")]
    ran = receive(gm, monkeypatch, raw, home)
    assert [t for t in table_dump(home) if t[0] not in ("mail_taken", "outbox")] == before
    assert (ran.code, ran.out) == (
        0,
        "stdin: a question for the GM (gm inbox questions); answer: outbox 1\nTaken: 1 question\n",
    )
    [(kind, to, subject, body)] = outbox_bodies(home)
    assert (kind, to, subject) == ("acknowledgement", "zed@example.org", "Re: Can I join?")
    assert "REFUSED" not in body and "passed your mail on to the game master" in body
    assert receive(gm, monkeypatch, raw, home).out == "No new mail (1 taken before).\n"
    assert len(outbox_bodies(home)) == 1

    listed = gm("inbox", "questions", home=home)
    assert listed.code == 0
    lines = listed.out.splitlines()
    assert lines[0] == "1 question(s) for the GM:"
    assert lines[1].startswith("  1  ") and lines[1].endswith("  Zed <zed@example.org>  Can I join?")
    assert "    Can I join the next game? I played Diplomacy by mail for years." in lines
    [entry] = json.loads(gm("inbox", "questions", "--json", home=home).out)
    assert (entry["id"], entry["sender"], entry["subject"], entry["answered"]) == (
        1,
        "zed@example.org",
        "Can I join?",
        None,
    )
    assert entry["text"] == QUESTION.rstrip("\n")

    assert gm("inbox", "answered", "1", home=home).out == "Question 1 from zed@example.org marked answered.\n"
    assert gm("inbox", "questions", home=home).out == "No questions wait for the GM.\n"
    [entry] = json.loads(gm("inbox", "questions", "--all", "--json", home=home).out)
    assert entry["answered"] is not None
    ran = gm("inbox", "answered", "7", home=home)
    assert (ran.code, ran.err) == (1, "Error: there is no question 7. See them with 'gm inbox questions --all'.\n")


def test_questions_are_rate_limited_and_robots_are_still_never_answered(home, gm, mail_home, monkeypatch):
    configure(home, {"mail.replies_per_hour": 2})
    for n in range(3):
        ran = receive(gm, monkeypatch, mail(f"question {n}?", message_id=f"<q{n}@x>"), home)
    assert "a question for the GM" in ran.out
    assert "answer: none: 2 answers to ann@example.org in the last hour already" in ran.out
    assert len(outbox_bodies(home)) == 2
    ran = receive(gm, monkeypatch, mail("I am away", Auto_Submitted="auto-replied", message_id="<ooo@x>"), home)
    assert (
        ran.out == "stdin: ignored; answer: none: sent by a program (Auto-Submitted: auto-replied)\nTaken: 1 ignored\n"
    )
    assert len(json.loads(gm("inbox", "questions", "--json", home=home).out)) == 3


def test_a_reply_to_gms_own_answer_is_not_answered_again_so_no_program_keeps_a_loop_going(
    home, gm, mail_home, monkeypatch
):
    """An auto-responder that sets none of the headers programs are known by (Auto-Submitted,
    Precedence, ...) answered gm's answer, and gm answered it: 20 mails an hour for ever."""
    robot = "Robot <robot@elsewhere.example>"
    ran = receive(gm, monkeypatch, mail("Hello?", sender=robot, message_id="<r0@elsewhere.example>"), home)
    assert "answer: outbox 1" in ran.out
    [(ours,)] = rows(home, "SELECT message_id FROM outbox")
    away = "I am away until Monday."
    for n, threading in enumerate([{"In_Reply_To": ours}, {"References": f"<r0@elsewhere.example> {ours}"}], 1):
        reply = mail(away, sender=robot, subject="Re: Hello?", message_id=f"<r{n}@elsewhere.example>", **threading)
        ran = receive(gm, monkeypatch, reply, home)
        assert ran.out == (
            "stdin: a question for the GM (gm inbox questions); answer: none: it replies to gm's own answer "
            "(an auto-reply, or thanks); it waits for the GM\nTaken: 1 question\n"
        )
    assert len(outbox_bodies(home)) == 1
    assert len(json.loads(gm("inbox", "questions", "--json", home=home).out)) == 3  # the GM reads them all
    # A new question from the same address, answering nothing of gm's, is answered as ever.
    again = mail("And now?", sender=robot, message_id="<r3@elsewhere.example>", In_Reply_To="<r0@elsewhere.example>")
    assert "answer: outbox 2" in receive(gm, monkeypatch, again, home).out


def test_a_gm_may_word_the_answer_to_questions(home, gm, mail_home, monkeypatch):
    (home / "templates" / "mail").mkdir(parents=True, exist_ok=True)
    (home / "templates" / "mail" / "question.txt").write_text(
        "Subject: {{ reply_subject }}\n\nDear {{ name }}, I read every mail myself. -- {{ gm_name }}\n"
    )
    receive(gm, monkeypatch, mail("Can I join?", sender="Zed <zed@example.org>"), home)
    [(_, _, _, body)] = outbox_bodies(home)
    assert body == "Dear Zed, I read every mail myself. -- Game Master\n"


def test_gm_inbox_questions_shows_twelve_lines_of_a_long_question(home, gm, mail_home, monkeypatch):
    """QUESTION_LINES: a stranger's question of 30 lines shows its first 12 in the list and says
    how many more --json gives, so one long mail does not push the others off the GM's screen."""
    text = "".join(f"line {n} of a long question\n" for n in range(1, 31))
    receive(gm, monkeypatch, mail(text, sender="zed@example.org", subject="So many", message_id="<q30@x>"), home)
    lines = gm("inbox", "questions", home=home).out.splitlines()
    shown = [line for line in lines if line.startswith("    line ")]
    assert shown == [f"    line {n} of a long question" for n in range(1, 13)]
    assert "    ... (18 more lines: gm inbox questions --json)" in lines
    [entry] = json.loads(gm("inbox", "questions", "--json", home=home).out)
    assert entry["text"].count("\n") == 29
