"""Mail templates: plain text (no HTML escaping), overridden by the GM's own, a broken one named."""

from __future__ import annotations

import os

import pytest

from gm.errors import GMError
from gm.mail.templates import mail_environment, write_mail
from tests.intake.mails import mail, outbox_bodies, receive, set_mail_address, turn_file


def test_text_is_not_html_escaped(home, gm, game, monkeypatch):
    set_mail_address(home)
    receive(gm, monkeypatch, mail(turn_file("wrong"), sender='"Ann <&> Co" <ann@example.org>'), home)
    [(_, _, _, body)] = outbox_bodies(home)
    assert body.startswith("Hello Ann <&> Co,\n")


def test_gm_override_is_used_and_a_broken_one_is_named(home, gm, game, monkeypatch):
    set_mail_address(home)
    (home / "templates" / "mail").mkdir(parents=True)
    mine = home / "templates" / "mail" / "acknowledgement.txt"
    mine.write_text(
        "Subject: [Clash] {{ reply_subject }}\n\n{% for r in results %}{{ r.verdict }} {{ r.seat }}\n{% endfor %}"
    )
    receive(gm, monkeypatch, mail(turn_file(game["BR"])), home)
    assert outbox_bodies(home) == [("acknowledgement", "ann@example.org", "[Clash] Re: orders", "accepted BR\n")]
    mine.write_text("Subject: x\n\n{{ results.nope }}")
    ran = receive(gm, monkeypatch, mail(turn_file(game["BR"]), message_id="<2@x>"), home)
    assert ran.code == 75
    assert ran.err.startswith(f"Error: the mail template {mine} does not render: ")


def test_kept_environment_sees_templates_come_change_and_go(tmp_path):
    """The mail environment is kept by the process (a run-due asks for it for every game), yet a
    GM's template put in templates/mail/, edited or taken away is used from the next mail on."""
    context = {"name": "Ann"}
    first = mail_environment(tmp_path)
    assert mail_environment(tmp_path) is first  # kept, not made again
    mail = tmp_path / "mail"
    mail.mkdir()
    mine = mail / "note.txt"
    mine.write_text("Subject: one\n\nfirst {{ name }}\n")
    assert write_mail(mail_environment(tmp_path), "note.txt", context).body == "first Ann\n"
    made = mine.stat().st_mtime_ns
    mine.write_text("Subject: two\n\nsecond {{ name }}\n")
    os.utime(mine, ns=(made + 10**9, made + 10**9))  # an edit a second later, whatever the clock's grain
    written = write_mail(mail_environment(tmp_path), "note.txt", context)
    assert (written.subject, written.body) == ("two", "second Ann\n")
    mine.unlink()
    with pytest.raises(GMError, match="does not render"):
        write_mail(mail_environment(tmp_path), "note.txt", context)
    # gm's own answer.txt used while the GM's folder has no copy of it, then the GM's copy comes:
    # only the folder's time tells (Jinja keeps checking the file it found first, gm's).
    answer = {"reply_subject": "Re: x", "name": "", "answer": "yes", "gm_name": "GM", "received": "now", "quoted": ""}
    assert write_mail(mail_environment(tmp_path), "answer.txt", answer).subject == "Re: x"
    (mail / "answer.txt").write_text("Subject: mine\n\n{{ answer }}\n")
    os.utime(mail, ns=(made + 2 * 10**9, made + 2 * 10**9))  # the folder's time moved, whatever the clock's grain
    assert write_mail(mail_environment(tmp_path), "answer.txt", answer).subject == "mine"
