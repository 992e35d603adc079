"""The abuse battery, mail intake (issue 29): a mail of 2,000 turn files with wrong secrets, a
flood of guesses at one seat, and what every writer meets while the database is busy. Each
failed on the main of 2026-11-27; none of the fixes takes anything from the rightful player."""

from __future__ import annotations

import hashlib
import mailbox
import sqlite3
import threading

import pytest

import gm.store.database
from gm.home import Home
from gm.intake.finding import MOST_TURN_FILES
from gm.web.app import create_app
from tests.intake.mails import mail, outbox_bodies, receive, rows, set_mail_address, turn_file
from tests.web.conftest import Player

SEATS = ("BR", "RU", "FR", "GE")


def hostile_mail(files: int, sender: str, message_id: str, seats=SEATS) -> bytes:
    """One mail holding `files` turn files for g1, each with a wrong secret of its own."""
    text = "".join(turn_file(f"x{n:04d}", "CLAIM ENG", seat=seats[n % len(seats)]) for n in range(files))
    return mail(text, sender=sender, subject="orders", message_id=message_id)


def maildir(tmp_path, name: str, *raws: bytes):
    box = mailbox.Maildir(tmp_path / name, create=True)
    for raw in raws:
        box.add(raw)
    return tmp_path / name


class Scrypts:
    """Every scrypt gm runs, and whether gm.db's write lock was held by someone at that moment
    (a second connection that cannot BEGIN IMMEDIATE at once: the lock is held)."""

    def __init__(self, database, real):
        self.database, self.real = database, real
        self.calls: list[bool] = []
        self._lock = threading.Lock()

    def __call__(self, *args, **kwargs):
        probe = sqlite3.connect(self.database, timeout=0, isolation_level=None)
        try:
            probe.execute("BEGIN IMMEDIATE")
            probe.execute("ROLLBACK")
            held = False
        except sqlite3.OperationalError:
            held = True
        finally:
            probe.close()
        with self._lock:
            self.calls.append(held)
        return self.real(*args, **kwargs)

    def take(self) -> list[bool]:
        with self._lock:
            taken, self.calls = self.calls, []
        return taken


@pytest.fixture
def scrypts(home, game, monkeypatch):
    set_mail_address(home)
    spy = Scrypts(home / "gm.db", hashlib.scrypt)
    monkeypatch.setattr(hashlib, "scrypt", spy)
    return spy


def answers_to(home, address: str) -> list[str]:
    return [body for kind, to, subject, body in outbox_bodies(home) if to == address]


def test_a_mail_of_2000_wrong_secrets_never_holds_the_database_and_gets_a_short_answer(
    home, gm, game, scrypts, tmp_path
):
    raw = hostile_mail(2000, "Mallory <mallory@evil.example>", "<flood@evil.example>")
    assert len(raw) < 110_000  # the red team's mail was 98 kB
    ran = gm("inbox", "import", maildir(tmp_path, "flood", raw), home=home)
    assert ran.code == 0, ran.err
    checked = scrypts.take()
    assert checked and not any(checked)  # no scrypt while gm.db's write lock was held
    assert len(checked) == MOST_TURN_FILES  # the rest of the mail was never read
    assert rows(home, "SELECT outcome FROM mail_taken") == [("refused",)]
    [answer] = answers_to(home, "mallory@evil.example")
    assert answer.startswith(
        f"Hello Mallory,\n\nThis mail holds 2,000 turn files; gm reads at most {MOST_TURN_FILES} in one mail. The "
        f"first\n{MOST_TURN_FILES} are answered below; the other {2000 - MOST_TURN_FILES:,} were not read: send "
        "them in mails of their own.\n"
    )
    assert answer.count("REFUSED: wrong password for player") == MOST_TURN_FILES
    assert len(answer.splitlines()) < 80
    assert rows(home, "SELECT count(*) FROM submissions") == [(0,)]


def test_wrong_secrets_are_limited_per_sender_and_per_seat_and_the_player_still_gets_in(
    home, gm, game, scrypts, tmp_path, monkeypatch
):
    # Ten wrong secrets from one address (the portal's sign_in_failures): its next guess is not checked.
    first = hostile_mail(10, "Mallory <mallory@evil.example>", "<m1@evil.example>", seats=("BR",))
    assert receive(gm, monkeypatch, first, home).code == 0
    assert len(scrypts.take()) == 10
    again = mail(turn_file("wrong-again"), sender="mallory@evil.example", message_id="<m2@evil.example>")
    assert receive(gm, monkeypatch, again, home).code == 0
    assert scrypts.take() == []
    assert (
        "REFUSED: too many wrong secrets from mallory@evil.example lately; try again in about 5 minute(s)."
        in (answers_to(home, "mallory@evil.example")[-1])
    )
    # Forged senders, one guess each: the seat has had its ten, from anywhere.
    for n in range(3):
        forged = mail(turn_file(f"wrong-{n}"), sender=f"x{n}@evil.example", message_id=f"<x{n}@evil.example>")
        assert receive(gm, monkeypatch, forged, home).code == 0
        assert (
            "REFUSED: too many wrong secrets for BR of 'g1' lately, from anywhere; orders from the address "
            "registered for the seat still count"
        ) in answers_to(home, f"x{n}@evil.example")[0]
    assert scrypts.take() == []
    # The seat's player, from the address registered for it, with the right secret: accepted.
    mine = mail(turn_file(game["BR"]), sender="Ann <ann@example.org>", message_id="<ann1@example.org>")
    ran = receive(gm, monkeypatch, mine, home)
    assert "accepted 1 order(s) for BR in g1" in ran.out
    assert rows(home, "SELECT s.code, sub.verdict FROM submissions sub JOIN seats s ON s.id = sub.seat_id") == [
        ("BR", "accepted")
    ]
    # Another seat is not held up by BR's flood.
    theirs = mail(turn_file(game["RU"], seat="RU"), sender="bob@example.org", message_id="<bob1@example.org>")
    assert "accepted 1 order(s) for RU in g1" in receive(gm, monkeypatch, theirs, home).out


def test_a_mailbox_of_forged_guesses_read_ahead_starts_no_more_scrypt_than_the_seat_may_use(
    home, gm, game, scrypts, tmp_path
):
    """300 mails in two batches, read ahead by reader processes, each from a stranger of its own
    with one wrong secret for BR: the seat's ten are checked, the rest refused unchecked."""
    flood = [
        mail(turn_file(f"x{n:04d}"), sender=f"x{n}@evil.example", message_id=f"<x{n}@evil.example>") for n in range(300)
    ]
    ran = gm("inbox", "import", maildir(tmp_path, "flood", *flood), "--readers", "2", home=home)
    assert ran.code == 0, ran.err
    checked = scrypts.take()
    assert len(checked) == 10 and not any(checked)
    assert ran.out.count("too many wrong secrets for BR of 'g1' lately") == 290


def test_mail_and_the_portal_count_guesses_at_a_seat_together(home, gm, game, scrypts, tmp_path, monkeypatch):
    """One limiter: ten wrong secrets by mail from strangers leave a stranger's browser none."""
    for n in range(10):
        forged = mail(turn_file(f"wrong-{n}"), sender=f"x{n}@evil.example", message_id=f"<x{n}@evil.example>")
        assert receive(gm, monkeypatch, forged, home).code == 0
    player = Player(create_app(Home(home)).test_client())
    page = player.sign_in("BR", game["BR"])
    assert page.status_code == 429 and "Too many wrong secrets for this seat lately, from anywhere." in page.text


WRITERS = {
    "submit": ("submit", "{turn_file}"),
    "turn run": ("turn", "run", "g1", "--now", "--no-render"),
    "run-due": ("run-due",),
    "inbox import": ("inbox", "import", "{maildir}"),
    "game new": ("game", "new", "g2", "--ruleset", "clash"),
    "game set": ("game", "set", "g1", "grace", "2h"),
    "credits buy": ("credits", "buy", "ann@example.org", "10", "--paid", "20"),
}


@pytest.fixture
def busy(home, game, monkeypatch):
    """gm.db with its write lock held by another connection, and writers waiting 0.2 s, not 10."""
    monkeypatch.setattr(gm.store.database, "BUSY_TIMEOUT", 0.2)
    holder = sqlite3.connect(home / "gm.db", isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    yield holder
    holder.execute("ROLLBACK")
    holder.close()


BUSY = (
    "Error: the database stayed busy for 0.2 s (another gm command or the portal was writing to it); "
    "the command stopped there."
)


@pytest.mark.parametrize("writer", sorted(WRITERS))
def test_a_writer_that_meets_a_busy_database_says_so_in_one_line(home, gm, game, busy, tmp_path, writer):
    path = tmp_path / "br.txt"
    path.write_text(turn_file(game["BR"]))
    box = maildir(tmp_path, "box", mail(turn_file(game["BR"])))
    args = [a.format(turn_file=path, maildir=box) for a in WRITERS[writer]]
    ran = gm(*args, home=home)
    assert ran.code == 1 and ran.err == f"{BUSY} Run it again in a moment.\n", ran.err


def test_a_mail_server_pipe_that_meets_a_busy_database_keeps_the_message(home, gm, game, busy, monkeypatch):
    ran = receive(gm, monkeypatch, mail(turn_file(game["BR"])), home)
    assert ran.code == 75
    assert ran.err == f"{BUSY} The mail server keeps the message and tries again.\n"


def test_a_portal_submit_that_meets_a_busy_database_answers_503_not_500(home, game, busy):
    player = Player(create_app(Home(home)).test_client())
    assert player.sign_in("BR", game["BR"]).status_code == 200
    orders = "GAME g1\nPLAYER BR\nPASSWORD <your secret>\nTURN 1\nCLAIM ENG\nEND\n"
    page = player.post("/orders", {"orders": orders, "action": "submit"})
    assert page.status_code == 503 and page.headers["Retry-After"] == "30"
    assert "busy right now, so nothing you sent was stored. Try again in a minute." in page.text
