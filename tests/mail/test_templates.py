"""Mail templates: plain text (no HTML escaping), overridden by the GM's own, a broken one named."""

from __future__ import annotations

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
