"""Report mails thread per game and seat, and outbox/ files say whose mail each is."""

from __future__ import annotations

from email import message_from_bytes, policy
from email.message import EmailMessage

import pytest

from gm.mail.senders import FolderSender
from tests.intake.mails import mail, receive, set_mail_address, turn_file


def read(path) -> EmailMessage:
    return message_from_bytes(path.read_bytes(), policy=policy.default)


@pytest.mark.slow
def test_each_seats_reports_are_one_thread_in_named_files(home, gm, game, monkeypatch):
    set_mail_address(home)  # transport "folder": each mail an .eml file in outbox/
    for player in ("ann", "bob", "cy", "di"):
        assert gm("credits", "buy", f"{player}@example.org", "10", "--paid", "20", home=home).code == 0
    receive(gm, monkeypatch, mail(turn_file(game["BR"], "CLAIM ENG SCO WLA")), home)
    receive(gm, monkeypatch, mail(turn_file(game["BR"]), message_id="<2@x>"), home)
    assert gm("turn", "run", "g1", "--now", home=home).code == 0
    assert gm("turn", "run", "g1", "--now", home=home).code == 0
    assert gm("mail", "send", home=home).code == 0
    outbox = home / "outbox"
    names = sorted(p.name for p in outbox.glob("*.eml"))
    assert names == sorted(
        ["g1-1-BR-acknowledgement.eml", "g1-1-BR-acknowledgement-2.eml"]
        + [f"g1-{turn}-{seat}-report.eml" for turn in (1, 2) for seat in ("BR", "FR", "GE", "RU")]
    )
    first, second = read(outbox / "g1-1-BR-report.eml"), read(outbox / "g1-2-BR-report.eml")
    assert first["Message-ID"] == "<report.g1.1.BR@example.org>" and first["In-Reply-To"] is None
    assert second["Message-ID"] == "<report.g1.2.BR@example.org>"
    assert second["In-Reply-To"] == first["Message-ID"] and second["References"] == first["Message-ID"]
    assert "did you mean WAL?" in read(outbox / "g1-1-BR-acknowledgement.eml").get_body(("plain",)).get_content()
    assert gm("mail", "send", home=home).out.startswith("Sent 0 mail(s)")  # each once


def message(message_id: str) -> EmailMessage:
    made = EmailMessage()
    made["Message-ID"] = message_id
    made.set_content("hello")
    return made


def test_a_folder_names_each_mail_once_and_a_namesake_next_to_it(tmp_path):
    folder = FolderSender(tmp_path)
    folder.send(message("<a@x>"), "g1-1-BR-acknowledgement")
    folder.send(message("<a@x>"), "g1-1-BR-acknowledgement")  # sent again after a crash: the same file
    folder.send(message("<b@x>"), "g1-1-BR-acknowledgement")
    folder.send(message("<c@x>"), "")
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "c@x.eml",
        "g1-1-BR-acknowledgement-2.eml",
        "g1-1-BR-acknowledgement.eml",
    ]
    assert read(tmp_path / "g1-1-BR-acknowledgement-2.eml")["Message-ID"] == "<b@x>"


def test_a_mail_about_no_game_is_named_by_whom_it_goes_to_and_its_subject(home, gm, monkeypatch):
    """Issue 30: answers about no game were acknowledgement.eml, acknowledgement-2.eml, ...:
    a GM could not tell which was whose without opening each."""
    set_mail_address(home)
    receive(gm, monkeypatch, mail("Can I join? Which games are open?", subject="Can I join?"), home)
    receive(gm, monkeypatch, mail("GAME nope\nPLAYER BR\nPASSWORD x\nEND\n", "Bob <bob@example.org>"), home)
    assert gm("mail", "send", home=home).code == 0
    names = sorted(p.name for p in (home / "outbox").glob("*.eml"))
    assert names == [
        "acknowledgement-ann@example.org-Re-Can-I-join.eml",
        "acknowledgement-bob@example.org-Re-orders.eml",
    ]
