"""Sign-up by mail: JOIN puts a player on a waiting list once confirmed from the address it names
(CONFIRM and the code gm mails there) and is answered; the GM seats the list (or the game does,
with signups auto), each player gets the secret by mail, and a full game starts. The mails come
through the real IMAP server the suite starts (Dovecot) and go out through a real SMTP server
(aiosmtpd), as the README's path says."""

from __future__ import annotations

import email
import email.policy
import re

import pytest

from gm.seat_secrets import check_secret
from tests.intake.mails import configure, confirmation_code, mail, outbox_bodies, receive, rows, set_mail_address
from tests.mail.conftest import smtp, smtp_server  # noqa: F401  (the SMTP server fixtures)


def join_mail(text: str, sender: str, n: int, **headers) -> bytes:
    return mail(text, sender=sender, subject="sign me up", message_id=f"<join{n}@example.org>", **headers)


def confirm(gm, monkeypatch, home, address: str, n: int):
    """Answer gm's confirmation from the address, as a player does: the line written, gm's mail quoted."""
    code = confirmation_code(home, address)
    text = f"CONFIRM {code}\n\nOn Mon, gm wrote:\n> answer with this line:\n>   CONFIRM {code}\n"
    return receive(gm, monkeypatch, mail(text, sender=address, subject="Re: confirm", message_id=f"<c{n}@x>"), home)


@pytest.fixture
def open_game(home, gm):
    """c2: a clash game with no players yet and a weekly schedule; the GM's address is set."""
    set_mail_address(home)
    assert gm("game", "new", "c2", "--ruleset", "clash", home=home).code == 0
    assert gm("game", "schedule", "c2", "weekly on friday 18:00", home=home).code == 0
    return home


@pytest.mark.slow
def test_join_by_imap_lists_answers_and_refuses_bad_ones(home, gm, open_game, dovecot, imap_user):
    dovecot.deliver(
        imap_user,
        [
            join_mail("Hello GM,\nJOIN c2\nNAME Ann Example\nSEATS fr ge\nthanks!", "Ann <ann@example.org>", 1),
            join_mail("JOIN c2 please now", "Bob <bob@example.org>", 2),
            join_mail("JOIN chess", "Cy <cy@example.org>", 3),
            join_mail("> JOIN c2\nCan I play next month?", "Di <di@example.org>", 4),
        ],
    )
    ran = gm("inbox", "fetch", home=home)
    assert ran.code == 0, ran.err
    assert rows(home, "SELECT sender, outcome FROM mail_taken ORDER BY id") == [
        ("ann@example.org", "signup"),
        ("bob@example.org", "refused"),
        ("cy@example.org", "refused"),
        ("di@example.org", "question"),
    ]
    # Archived before it was read: every message's raw bytes are in the archive.
    for (digest,) in rows(home, "SELECT digest FROM mail_taken"):
        assert (home / "archive" / digest[:2] / digest).is_file()
    assert rows(
        home,
        """SELECT a.email, w.name, w.preferences, w.came, w.confirm_hash IS NOT NULL FROM waiting w
                         JOIN accounts a ON a.id = w.account_id""",
    ) == [("ann@example.org", "Ann Example", '["FR", "GE"]', "mail", 1)]  # waiting for its confirmation
    answers = {to: (subject, body) for kind, to, subject, body in outbox_bodies(home)}
    assert answers["ann@example.org"][0] == "Confirm your sign-up for game c2"
    assert (
        "The game master's mail program has a sign-up from ann@example.org\nfor game c2, asking for FR or GE."
        in (answers["ann@example.org"][1])
    )
    assert "NOT TAKEN: your sign-up: give one JOIN line" in answers["bob@example.org"][1]
    assert "NOT TAKEN: your sign-up: gm has no game or ruleset 'chess'" in answers["cy@example.org"][1]
    listed = gm("game", "waiting", "c2", home=home).out
    assert listed.split()[1:4] == ["ann@example.org", "Ann", "Example"] and "; unconfirmed, lapses 20" in listed
    assert gm("game", "seat-waiting", "c2", home=home).out == "Nobody to seat in c2: see gm game waiting c2.\n"


@pytest.mark.slow
def test_the_readme_path_join_confirm_seated_through_imap_and_smtp(home, gm, open_game, dovecot, imap_user, smtp):
    """JOIN by mail, the confirmation mailed through SMTP to the From address (not the Reply-To),
    CONFIRM by mail, and under signups auto the seat and its secret by mail at once."""
    configure(home, smtp.settings())
    assert gm("mail", "send", home=home).code == 0  # g1's start mails (the IMAP fixtures' full game)
    smtp.handler.delivered.clear()
    assert gm("game", "set", "c2", "signups", "auto", home=home).code == 0
    dovecot.deliver(
        imap_user, [join_mail("JOIN c2\nSEATS RU", "Ann <ann@example.org>", 1, Reply_To="ann.other@example.net")]
    )
    assert gm("inbox", "fetch", "--send", home=home).code == 0
    [asked] = [email.message_from_bytes(d.content, policy=email.policy.default) for d in smtp.handler.delivered]
    assert smtp.handler.delivered[0].rcpt_tos == ["ann@example.org"]
    assert asked["Subject"] == "Confirm your sign-up for game c2" and asked["In-Reply-To"] == "<join1@example.org>"
    c2_seats = "SELECT count(*) FROM seats s JOIN games g ON g.id = s.game_id WHERE g.name = 'c2'"
    assert rows(home, c2_seats) == [(0,)]  # not before it is confirmed
    code = re.search(r"CONFIRM (\S+)", asked.get_body().get_content())[1]
    reply = mail(f"CONFIRM {code}\n", sender="Ann <ann@example.org>", subject="Re: confirm", message_id="<c1@x>")
    dovecot.deliver(imap_user, [reply])
    assert gm("inbox", "fetch", "--send", home=home).code == 0
    seated = [email.message_from_bytes(d.content, policy=email.policy.default) for d in smtp.handler.delivered[1:]]
    by_subject = {m["Subject"]: m for m in seated}
    assert set(by_subject) == {"Re: confirm", "c2: you have seat RU"}
    assert "You have seat RU in c2; your secret comes in a mail of its own." in (
        by_subject["Re: confirm"].get_body().get_content()
    )
    secret = re.search(r"is:\s+(\S+)", by_subject["c2: you have seat RU"].get_body().get_content())[1]
    [(stored,)] = rows(home, "SELECT s.secret_hash FROM seats s JOIN games g ON g.id = s.game_id WHERE g.name = 'c2'")
    assert check_secret(secret, stored)
    assert all(d.rcpt_tos == ["ann@example.org"] for d in smtp.handler.delivered)


def test_the_gm_seats_the_list_secrets_go_by_mail_and_a_full_game_starts(home, gm, open_game, monkeypatch):
    people = [
        ("Ann <ann@example.org>", "GE"),
        ("Bob <bob@example.org>", "GE FR"),
        ("Cy <cy@example.org>", ""),
        ("Di <di@example.org>", "BR"),
        ("Ed <ed@example.org>", ""),
    ]
    for n, (who, seats) in enumerate(people):
        receive(gm, monkeypatch, join_mail(f"JOIN c2\nSEATS {seats}", who, n), home)
    for n, (who, _) in enumerate(people):
        assert confirm(gm, monkeypatch, home, who.split("<")[1].rstrip(">"), n).code == 0
    before = len(outbox_bodies(home))
    ran = gm("game", "seat-waiting", "c2", home=home)
    assert ran.out.splitlines() == [
        "seated ann@example.org in GE of c2",
        "seated bob@example.org in FR of c2",
        "seated cy@example.org in BR of c2",
        "seated di@example.org in RU of c2",
        "c2 has started with 4 seats: BR, RU, FR, GE; first deadline "
        + rows(home, "SELECT deadline FROM games WHERE name = 'c2'")[0][0],
        "c2: 4 start mail(s) queued; send them with 'gm mail send'",
    ]
    mails = outbox_bodies(home)[before:]
    secret_mails = [m for m in mails if m[2].startswith("c2: you have seat")]
    assert [m[1] for m in secret_mails] == ["ann@example.org", "bob@example.org", "cy@example.org", "di@example.org"]
    secret = secret_mails[0][3].split("is:\n\n  ")[1].split("\n")[0]
    [(stored,)] = rows(home, "SELECT secret_hash FROM seats WHERE code = 'GE'")
    assert check_secret(secret, stored) and secret not in str(rows(home, "SELECT * FROM seats"))
    assert sorted(m[1] for m in mails if m[2] == "c2 has started") == [
        "ann@example.org",
        "bob@example.org",
        "cy@example.org",
        "di@example.org",
    ]
    assert gm("game", "waiting", "c2", home=home).out.split()[1] == "ed@example.org"  # still waiting
    again = gm("game", "seat-waiting", "c2", home=home)  # started: its seats are fixed
    assert again.err == "Error: game 'c2' has started; only a game still open for players seats the waiting list.\n"


def test_a_game_with_automatic_signups_seats_once_confirmed(home, gm, open_game, monkeypatch):
    assert gm("game", "set", "c2", "signups", "auto", home=home).code == 0
    receive(gm, monkeypatch, join_mail("JOIN clash\nSEATS RU", "Ann <ann@example.org>", 1), home)
    seats = "SELECT code FROM seats s JOIN accounts a ON a.id = s.account_id WHERE a.email = 'ann@example.org'"
    assert rows(home, seats) == []
    assert confirm(gm, monkeypatch, home, "ann@example.org", 1).code == 0
    assert rows(home, seats) == [("RU",)]
    answer = [m for m in outbox_bodies(home) if m[0] == "acknowledgement"][-1][3]
    assert "Confirmed: ann@example.org is on the waiting list for the next game of clash." in answer
    assert "You have seat RU in c2; your secret comes in a mail of its own." in answer


def test_a_join_again_while_unconfirmed_sends_a_new_code_and_once_confirmed_changes_nothing(
    home, gm, open_game, monkeypatch
):
    receive(gm, monkeypatch, join_mail("JOIN c2", "ann@example.org", 1), home)
    first = confirmation_code(home, "ann@example.org")
    receive(gm, monkeypatch, join_mail("JOIN c2\nSEATS FR", "ann@example.org", 2), home)
    assert confirmation_code(home, "ann@example.org") != first
    stale = mail(f"CONFIRM {first}", sender="ann@example.org", message_id="<stale@x>")
    assert "refused" in receive(gm, monkeypatch, stale, home).out  # the code mailed before counts no more
    assert confirm(gm, monkeypatch, home, "ann@example.org", 3).code == 0
    receive(gm, monkeypatch, join_mail("JOIN c2", "ann@example.org", 4), home)
    assert "ann <ann@example.org> is on the waiting list for game c2 already." in outbox_bodies(home)[-1][3]
    assert rows(home, "SELECT count(*), confirm_hash FROM waiting") == [(1, None)]


def test_the_waiting_list_of_a_ruleset_feeds_its_next_game(home, gm, monkeypatch):
    set_mail_address(home)
    receive(gm, monkeypatch, join_mail("JOIN conqueror\nNAME Ann", "ann@example.org", 1), home)
    assert confirm(gm, monkeypatch, home, "ann@example.org", 1).code == 0
    assert gm("game", "new", "q1", "--ruleset", "conqueror", home=home).code == 0
    assert gm("game", "seat-waiting", "q1", home=home).out == "seated ann@example.org in EN of q1\n"
