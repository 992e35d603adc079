"""Sign-up by mail: JOIN puts a player on a waiting list and is answered; the GM seats the list
(or the game does, with signups auto), each player gets the secret by mail, and a full game
starts. The mails come through the real IMAP server the suite starts (Dovecot)."""

from __future__ import annotations

import pytest

from gm.seat_secrets import check_secret
from tests.intake.mails import mail, outbox_bodies, receive, rows, set_mail_address


def join_mail(text: str, sender: str, n: int) -> bytes:
    return mail(text, sender=sender, subject="sign me up", message_id=f"<join{n}@example.org>")


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
        """SELECT a.email, w.name, w.preferences, w.came FROM waiting w
                         JOIN accounts a ON a.id = w.account_id""",
    ) == [("ann@example.org", "Ann Example", '["FR", "GE"]', "mail")]
    answers = {to: body for kind, to, subject, body in outbox_bodies(home)}
    assert (
        "Ann Example <ann@example.org> is on the waiting list for game c2, asking for FR or GE."
        in answers["ann@example.org"]
    )
    assert "NOT TAKEN: your sign-up: give one JOIN line" in answers["bob@example.org"]
    assert "NOT TAKEN: your sign-up: gm has no game or ruleset 'chess'" in answers["cy@example.org"]
    assert gm("game", "waiting", "c2", home=home).out.split()[1:4] == ["ann@example.org", "Ann", "Example"]


def test_the_gm_seats_the_list_secrets_go_by_mail_and_a_full_game_starts(home, gm, open_game, monkeypatch):
    for n, (who, seats) in enumerate(
        [
            ("Ann <ann@example.org>", "GE"),
            ("Bob <bob@example.org>", "GE FR"),
            ("Cy <cy@example.org>", ""),
            ("Di <di@example.org>", "BR"),
            ("Ed <ed@example.org>", ""),
        ]
    ):
        receive(gm, monkeypatch, join_mail(f"JOIN c2\nSEATS {seats}", who, n), home)
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


def test_a_game_with_automatic_signups_seats_at_once(home, gm, open_game, monkeypatch):
    assert gm("game", "set", "c2", "signups", "auto", home=home).code == 0
    receive(gm, monkeypatch, join_mail("JOIN clash\nSEATS RU", "Ann <ann@example.org>", 1), home)
    assert rows(
        home, "SELECT code FROM seats s JOIN accounts a ON a.id = s.account_id WHERE a.email = 'ann@example.org'"
    ) == [("RU",)]
    answer = [m for m in outbox_bodies(home) if m[0] == "acknowledgement"][-1][3]
    assert "on the waiting list for the next game of clash, asking for RU." in answer
    assert "You have seat RU in c2; your secret comes in a mail of its own." in answer


def test_the_waiting_list_of_a_ruleset_feeds_its_next_game(home, gm, monkeypatch):
    set_mail_address(home)
    receive(gm, monkeypatch, join_mail("JOIN conqueror\nNAME Ann", "ann@example.org", 1), home)
    assert gm("game", "new", "q1", "--ruleset", "conqueror", home=home).code == 0
    assert gm("game", "seat-waiting", "q1", home=home).out == "seated ann@example.org in EN of q1\n"
