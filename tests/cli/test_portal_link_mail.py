"""gm portal link GAME SEAT --mail: the link is queued to the seat's registered address, and works once."""

from __future__ import annotations

import re
import sqlite3

from gm.home import Home
from gm.web.app import create_app
from tests.intake.mails import outbox_bodies, rows, set_mail_address
from tests.web.conftest import Player

LINK = re.compile(r"^(http://127\.0\.0\.1:8000/link/(\S+))$", re.M)


def counts(home) -> tuple:
    return (rows(home, "SELECT count(*) FROM outbox")[0][0], rows(home, "SELECT count(*) FROM portal_links")[0][0])


def test_mail_queues_the_link_to_the_seats_address_and_it_signs_in_once(home, gm, game):
    set_mail_address(home)
    ran = gm("portal", "link", "g1", "br", "--mail", home=home)
    assert ran.code == 0, ran.err
    assert ran.out.startswith(
        "Queued a one-time sign-in link for BR of g1 to ann@example.org (mail 1); it works once, until "
    )
    assert "gm mail send" in ran.out and "/link/" not in ran.out + ran.err  # the GM's terminal does not show it
    [(kind, recipient, name, subject, body, seat, turn)] = rows(
        home, "SELECT kind, recipient, recipient_name, subject, body, seat, turn FROM outbox"
    )
    assert (kind, recipient, name, seat, turn) == ("link", "ann@example.org", "Ann", "BR", None)
    assert subject == "g1: your one-time sign-in link for BR"
    assert body.startswith("Hello Ann,\n\nHere is a one-time sign-in link for seat BR of g1.\n")
    assert body.endswith("-- \nGame Master\n")
    [(url, token)] = LINK.findall(body)
    player = Player(create_app(Home(home)).test_client())
    assert "You are <strong>BR</strong>" in player.post("/link", {"token": token}).text
    assert Player(create_app(Home(home)).test_client()).post("/link", {"token": token}).status_code == 401


def test_without_mail_prints_as_before_and_queues_nothing(home, gm, game):
    set_mail_address(home)
    ran = gm("portal", "link", "g1", "RU", home=home)
    assert ran.code == 0 and LINK.fullmatch(ran.out.strip())
    assert counts(home) == (0, 1)


def test_minutes_and_base_url_go_into_the_mailed_link(home, gm, game):
    set_mail_address(home)
    ran = gm(
        "portal", "link", "g1", "FR", "--mail", "--minutes", "5", "--base-url", "https://pbm.example.net/gm", home=home
    )
    assert ran.code == 0, ran.err
    [(_, recipient, _, body)] = outbox_bodies(home)
    assert recipient == "cy@example.org"
    assert re.search(r"^https://pbm\.example\.net/gm/link/\S+$", body, re.M)
    [(created, expires)] = rows(home, "SELECT created, expires FROM portal_links")
    assert (int(expires[14:16]) - int(created[14:16])) % 60 == 5


def test_clear_errors_and_nothing_made(home, gm, game):
    ran = gm("portal", "link", "g1", "BR", "--mail", home=home)
    assert ran.code == 1 and ran.err.startswith("Error: gm.toml has no [mail] address, so gm cannot mail the link.")
    assert "Traceback" not in ran.err and len(ran.err.splitlines()) == 1
    set_mail_address(home)
    ran = gm("portal", "link", "g9", "BR", "--mail", home=home)
    assert ran.code == 1 and ran.err.startswith("Error: unknown game 'g9'.")
    ran = gm("portal", "link", "g1", "XX", "--mail", home=home)
    assert (ran.code, ran.err) == (1, "Error: game 'g1' has no seat 'XX'. Its seats: BR, RU, FR, GE.\n")
    conn = sqlite3.connect(home / "gm.db")
    with conn:
        conn.execute("UPDATE accounts SET email = 'robot@bots.invalid' WHERE email = 'bob@example.org'")
    conn.close()
    ran = gm("portal", "link", "g1", "RU", "--mail", home=home)
    assert (ran.code, ran.err) == (
        1,
        "Error: seat RU of 'g1' has no mail address (robot@bots.invalid). Leave out "
        "--mail and give the player the printed link yourself.\n",
    )
    assert counts(home) == (0, 0)


def test_the_gms_own_template_is_used_and_a_broken_one_leaves_no_link(home, gm, game):
    set_mail_address(home)
    mine = home / "templates" / "mail" / "link.txt"
    mine.parent.mkdir(parents=True, exist_ok=True)
    mine.write_text("Subject: [Clash] {{ game }} {{ seat }}\n\nHi {{ player }}: {{ link }} ({{ expires }})\n")
    assert gm("portal", "link", "g1", "GE", "--mail", home=home).code == 0
    [(_, recipient, subject, body)] = outbox_bodies(home)
    assert (recipient, subject) == ("di@example.org", "[Clash] g1 GE")
    assert re.fullmatch(r"Hi Di: http://127\.0\.0\.1:8000/link/\S+ \(\d{4}-\d\d-\d\d \d\d:\d\d UTC\)\n", body)
    mine.write_text("Subject: x\n\n{{ nope.nothing }}\n")
    ran = gm("portal", "link", "g1", "GE", "--mail", home=home)
    assert ran.code == 1 and ran.err.startswith(f"Error: the mail template {mine} does not render: ")
    assert counts(home) == (1, 1)


def test_a_name_with_a_line_break_is_dropped_from_the_header(home, gm, game):
    set_mail_address(home)
    conn = sqlite3.connect(home / "gm.db")
    with conn:
        conn.execute("UPDATE accounts SET name = 'Ann\r\nBcc: evil@example.net' WHERE email = 'ann@example.org'")
    conn.close()
    assert gm("portal", "link", "g1", "BR", "--mail", home=home).code == 0
    [(recipient, name, subject)] = rows(home, "SELECT recipient, recipient_name, subject FROM outbox")
    assert (recipient, name, subject) == ("ann@example.org", "", "g1: your one-time sign-in link for BR")
