"""The abuse battery, a whole week of a house with attackers at every door at once (issue 29):
two games of two rulesets, real IMAP (Dovecot), SMTP (aiosmtpd) and `gm serve` on loopback;
players send turns by mail and by upload, the bookkeeper books a statement's payments, players
write press, and the deadline's `gm run-due` publishes. Beside them, all in the same week: a
stranger's flood forged from a player's, the GM's and the bookkeeper's addresses, one player
flooding press and uploads, slow clients holding portal connections, a sign-in link and a turn
file replayed, a malformed line among a statement's good ones.

What is asserted is what the rightful users get and what the house does, in counts: every good
turn accepted and answered once, every seat's report mailed once, the books holding exactly the
good payments and one charge a seat a turn, the attackers refused, and the mail read, the mail
sent and the rows written bounded by what came in."""

from __future__ import annotations

import email
import socket
import sqlite3
from collections import Counter
from datetime import UTC, datetime, timedelta
from email import policy
from pathlib import Path
from urllib.parse import urlencode

import pytest

from gm.cli import common as cli_common
from gm.clock import FixedClock
from gm.services import cycle, games
from gm.store.database import open_database
from tests.intake.conftest import dovecot, imap_user, mail_home  # noqa: F401 - fixtures
from tests.intake.mails import configure, mail, turn_file
from tests.mail.conftest import smtp, smtp_server  # noqa: F401 - fixtures
from tests.web.test_workers import Served, csrf, request

pytestmark = pytest.mark.slow

FORM = "application/x-www-form-urlencoded"
PLAYERS = {"BR": "ann", "RU": "bob", "FR": "cy", "GE": "di"}  # g1, the `game` fixture's clash game
CONQUEROR = {"EN": "ann", "BY": "bob", "RU": "cy", "AS": "di"}  # g2
GM_ADDRESS = "gm@example.org"
BOOKKEEPER = "books@example.org"
FORGED = 40  # mails forged from each of a player's, the GM's and the bookkeeper's addresses
STRANGERS = 60  # mails from as many made-up addresses
SLOW_CLIENTS = 40
PRESS_FLOOD = 70  # press messages in one of Cy's mails: more than the game's press-per-turn (50)
UPLOAD_FLOOD = 25


def rows(home: Path, sql: str, *params) -> list:
    with sqlite3.connect(home / "gm.db") as conn:
        return conn.execute(sql, params).fetchall()


def one(home: Path, sql: str, *params):
    return rows(home, sql, *params)[0][0]


def conqueror_orders(gm, home: Path, seat: str, secret: str) -> str:
    """The seat's prefilled order form (gm orders template), its secret written in."""
    ran = gm("orders", "template", "g2", seat, home=home)
    assert ran.code == 0, ran.err
    return ran.out.replace("<your secret>", secret)


def statement() -> list[tuple[str, ...]]:
    """The bookkeeper's lines from the bank, each typed in as gm credits buy; one is malformed
    (credits in words), one the same payment as an earlier line (its reference in lower case)."""
    return [
        ("ann@example.org", "10", "--paid", "25", "--ref", "PP-1001"),
        ("bob@example.org", "10", "--paid", "25", "--ref", "PP-1002"),
        ("cy@example.org", "ten", "--paid", "25", "--ref", "PP-1003"),  # malformed
        ("cy@example.org", "10", "--paid", "25", "--ref", "PP-1004"),
        ("bob@example.org", "10", "--paid", "25", "--ref", "pp-1002"),  # the same payment again
        ("di@example.org", "10", "--paid", "25,00", "--ref", "PP-1005"),  # a comma: not an amount
    ]


# The bookkeeper's correction of Di's line, typed in after the deadline: her reports wait for it.
DI_PAYS = ("di@example.org", "10", "--paid", "25.00", "--ref", "PP-1005", "--game", "g1")


def forged_flood() -> list[bytes]:
    """Mails nobody in the house wrote: wrong secrets forged from Ann's address, from the GM's,
    a 'payment' forged from the bookkeeper's, and wrong secrets from made-up strangers."""
    flood = []
    for n in range(FORGED):
        flood.append(
            mail(
                turn_file(f"wrong-{n}", "CLAIM ENG", seat="BR"),
                sender="Ann <ann@example.org>",
                message_id=f"<forged-ann-{n}@evil.example>",
            )
        )
        flood.append(
            mail(
                turn_file(f"wrong-{n}", "CLAIM MOS", seat="RU"),
                sender=f"The GM <{GM_ADDRESS}>",
                message_id=f"<forged-gm-{n}@evil.example>",
            )
        )
        flood.append(
            mail(
                f"PAID ann@example.org 500 credits\nPAYMENT bob@example.org 500 --ref EVIL-{n}\n",
                sender=f"Bookkeeper <{BOOKKEEPER}>",
                subject="payments received",
                message_id=f"<forged-books-{n}@evil.example>",
            )
        )
    for n in range(STRANGERS):
        flood.append(
            mail(
                turn_file(f"guess-{n}", "CLAIM ENG", seat=("BR", "RU", "FR", "GE")[n % 4]),
                sender=f"Mallory <m{n}@evil.example>",
                message_id=f"<stranger-{n}@evil.example>",
            )
        )
    return flood


def hold_slow_clients(server: Served) -> list[socket.socket]:
    """Connections that send half a request and then nothing, held open all week."""
    held = []
    for _ in range(SLOW_CLIENTS):
        connection = socket.create_connection(("127.0.0.1", server.port), timeout=5)
        connection.sendall(b"POST /orders HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000\r\n")
        held.append(connection)
    return held


class Browser:
    """One player's browser on the real portal: a session cookie and the page's CSRF token."""

    def __init__(self, server: Served):
        self.connection = server.connect()
        self.cookies: dict[str, str] = {}
        response, page = self.ask("GET", "/")
        self.csrf = csrf(page)

    @property
    def cookie(self) -> str:
        return "; ".join(f"{name}={value}" for name, value in self.cookies.items())

    def ask(self, method: str, path: str, body: bytes = b"", kind: str = ""):
        """A request with every cookie the portal set (the session's and the known browser's)."""
        response, page = request(self.connection, method, path, self.cookie, body, kind)
        for header in response.headers.get_all("Set-Cookie") or []:
            name, value = header.split(";", 1)[0].split("=", 1)
            self.cookies[name] = value
        return response, page

    def post(self, path: str, form: dict) -> tuple[int, str]:
        body = urlencode({"csrf": self.csrf, **form}).encode()
        response, page = self.ask("POST", path, body, FORM)
        if response.status == 303:
            response, page = self.ask("GET", response.headers["Location"])
        if 'name="csrf"' in page:
            self.csrf = csrf(page)
        return response.status, page

    def upload(self, text: str, name: str = "orders.txt") -> tuple[int, str]:
        boundary = "----week"
        parts = [
            f'--{boundary}\r\nContent-Disposition: form-data; name="{key}"\r\n\r\n{value}\r\n'
            for key, value in (("csrf", self.csrf), ("action", "submit"))
        ]
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="turn_file"; filename="{name}"\r\n'
            f"Content-Type: text/plain\r\n\r\n{text}\r\n--{boundary}--\r\n"
        )
        body = "".join(parts).encode()
        response, page = self.ask("POST", "/orders", body, f"multipart/form-data; boundary={boundary}")
        if 'name="csrf"' in page:
            self.csrf = csrf(page)
        return response.status, page


def sign_in(server: Served, game: str, seat: str, secret: str) -> Browser:
    browser = Browser(server)
    status, page = browser.post("/sign-in", {"game": game, "seat": seat, "secret": secret})
    assert status == 200 and f"You are <strong>{seat}</strong>" in page, page[:2000]
    return browser


def delivered(smtp_server) -> list[email.message.EmailMessage]:  # noqa: F811 - the fixture imported above
    return [email.message_from_bytes(d.content, policy=policy.default) for d in smtp_server.handler.delivered]


def test_a_week_with_attackers_at_every_door_gives_the_players_their_turns_once(
    home, gm, game, dovecot, imap_user, smtp, monkeypatch
):
    secrets_g1 = game
    now = datetime.now(UTC).replace(microsecond=0)
    deadline = now + timedelta(hours=2)
    configure(home, smtp.settings())
    configure(home, {"mail.address": GM_ADDRESS})
    db = open_database(home.joinpath("gm.db"))
    clock = FixedClock(now)
    games.create_game(db, clock, "g2", "conqueror", seed=3)
    secrets_g2 = {}
    for seat, name in CONQUEROR.items():
        _, secrets_g2[seat] = games.join_game(db, clock, "g2", f"{name}@example.org", name.title(), seat)
    for name in ("g1", "g2"):
        cycle.set_schedule(db, clock, name, f"daily {deadline:%H:%M} UTC")
    db.conn.close()

    # The bookkeeper types in the bank's statement: the good lines book, the bad ones are refused.
    answers = [gm("credits", "buy", *line, "--game", "g1", home=home) for line in statement()]
    assert [a.code for a in answers] == [0, 0, 2, 0, 1, 1], [a.err for a in answers]
    assert "Error: payment PP-1002 is in the books already: entry 2" in answers[4].err
    assert answers[5].err == "Error: '25,00' is not an amount of money: write it like 25 or 25.50.\n"
    payments = rows(home, "SELECT a.email, l.credits, l.reference FROM ledger l JOIN accounts a ON a.id = l.account_id")
    assert sorted(payments) == [
        ("ann@example.org", 10, "PP-1001"),
        ("bob@example.org", 10, "PP-1002"),
        ("cy@example.org", 10, "PP-1004"),
    ]

    server = Served(home)
    slow = hold_slow_clients(server)
    try:
        # Mail: Ann and Cy send their turns (Cy's holds a press flood), beside the forged flood.
        ann_g1 = mail(
            turn_file(secrets_g1["BR"], "TURN 1\nCLAIM ENG SCO WAL\nPRESS TO FR: Shall we share the channel?"),
            message_id="<ann-g1-turn1@example.org>",
        )
        flood_press = "".join(f"PRESS TO BR: note {n}\n" for n in range(PRESS_FLOOD))
        cy_g1 = mail(
            turn_file(secrets_g1["FR"], "CLAIM PAR\n" + flood_press, seat="FR"),
            sender="Cy <cy@example.org>",
            message_id="<cy-g1-turn1@example.org>",
        )
        ann_g2 = mail(conqueror_orders(gm, home, "EN", secrets_g2["EN"]), message_id="<ann-g2-turn1@example.org>")
        cy_g2 = mail(
            conqueror_orders(gm, home, "RU", secrets_g2["RU"]),
            sender="Cy <cy@example.org>",
            message_id="<cy-g2-turn1@example.org>",
        )
        flood = forged_flood()
        good = [ann_g1, cy_g1, ann_g2, cy_g2]
        # Bob and Di signed in earlier in the week; the flood comes in.
        bob = sign_in(server, "g1", "RU", secrets_g1["RU"])
        di = sign_in(server, "g1", "GE", secrets_g1["GE"])
        dovecot.deliver(imap_user, flood[: len(flood) // 2] + good + flood[len(flood) // 2 :])
        fetched = gm("inbox", "fetch", home=home)
        assert fetched.code == 0, fetched.err

        # The flood's wrong secrets hold up a new browser at Bob's seat (docs/portal.md, "Guessing");
        # a one-time link signs him in from it all the same.
        assert Browser(server).post("/sign-in", {"game": "g1", "seat": "RU", "secret": secrets_g1["RU"]})[0] == 429
        link = gm("portal", "link", "g1", "RU", home=home).out.strip().rsplit("/", 1)[1]
        status, page = Browser(server).post("/link", {"token": link})
        assert status == 200 and "You are <strong>RU</strong>" in page

        # The portal: Bob and Di upload and type in their turns, past the slow clients.
        status, page = bob.upload(turn_file("<your secret>", "CLAIM MOS", seat="RU"))
        assert status == 200 and "<h2>Submitted</h2>" in page, page[:3000]
        status, page = di.post(
            "/orders", {"orders": turn_file("<your secret>", "CLAIM BER", seat="GE"), "action": "submit"}
        )
        assert status == 200 and "<h2>Submitted</h2>" in page
        for seat in ("BY", "AS"):
            browser = sign_in(server, "g2", seat, secrets_g2[seat])
            status, page = browser.upload(conqueror_orders(gm, home, seat, "<your secret>"))
            assert status == 200 and "<h2>Submitted</h2>" in page, page[:3000]
        # Di floods: uploads and press, again and again.
        for n in range(UPLOAD_FLOOD):
            status, _ = di.upload(turn_file("<your secret>", "CLAIM BER", seat="GE"), name=f"again-{n}.txt")
            assert status == 200
        press_status = Counter(di.post("/press", {"to": "BR", "text": f"spam {n}"})[0] for n in range(PRESS_FLOOD))

        # A sign-in link used, then replayed.
        token = gm("portal", "link", "g1", "FR", home=home).out.strip().rsplit("/", 1)[1]
        assert Browser(server).post("/link", {"token": token})[0] == 200
        replayed, page = Browser(server).post("/link", {"token": token})
        assert replayed == 401 and "That link does not work" in page

        sent = gm("mail", "send", home=home)
        assert sent.code == 0, sent.err
    finally:
        for connection in slow:
            connection.close()
        server.stop()

    monkeypatch.setattr(cli_common, "CLOCK", FixedClock(deadline + timedelta(hours=1)))
    ran = gm("run-due", home=home)
    assert ran.code == 0, ran.err
    # Di's reports, unpaid, are held, and she is told why.
    assert rows(home, "SELECT count(*) FROM outbox WHERE recipient = 'di@example.org' AND kind = 'report'") == [(0,)]
    held = rows(home, "SELECT subject FROM outbox WHERE kind = 'notice' AND subject LIKE '%held%' ORDER BY 1")
    assert held == [("g1: turn 1 report held for credits",), ("g2: turn 1 report held for credits",)]
    # Cron's next run-due sends turn 2's reminders, once (the next deadline is a day away); the one
    # after it finds nothing to do.
    mails_after_the_deadline = len(smtp.handler.delivered)
    assert gm("run-due", home=home).code == 0
    reminded = delivered(smtp)[mails_after_the_deadline:]
    assert (
        sorted(m["Subject"] for m in reminded)
        == ["g1: reminder, orders for turn 2 are due"] * 4 + ["g2: reminder, orders for turn 2 are due"] * 4
    )
    assert gm("run-due", home=home).code == 0
    assert len(smtp.handler.delivered) == mails_after_the_deadline + 8
    # The bookkeeper books Di's payment: her two reports go, once, and the books balance.
    paid = gm("credits", "buy", *DI_PAYS, home=home)
    assert paid.out.endswith(
        "Released 2 held report(s): g1 GE (turn 1), g2 AS (turn 1); queued: send them with 'gm mail send'.\n"
    ), (paid.out, paid.err)
    assert gm("mail", "send", home=home).code == 0
    assert gm("run-due", home=home).code == 0
    # Turn 2: Ann's turn-1 mail comes again (a mail server's redelivery: taken once, never twice),
    # and she sends her turn-1 file again in a new mail (refused: turn 1 is over; answered once).
    replayed_file = mail(
        turn_file(secrets_g1["BR"], "TURN 1\nCLAIM ENG SCO WAL"), message_id="<ann-g1-again@example.org>"
    )
    dovecot.deliver(imap_user, [ann_g1, replayed_file])
    replay = gm("inbox", "fetch", "--send", home=home)
    assert replay.code == 0, replay.err
    assert "1 refused" in replay.out and "accepted" not in replay.out.split("Taken:")[-1], replay.out

    # Every mail the SMTP server got is one outbox row, sent once.
    mails = delivered(smtp)
    outbox = {
        m: (kind, to, game_id, seat, turn)
        for m, kind, to, game_id, seat, turn in rows(
            home, "SELECT message_id, kind, recipient, game_id, seat, turn FROM outbox"
        )
    }
    ids = [m["Message-ID"] for m in mails]
    assert len(ids) == len(set(ids)) == len(outbox)
    sent = Counter(outbox[i][:2] for i in ids)

    # The rightful players: every good turn accepted once and answered once; every seat's report once.
    kept = rows(
        home,
        "SELECT g.name, st.code, s.channel FROM submissions s JOIN games g ON g.id = s.game_id "
        "JOIN seats st ON st.id = s.seat_id WHERE s.current = 1 AND s.verdict = 'accepted' ORDER BY 1, 2",
    )
    assert kept == [
        ("g1", "BR", "mail"), ("g1", "FR", "mail"), ("g1", "GE", "web"), ("g1", "RU", "web"),
        ("g2", "AS", "web"), ("g2", "BY", "web"), ("g2", "EN", "mail"), ("g2", "RU", "mail"),
    ]  # fmt: skip
    accepted = [outbox[i] for i in ids if outbox[i][0] == "acknowledgement" and "ACCEPTED" in _body(mails, i)]
    assert sorted((to, game_id) for _, to, game_id, _, _ in accepted) == [
        ("ann@example.org", 1), ("ann@example.org", 2), ("cy@example.org", 1), ("cy@example.org", 2),
    ]  # fmt: skip
    reports = sorted((game_id, seat, turn) for kind, _, game_id, seat, turn in outbox.values() if kind == "report")
    assert reports == [(1, s, 1) for s in sorted(PLAYERS)] + [(2, s, 1) for s in sorted(CONQUEROR)]
    assert sent[("acknowledgement", "cy@example.org")] == 2  # her two turns: nothing forged in her name
    # Ann: her two turns and the replayed file answered, and 20 of the forged mails (an hour's
    # [mail] replies_per_hour to an address: the forger cannot spend the answers to her own).
    assert sent[("acknowledgement", "ann@example.org")] == 3 + 20
    assert sent[("press", "ann@example.org")] == 50 + 50  # Cy's by mail, Di's on the portal: press-per-turn each
    assert press_status == {200: 50, 400: PRESS_FLOOD - 50}

    # The attackers: the GM's own address never answered (no loop), the bookkeeper's and the
    # strangers' share the hour's 60 answers to addresses that hold no seat; nothing booked.
    assert sent[("acknowledgement", GM_ADDRESS)] == 0
    strangers = sum(n for (kind, to), n in sent.items() if kind == "acknowledgement" and to not in _PLAYER_ADDRESSES)
    assert strangers == 60
    assert sent[("acknowledgement", BOOKKEEPER)] == 20  # and no more to one address in an hour

    # The books: exactly the good payments, one charge a seat a turn, nothing for a forged mail.
    books = rows(
        home,
        "SELECT a.email, l.kind, l.credits, l.reference FROM ledger l JOIN accounts a ON a.id = l.account_id ORDER BY l.id",
    )
    assert books == [
        ("ann@example.org", "payment", 10, "PP-1001"),
        ("bob@example.org", "payment", 10, "PP-1002"),
        ("cy@example.org", "payment", 10, "PP-1004"),
        *[(f"{name}@example.org", "turn charge", -1, None) for name in [*PLAYERS.values(), *CONQUEROR.values()]],
        ("di@example.org", "payment", 10, "PP-1005"),
    ]
    proof = gm("ledger", "check", home=home)
    assert (proof.code, proof.out) == (0, "The books balance: 12 entries, 4 accounts.\n")

    # The house's work, in counts: every mail read once, mails sent and rows written bounded by
    # what came in (Di's uploads are hers: one row each, and no mail).
    flood_size = 3 * FORGED + STRANGERS
    assert one(home, "SELECT count(*) FROM mail_taken") == flood_size + 4 + 1
    assert gm("inbox", "fetch", home=home).out == "No new mail.\n"  # and none of it is read again
    # The players' four turns and Ann's old file answered, 20 forged mails answered to Ann, the
    # strangers' 60, press, reports, g2's start mails.
    assert len(mails) == 4 + 1 + 20 + 60 + 101 + 8 + 4 + 2 + 8  # and Di's two held notices, turn 2's reminders
    assert one(home, "SELECT count(*) FROM submissions") == 8 + UPLOAD_FLOOD
    assert one(home, "SELECT count(*) FROM press") == 101


_PLAYER_ADDRESSES = {f"{name}@example.org" for name in PLAYERS.values()}


def _body(mails: list, message_id: str) -> str:
    return next(m for m in mails if m["Message-ID"] == message_id).get_body(("plain",)).get_content()
