"""Mail forged from a player's address, end to end on loopback: Dovecot IMAP in, SMTP out. The
forged questions spend the answers to her address; her own turn file is still answered and the
answer reaches the SMTP server, whatever the flood of strangers and their refused addresses."""

from __future__ import annotations

from email import message_from_bytes, policy

import pytest

from tests.intake.mails import configure, mail, rows, turn_file
from tests.mail.conftest import smtp, smtp_server  # noqa: F401 - the SMTP server on loopback

pytestmark = pytest.mark.slow


def test_forged_questions_and_a_flood_do_not_keep_a_players_answer_from_the_smtp_server(
    home, gm, mail_home, dovecot, imap_user, smtp
):
    configure(home, {**smtp.settings(), "mail.replies_per_hour": 3, "mail.stranger_replies_per_hour": 2})
    forged = [mail("Hello?", sender="Ann <ann@example.org>", message_id=f"<f{n}@evil.example>") for n in range(6)]
    flood = [mail("pills", sender=f"s{n}@spam.example", message_id=f"<s{n}@spam.example>") for n in range(6)]
    dovecot.deliver(imap_user, forged + flood)
    assert gm("inbox", "fetch", home=home).code == 0
    dovecot.deliver(imap_user, [mail(turn_file(mail_home["BR"]), message_id="<ann-orders@example.org>")])
    ran = gm("inbox", "fetch", home=home)
    assert ran.code == 0 and "accepted 1 order for BR in g1" in ran.out and "answer: none" not in ran.out
    for n in range(2):  # the strangers' server greylists them: they wait, the player's answer does not
        smtp.handler.answers[f"s{n}@spam.example"] = "450 4.7.1 greylisted, try again later"
    ran = gm("mail", "send", home=home)
    assert ran.code == 0, ran.err
    assert "2 to try again" in ran.out
    to_ann = [message_from_bytes(d.content, policy=policy.default) for d in smtp.handler.delivered]
    to_ann = [m for m, d in zip(to_ann, smtp.handler.delivered) if d.rcpt_tos == ["ann@example.org"]]
    assert len(to_ann) == 4  # three answers to the forged questions, and hers
    [hers] = [m for m in to_ann if m["In-Reply-To"] == "<ann-orders@example.org>"]
    assert "ACCEPTED" in hers.get_content()
    assert rows(home, "SELECT count(*) FROM outbox WHERE recipient LIKE '%@spam.example'") == [(2,)]
