"""The return slip by mail (rule 11.5): SLIP lines acted on through the books and the waiting
lists, bad slips refused whole, and the GM's default for slips that never came back."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from gm.cli import common as cli_common
from gm.clock import FixedClock
from tests.cli.test_game import table_dump
from tests.intake.mails import mail, outbox_bodies, receive, rows, set_mail_address


def slip(player: tuple, *lines: str) -> str:
    seat, secret = player
    return f"GAME m1\nPLAYER {seat}\nPASSWORD {secret}\n" + "\n".join(lines) + "\nEND\n"


@pytest.fixture
def over(home, gm):
    """m1: a Minecraft EMPIRES game of one round, over; Bob (seat RE) and Ann (RE): name ->
    (seat, secret)."""
    set_mail_address(home)
    assert gm("game", "new", "m1", "--ruleset", "mcempires", "--seed", "5", "-o", "round-limit=1", home=home).code == 0
    secrets = {}
    for name in ("bob", "ann"):
        ran = gm("game", "join", "m1", f"{name}@example.org", "--name", name.title(), home=home)
        code, secret = (
            next(line for line in ran.out.splitlines() if line.startswith("Secret for "))
            .removeprefix("Secret for ")
            .split(": ")
        )
        secrets[name] = (code, secret)
    gm("credits", "buy", "bob@example.org", "5", "--paid", "10", home=home)
    assert gm("turn", "run", "m1", "--now", "--no-render", home=home).out.endswith("m1 is over.\n")
    return secrets


def test_a_slip_transfers_credits_and_joins_the_next_game(home, gm, over, monkeypatch):
    text = slip(over["bob"], "SLIP TRANSFER 3 TO ann@example.org", "SLIP JOIN")
    ran = receive(gm, monkeypatch, mail(text, sender="Bob <bob@example.org>"), home)
    assert ran.out.startswith("stdin: request for RE in m1"), ran.out
    assert rows(home, "SELECT kind, credits, memo FROM ledger WHERE kind = 'transfer' ORDER BY id") == [
        ("transfer", -3, "to ann@example.org: return slip of RE in m1"),
        ("transfer", 3, "from bob@example.org: return slip of RE in m1"),
    ]
    assert rows(
        home,
        """SELECT w.ruleset, w.game_id, a.email, w.preferences, w.came FROM waiting w
                         JOIN accounts a ON a.id = w.account_id""",
    ) == [("mcempires", None, "bob@example.org", '["RE"]', "slip")]
    body = outbox_bodies(home)[-1][3]
    assert "3 credits went from your account to ann@example.org." in body
    assert "You are on the waiting list for the next game of mcempires, asking for seat RE again." in body
    assert gm("ledger", "check", home=home).code == 0
    assert (
        gm("game", "slips", "m1", home=home)
        .out.splitlines()[0]
        .startswith("RE   bob@example.org              join the next game, credits (3) to ann@example.org (player, ")
    )
    assert [e.split()[2] for e in gm("audit", home=home).out.splitlines()[-3:]] == [
        "credits",
        "waiting",
        "return",
    ]  # the list of a ruleset's next game is the house's


@pytest.mark.parametrize(
    "lines, reason",
    [
        (("SLIP JOIN", "SLIP FLY"), "line 5: not a return slip line"),
        (("SLIP TRANSFER 99 TO ann@example.org",), "you have 4 credits left, so 99 cannot be given"),
        (("SLIP TRANSFER ALL TO nobody@",), "'nobody@' is not an e-mail address"),
        (("SLIP TRANSFER 2 TO BOB@example.org",), "the credits are yours already; SLIP CARRY keeps them"),
        (("SLIP JOIN chess",), "gm has no game or ruleset 'chess'"),
        (("SLIP JOIN", "SLIP NONE"), "line 5: the slip already says whether you join"),
    ],
)
def test_a_bad_slip_is_refused_whole_and_changes_nothing(home, gm, over, monkeypatch, lines, reason):
    before = [(t, r) for t, r in table_dump(home) if t not in ("mail_taken", "outbox")]
    ran = receive(gm, monkeypatch, mail(slip(over["bob"], *lines), sender="Bob <bob@example.org>"), home)
    assert "refused" in ran.out
    after = [(t, r) for t, r in table_dump(home) if t not in ("mail_taken", "outbox")]
    assert after == before
    body = outbox_bodies(home)[-1][3]
    assert "REFUSED: your return slip for RE in m1 was not used: " in body and reason in body, body


def test_a_transfer_answers_alike_whether_the_address_plays_here_or_not(home, gm, over, monkeypatch):
    """A slip told a stranger's address apart from a player's ('gm has no player ...'): a player
    could find out who plays in the house (D-ALL-5). Now the credits go either way, to a new
    account where they wait for an address gm had none for, and the answers differ only in it."""
    gm("credits", "buy", "ann@example.org", "5", "--paid", "10", home=home)
    answers = []
    for who, to in (("bob", "ann@example.org"), ("ann", "zed@elsewhere.example")):
        seat = over[who][0]
        text = slip(over[who], f"SLIP TRANSFER 2 TO {to}")
        ran = receive(gm, monkeypatch, mail(text, sender=f"<{who}@example.org>", message_id=f"<{who}@x>"), home)
        assert ran.out.startswith(f"stdin: request for {seat} in m1"), ran.out
        answers.append(outbox_bodies(home)[-1][3].replace(to, "TO").replace(who.title(), "WHO").replace(seat, "SEAT"))
    assert answers[0] == answers[1] and "2 credits went from your account to TO." in answers[0]
    assert rows(
        home,
        "SELECT a.email, l.credits, l.memo FROM ledger l JOIN accounts a ON a.id = l.account_id "
        "WHERE l.kind = 'transfer' AND l.credits > 0 ORDER BY l.id",
    ) == [
        ("ann@example.org", 2, f"from bob@example.org: return slip of {over['bob'][0]} in m1"),
        ("zed@elsewhere.example", 2, f"from ann@example.org: return slip of {over['ann'][0]} in m1"),
    ]
    assert rows(home, "SELECT name FROM accounts WHERE email = 'zed@elsewhere.example'") == [("zed",)]
    assert gm("ledger", "check", home=home).code == 0


def test_a_slip_for_a_game_still_running_is_refused(home, gm, over, monkeypatch):
    gm("game", "new", "m2", "--ruleset", "mcempires", home=home)
    ran = gm("game", "join", "m2", "cy@example.org", "--name", "Cy", home=home)
    code, secret = (
        next(line for line in ran.out.splitlines() if line.startswith("Secret for "))
        .removeprefix("Secret for ")
        .split(": ")
    )
    text = f"GAME m2\nPLAYER {code}\nPASSWORD {secret}\nSLIP NONE\nEND\n"
    receive(gm, monkeypatch, mail(text, sender="Cy <cy@example.org>"), home)
    assert "m2 is not over yet" in outbox_bodies(home)[-1][3]
    assert rows(home, "SELECT count(*) FROM slips") == [(0,)]


def test_a_second_slip_is_refused(home, gm, over, monkeypatch):
    receive(gm, monkeypatch, mail(slip(over["bob"], "SLIP NONE"), message_id="<a@x>"), home)
    receive(gm, monkeypatch, mail(slip(over["bob"], "SLIP JOIN"), message_id="<b@x>"), home)
    assert "was already acted on (player," in outbox_bodies(home)[-1][3]
    assert rows(home, "SELECT count(*) FROM waiting") == [(0,)]


def test_an_unanswered_slip_gets_the_default_after_slip_days(home, gm, over, monkeypatch):
    assert gm("game", "set", "m1", "slip-days", "3", home=home).code == 0
    receive(gm, monkeypatch, mail(slip(over["ann"], "SLIP NONE"), sender="Ann <ann@example.org>"), home)
    ended = datetime.fromisoformat(rows(home, "SELECT MAX(resolved) FROM turns")[0][0].replace("Z", "+00:00"))
    monkeypatch.setattr(cli_common, "CLOCK", FixedClock(ended + timedelta(days=2)))
    assert "no return slip" not in gm("run-due", home=home).out
    monkeypatch.setattr(cli_common, "CLOCK", FixedClock(ended + timedelta(days=3)))
    ran = gm("run-due", home=home)
    # Bob has credits left (5 bought, 1 turn played): rule 11.5 puts him into the next game.
    assert (
        "m1: no return slip from RE (bob@example.org): You are on the waiting list for the next "
        "game of mcempires, asking for seat RE again."
    ) in ran.out
    assert rows(home, "SELECT by FROM slips ORDER BY id") == [("player",), ("default",)]
    [(kind, to, subject, body)] = [m for m in outbox_bodies(home) if m[2] == "m1: your return slip"]
    assert (kind, to) == ("notice", "bob@example.org") and "has\nnot come back in 3 days" in body
    assert "no return slip" not in gm("run-due", home=home).out  # once only


def test_a_transfer_to_an_old_address_reaches_its_player_and_never_shows_the_new_one(home, gm, over, monkeypatch):
    assert gm("person", "address", "ann@example.org", "ann@new.example", home=home).code == 0
    receive(gm, monkeypatch, mail(slip(over["bob"], "SLIP TRANSFER 2 TO ann@example.org")), home)
    assert "2 credits went from your account to ann@example.org." in outbox_bodies(home)[-1][3]
    assert rows(
        home,
        "SELECT a.email, l.credits, l.memo FROM ledger l JOIN accounts a ON a.id = l.account_id "
        "WHERE l.kind = 'transfer' ORDER BY l.id",
    ) == [
        ("bob@example.org", -2, f"to ann@example.org: return slip of {over['bob'][0]} in m1"),
        ("ann@new.example", 2, f"from bob@example.org: return slip of {over['bob'][0]} in m1"),
    ]
    assert rows(home, "SELECT count(*) FROM accounts") == [(2,)]
