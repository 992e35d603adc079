"""The abuse battery, mail intake (issue 29): a mail of 2,000 turn files with wrong secrets, a
flood of guesses at one seat, what every writer meets while the database is busy, a forged
sign-up and a flood of them. Each failed on the main of 2026-11-27; none of the fixes takes
anything from the rightful player."""

from __future__ import annotations

import hashlib
import json
import mailbox
import re
import sqlite3
import threading
from datetime import UTC, datetime, timedelta

import pytest

import gm.cli.common
import gm.store.database
from gm.clock import FixedClock
from gm.home import Home
from gm.intake.finding import MOST_TURN_FILES
from gm.services.signups import CONFIRM_HOURS
from gm.web.app import create_app
from tests.intake.mails import (
    configure,
    confirmation_code,
    mail,
    outbox_bodies,
    receive,
    rows,
    set_mail_address,
    turn_file,
)
from tests.web.conftest import Player

SEATS = ("BR", "RU", "FR", "GE")
STRANGERS_AN_HOUR = 60  # [mail] stranger_replies_per_hour as gm init writes it


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
        # One probe at a time: two secret-check threads starting together would otherwise each
        # find the lock held by the other's probe, not by gm (seen in CI: one in ten "held").
        with self._lock:
            probe = sqlite3.connect(self.database, timeout=0, isolation_level=None)
            try:
                probe.execute("BEGIN IMMEDIATE")
                probe.execute("ROLLBACK")
                held = False
            except sqlite3.OperationalError:
                held = True
            finally:
                probe.close()
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


def test_a_flood_from_forged_strangers_gets_a_few_answers_and_the_players_still_get_theirs(home, gm, game, tmp_path):
    set_mail_address(home)
    configure(home, {"mail.stranger_replies_per_hour": 3})
    spam = "Cheap pills http spam example"
    questions = [
        mail("Visit http://spam.example", sender=f"{spam} <v{n}@victims.example>", message_id=f"<q{n}@spam.example>")
        for n in range(6)
    ]
    guesses = [
        mail(turn_file(f"x{n}"), sender=f"{spam} <w{n}@victims.example>", message_id=f"<g{n}@spam.example>")
        for n in range(6)
    ]
    players = [
        mail("When is the deadline?", sender="Bob <bob@example.org>", message_id="<bob@example.org>"),
        mail(turn_file(game["BR"]), message_id="<ann@example.org>"),
        mail(turn_file("wrong-secret", seat="RU"), sender="Bob <BOB@example.org>", message_id="<bob2@example.org>"),
    ]
    ran = gm("inbox", "import", maildir(tmp_path, "flood", *questions, *guesses, *players), home=home)
    assert ran.code == 0, ran.err
    assert ran.out.endswith("Taken: 1 accepted, 7 question, 7 refused\n")  # every mail is still taken
    answered = [to for (to,) in rows(home, "SELECT recipient FROM outbox WHERE kind = 'acknowledgement'")]
    assert len([to for to in answered if to.endswith("@victims.example")]) == 3  # on main: 12, one each
    assert sorted(to for to in answered if to.endswith("@example.org")) == [
        "ann@example.org",
        "bob@example.org",
        "bob@example.org",
    ]
    assert ran.out.count("answer: none: 3 answers to addresses that hold no seat here in the last hour") == 9
    assert len(json.loads(gm("inbox", "questions", "--json", home=home).out)) == 7  # each waits for the GM


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
    assert "accepted 1 order for BR in g1" in ran.out
    assert rows(home, "SELECT s.code, sub.verdict FROM submissions sub JOIN seats s ON s.id = sub.seat_id") == [
        ("BR", "accepted")
    ]
    # Another seat is not held up by BR's flood.
    theirs = mail(turn_file(game["RU"], seat="RU"), sender="bob@example.org", message_id="<bob1@example.org>")
    assert "accepted 1 order for RU in g1" in receive(gm, monkeypatch, theirs, home).out


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


# ---------------------------------------------------------------------------------------------
# Sign-ups: anyone can write any From.


@pytest.fixture
def auto_game(home, gm, clock):
    """c2: an open clash game (2-4 seats) that seats sign-ups at once (signups auto); the
    victim's address has credits, which a forged seat would be charged."""
    set_mail_address(home)
    assert gm("game", "new", "c2", "--ruleset", "clash", home=home).code == 0
    assert gm("game", "set", "c2", "signups", "auto", home=home).code == 0
    assert gm("credits", "buy", "victim@example.org", "10", "--paid", "20", "--name", "Vic", home=home).code == 0
    return home


@pytest.fixture
def clock(monkeypatch):
    fixed = FixedClock(datetime(2026, 11, 23, 10, 0, tzinfo=UTC))
    monkeypatch.setattr(gm.cli.common, "CLOCK", fixed)
    return fixed


def seats_of(home, address: str) -> list:
    return rows(
        home,
        "SELECT g.name, s.code FROM seats s JOIN accounts a ON a.id = s.account_id JOIN games g "
        "ON g.id = s.game_id WHERE a.email = ?",
        address,
    )


def test_a_forged_join_seats_nobody_and_its_code_goes_only_to_the_address_it_names(
    home, gm, auto_game, clock, monkeypatch
):
    forged = mail(
        "JOIN c2\nNAME Victim",
        sender="Vic <victim@example.org>",
        message_id="<f1@evil.example>",
        Reply_To="mallory@evil.example",
    )
    assert receive(gm, monkeypatch, forged, home).code == 0
    assert seats_of(home, "victim@example.org") == []  # on main: seated at once, then charged
    assert {to for kind, to, subject, body in outbox_bodies(home)} == {"victim@example.org"}
    code = confirmation_code(home, "victim@example.org")
    # The forger guesses, from the victim's address, and an auto-reply quotes gm's mail: neither counts.
    guess = mail("CONFIRM aaaa-bbbb-cccc-dddd", sender="victim@example.org", message_id="<f2@evil.example>")
    assert "refused" in receive(gm, monkeypatch, guess, home).out
    quoted = mail(f"I am away.\n\n> CONFIRM {code}\n", sender="victim@example.org", message_id="<away@example.org>")
    assert "question" in receive(gm, monkeypatch, quoted, home).out
    # The code lapses after CONFIRM_HOURS; then even the right one counts no more.
    clock.when += timedelta(hours=CONFIRM_HOURS, minutes=1)
    assert "; unconfirmed, lapsed 2026-11-25T10:00:00Z)" in gm("game", "waiting", "c2", home=home).out
    late = mail(f"CONFIRM {code}", sender="victim@example.org", message_id="<late@example.org>")
    assert "refused" in receive(gm, monkeypatch, late, home).out
    assert "it may have lapsed (48 hours after the sign-up)" in outbox_bodies(home)[-1][3]
    assert seats_of(home, "victim@example.org") == []
    books = "SELECT l.kind FROM ledger l JOIN accounts a ON a.id = l.account_id WHERE a.email = 'victim@example.org'"
    assert rows(home, books) == [("payment",)]  # what the victim bought, and nothing since


def test_a_flood_of_joins_fills_no_seat_the_gm_clears_it_at_once_and_the_player_then_joins(
    home, gm, auto_game, clock, monkeypatch, tmp_path
):
    flood = [mail("JOIN c2", sender=f"bot{n}@spam.example", message_id=f"<j{n}@spam.example>") for n in range(300)]
    assert gm("inbox", "import", maildir(tmp_path, "flood", *flood), home=home).code == 0
    assert rows(home, "SELECT count(*) FROM seats") == [(0,)]  # on main: the game was full after four
    assert rows(home, "SELECT status FROM games WHERE name = 'c2'") == [("open",)]
    # Anyone can write any From: the house mails codes to at most [mail] stranger_replies_per_hour
    # of the addresses (60), not to 300 (on main: one to each, a reflector).
    assert rows(home, "SELECT count(*) FROM outbox") == [(STRANGERS_AN_HOUR,)]
    # A real player's JOIN in the flood's hour is listed, and not answered: gm cannot tell her from a bot.
    join = mail("JOIN c2\nSEATS FR", sender="Ann <ann@example.org>", message_id="<ann-join@example.org>")
    assert (
        f"answer: none: {STRANGERS_AN_HOUR} answers to addresses that hold no seat"
        in receive(gm, monkeypatch, join, home).out
    )
    listed = gm("game", "waiting", "c2", home=home).out.splitlines()
    assert len(listed) == 301 and all("; unconfirmed, lapses" in line for line in listed)
    # One command clears the flood, says so in the audit log, and cancels its codes still unsent.
    cleared = gm("game", "waiting", "c2", "--clear", "--unconfirmed", "--from", "*@SPAM.example", home=home)
    assert cleared.out == "300 taken off the waiting lists of c2 (see gm audit c2).\n"
    assert rows(home, "SELECT status, count(*) FROM outbox GROUP BY status") == [("cancelled", STRANGERS_AN_HOUR)]
    audit = json.loads(gm("audit", "c2", "--json", home=home).out)
    [entry] = [e for e in audit if e["action"] == "waiting cleared"]
    assert len(entry["detail"]["emails"]) == 300 and entry["detail"]["from"] == "*@spam.example"
    # Then she JOINs again, gets her code at her address, CONFIRMs with it: seated at once.
    again = mail("JOIN c2\nSEATS FR", sender="Ann <ann@example.org>", message_id="<ann-join-2@example.org>")
    assert receive(gm, monkeypatch, again, home).code == 0
    yes = mail(
        f"CONFIRM {confirmation_code(home, 'ann@example.org')}", sender="ann@example.org", message_id="<ann-c@x>"
    )
    assert receive(gm, monkeypatch, yes, home).code == 0
    assert seats_of(home, "ann@example.org") == [("c2", "FR")]
    assert gm("game", "waiting", "c2", home=home).out == "Nobody waits for c2.\n"


def test_clearing_by_pattern_leaves_the_other_players_waiting(home, gm, auto_game, clock, monkeypatch):
    assert gm("game", "set", "c2", "signups", "gm", home=home).code == 0
    for n, sender in enumerate(["ann@example.org", "bot1@spam.example", "bob@example.org"]):
        assert receive(gm, monkeypatch, mail("JOIN c2", sender=sender, message_id=f"<{n}@x>"), home).code == 0
    yes = mail(f"CONFIRM {confirmation_code(home, 'ann@example.org')}", sender="ann@example.org", message_id="<yes@x>")
    assert receive(gm, monkeypatch, yes, home).code == 0
    assert gm("game", "waiting", "c2", "--unconfirmed", home=home).code == 1  # --unconfirmed says what --clear takes
    cleared = gm("game", "waiting", "c2", "--clear", "--from", "*@spam.example", home=home)
    assert cleared.out == "1 taken off the waiting lists of c2 (see gm audit c2).\n"
    left = [line.split()[1] for line in gm("game", "waiting", "c2", home=home).out.splitlines()]
    assert left == ["ann@example.org", "bob@example.org"]
    assert gm("game", "waiting", "c2", "--clear", "--unconfirmed", home=home).out.startswith("1 taken off")
    assert gm("game", "seat-waiting", "c2", home=home).out == "seated ann@example.org in BR of c2\n"


def test_one_address_has_three_signups_waiting_and_forged_joins_cannot_keep_its_owner_out(
    home, gm, auto_game, clock, monkeypatch
):
    """MOST_UNCONFIRMED: an address has at most 3 sign-ups waiting for their confirmation. Three
    JOINs forged from the victim's address refused her own for 48 hours; now her JOIN makes the
    oldest lapse (its code counts no more), she gets her code, and she is seated by it."""
    for n, target in enumerate(["clash", "conqueror", "empires"]):
        forged = mail(f"JOIN {target}", sender="victim@example.org", message_id=f"<{n}@evil.example>")
        receive(gm, monkeypatch, forged, home)
    first = re.search(r"^  CONFIRM (\S+)$", outbox_bodies(home)[0][3], re.MULTILINE)[1]
    hers = mail("JOIN c2\nNAME Vic", sender="victim@example.org", message_id="<hers@example.org>")
    assert receive(gm, monkeypatch, hers, home).code == 0
    assert outbox_bodies(home)[-1][2] == "Confirm your sign-up for game c2"
    unconfirmed = "SELECT count(*) FROM waiting WHERE confirm_by > '2026-11-23T10:00:00Z'"
    assert rows(home, "SELECT count(*) FROM waiting") == [(4,)] and rows(home, unconfirmed) == [(3,)]
    yes = mail(f"CONFIRM {confirmation_code(home, 'victim@example.org')}", sender="victim@example.org")
    assert receive(gm, monkeypatch, yes, home).code == 0
    assert seats_of(home, "victim@example.org") == [("c2", "BR")]
    # The sign-up that lapsed for hers: its code counts no more, and the GM's audit says why.
    late = mail(f"CONFIRM {first}", sender="victim@example.org", message_id="<late@example.org>")
    assert "refused" in receive(gm, monkeypatch, late, home).out
    audit = json.loads(gm("audit", "--json", home=home).out)
    [lapsed] = [e for e in audit if e["action"] == "waiting list" and "lapsed" in e["detail"]]
    assert lapsed["detail"]["why"] == (
        "a newer sign-up came from victim@example.org, which may have 3 waiting for their confirmation"
    )


def test_forged_mail_cannot_spend_a_players_hourly_answers_nor_the_strangers_hour(home, gm, game, tmp_path):
    """Anyone can write Ann's address in a From: questions forged from it used to spend her
    [mail] replies_per_hour, and her own turn file then got no acknowledgement for an hour; a
    flood of strangers spent the hour's answers to strangers, and her turn file from another
    address got none. An answer to a mail that proved a seat's secret counts only against the
    answers to such mails, and never against the strangers' hour."""
    set_mail_address(home)
    configure(home, {"mail.replies_per_hour": 3, "mail.stranger_replies_per_hour": 2})
    forged = [
        mail("Is this the game master?", sender="Ann <ann@example.org>", message_id=f"<f{n}@evil.example>")
        for n in range(5)
    ]
    flood = [mail("pills", sender=f"s{n}@spam.example", message_id=f"<s{n}@spam.example>") for n in range(4)]
    ran = gm("inbox", "import", maildir(tmp_path, "forged", *forged, *flood), home=home)
    assert ran.code == 0, ran.err
    assert ran.out.count("answer: none: 3 answers to ann@example.org in the last hour already") == 2
    assert len(answers_to(home, "ann@example.org")) == 3
    assert len([to for (to,) in rows(home, "SELECT recipient FROM outbox") if to.endswith("@spam.example")]) == 2
    hers = mail(turn_file(game["BR"]), message_id="<ann-orders@example.org>")
    away = mail(turn_file(game["BR"], "CLAIM ENG"), sender="Ann <ann@work.example>", message_id="<ann-work@x>")
    ran = gm("inbox", "import", maildir(tmp_path, "hers", hers, away), home=home)
    assert ran.code == 0, ran.err
    assert "answer: none" not in ran.out
    assert len([b for b in answers_to(home, "ann@example.org") if "ACCEPTED" in b]) == 1
    [work] = answers_to(home, "ann@work.example")
    assert "ACCEPTED" in work
    # Answers to mails with a secret at addresses gm does not know have an hour of their own, so a
    # player's Reply-Tos cannot make gm a reflector.
    elsewhere = [
        mail(turn_file(game["BR"]), message_id=f"<ann-r{n}@x>", reply_to=f"r{n}@victims.example") for n in range(2)
    ]
    ran = gm("inbox", "import", maildir(tmp_path, "elsewhere", *elsewhere), home=home)
    assert ran.out.count("answer: none: 2 answers to mails with a seat's secret to addresses that hold no seat") == 1
    # Her own answers still have their hour: a robot resending its turn file is not answered for ever.
    again = [mail(turn_file(game["BR"]), message_id=f"<ann-again{n}@example.org>") for n in range(3)]
    ran = gm("inbox", "import", maildir(tmp_path, "again", *again), home=home)
    assert ran.out.count("answer: none: 3 answers to mails with a seat's secret to ann@example.org") == 1
    # And a question of hers, unproved, still counts everything sent to her address.
    ran = gm("inbox", "import", maildir(tmp_path, "ask", mail("When?", message_id="<ann-q@example.org>")), home=home)
    assert "answer: none: 6 answers to ann@example.org in the last hour already" in ran.out


def test_wrong_secrets_forged_from_a_players_address_do_not_hold_her_own_turn_file(
    home, gm, game, scrypts, tmp_path, monkeypatch
):
    """Ten wrong secrets forged from Ann's registered address used up the address's guesses, and
    sent again every five minutes they refused her own turn files by mail for good, unchecked.
    Past the limit a mail from the seat's own address still has its first claim to the seat
    checked (one scrypt a mail), so her right secret counts; the rest of such a mail is not."""
    forged = hostile_mail(10, "Ann <ann@example.org>", "<forged1@evil.example>", seats=("BR",))
    assert receive(gm, monkeypatch, forged, home).code == 0
    assert len(scrypts.take()) == 10
    again = hostile_mail(10, "Ann <ann@example.org>", "<forged2@evil.example>", seats=("BR",))
    assert receive(gm, monkeypatch, again, home).code == 0
    assert len(scrypts.take()) == 1  # one guess a mail past the limit, not ten
    said = answers_to(home, "ann@example.org")[-1]
    assert said.count("REFUSED: too many wrong secrets from ann@example.org lately") == 9
    mine = mail(turn_file(game["BR"]), sender="Ann <ann@example.org>", message_id="<ann-real@example.org>")
    ran = receive(gm, monkeypatch, mine, home)
    assert "accepted 1 order for BR in g1" in ran.out
    assert scrypts.take() == [False]  # hers: one scrypt, the right secret


def test_a_payment_mail_forged_from_the_bookkeeper_or_the_house_books_nothing(home, gm, game, tmp_path):
    """Payments are booked by the GM alone (gm credits buy --ref). A mail saying one was made,
    from the bookkeeper's address, is a question for the GM; one dressed as a turn file and
    forged from the house's own address is refused and not answered. Neither moves a credit."""
    set_mail_address(home)
    books = rows(home, "SELECT * FROM ledger")
    paid = "PAID ann@example.org 500 CREDITS, ref PAYID-1234"
    dressed = "GAME g1\nPLAYER BR\nCREDITS 500\nEND\n"
    box = maildir(
        tmp_path,
        "paid",
        mail(paid, sender="Books <bookkeeper@example.org>", subject="payment", message_id="<p1@example.org>"),
        mail(dressed, sender="Game Master <gm@example.org>", subject="payment", message_id="<p2@example.org>"),
    )
    ran = gm("inbox", "import", box, home=home)
    assert ran.code == 0, ran.err
    assert ran.out.endswith("Taken: 1 question, 1 refused\n")
    assert "the turn file has no PASSWORD line; answer: none: the mail came from gm's own address" in ran.out
    assert rows(home, "SELECT * FROM ledger") == books
    [question] = json.loads(gm("inbox", "questions", "--json", home=home).out)
    assert question["sender"] == "bookkeeper@example.org" and "PAYID-1234" in question["text"]
