"""A whole game of the demo's ruleset played by mail: orders in by pipe and Maildir, answers and reports out by SMTP."""

from __future__ import annotations

import mailbox
import random
from email import message_from_bytes, policy
from importlib.resources import files

import pytest

from gm.home import Home
from gm.rulesets import get_ruleset
from gm.services.games import current_state
from gm.store import records
from gm.store.database import open_database
from tests.intake.mails import GM_ADDRESS, configure, mail, receive, rows, set_mail_address

PLAYERS = {"BR": ("Ann", "ann@example.org"), "FR": ("Bob", "bob@example.org")}


def short_channel(tmp_path):
    """The packaged two-seat Channel scenario, cut to 3 rounds so the whole game fits in a test."""
    text = (files("gm_games.clash.scenarios") / "channel.toml").read_text(encoding="utf-8")
    path = tmp_path / "channel3.toml"
    path.write_text(text.replace("rounds = 30", "rounds = 3"), encoding="utf-8")
    return path


def orders_for(home, seat: str, secret: str) -> str:
    """The turn file a player writes: here the robot's choice, written out as a player would."""
    db = open_database(Home(home).database)
    game = records.game_by_name(db, "g1")
    orders = get_ruleset("clash").robot_orders(current_state(db, game), seat, random.Random(f"{seat}{game.turn}"))
    lines = "\n".join(o.text for o in orders) or "PASS"
    return f"GAME g1\nPLAYER {seat}\nPASSWORD {secret}\nTURN {game.turn}\n{lines}\nEND\n"


def mails_to(smtp, address: str) -> list:
    return [
        message_from_bytes(d.content, policy=policy.default) for d in smtp.handler.delivered if d.rcpt_tos == [address]
    ]


@pytest.mark.slow
def test_a_whole_game_by_mail(tmp_path, gm, smtp, monkeypatch):
    home = tmp_path / "home"
    assert gm("init", home=home).code == 0
    set_mail_address(home)
    configure(home, smtp.settings())
    assert gm("game", "new", "g1", "--scenario", short_channel(tmp_path), "--seed", "3", home=home).code == 0
    secrets = {}
    for seat, (name, address) in PLAYERS.items():
        out = gm("game", "join", "g1", address, "--name", name, "--seat", seat, home=home).out
        secrets[seat] = next(entry for entry in out.splitlines() if entry.startswith("Secret for ")).split(": ")[1]
        assert gm("credits", "buy", address, "10", "--paid", "20", home=home).code == 0  # paid-up players
    # Both seats are taken: the game has started, and each player gets the start mail first.
    assert gm("mail", "send", home=home).out == "Sent 2 mail(s) over SMTP; 0 to try again; 0 failed.\n"
    maildir = mailbox.Maildir(tmp_path / "Maildir", create=True)
    turns = 0
    while True:
        turns += 1
        # Ann's mail comes through the mail server's pipe; Bob's lands in a Maildir gm imports.
        ran = receive(gm, monkeypatch, mail(orders_for(home, "BR", secrets["BR"]), message_id=f"<br{turns}@x>"), home)
        assert "accepted" in ran.out, ran.out
        maildir.add(
            mail(orders_for(home, "FR", secrets["FR"]), sender="Bob <bob@example.org>", message_id=f"<fr{turns}@x>")
        )
        assert "Taken: 1 accepted" in gm("inbox", "import", tmp_path / "Maildir", home=home).out
        ran = gm("turn", "run", "g1", home=home)
        assert ran.code == 0 and "no orders from" not in ran.out, ran.out
        assert "Mail: 2 report(s) queued" in ran.out
        assert gm("mail", "send", home=home).out == "Sent 4 mail(s) over SMTP; 0 to try again; 0 failed.\n"
        if "is over" in ran.out:
            break
        assert turns < 10
    for seat, (_, address) in PLAYERS.items():
        received = mails_to(smtp, address)
        answers = [m for m in received if m["Auto-Submitted"] == "auto-replied"]
        [started] = [m for m in received if m["Subject"] == "g1 has started"]
        assert f"GAME g1\nPLAYER {seat}\nPASSWORD <your secret>\nTURN 1\n" in started.get_body(
            ("plain",)
        ).get_content().replace("\r\n", "\n")
        reports = [m for m in received if m["Auto-Submitted"] == "auto-generated" and m is not started]
        assert len(answers) == len(reports) == turns
        assert all(m["In-Reply-To"] == f"<{seat.lower()}{n}@x>" for n, m in enumerate(answers, start=1))
        assert all(str(m["From"]) == f"Game Master <{GM_ADDRESS}>" for m in received)
        for number, report in enumerate(reports, start=1):
            files = {part.get_filename(): part for part in report.iter_attachments()}
            # No turn kit and no order form once it is over: there are no orders to give.
            form = [] if number == turns else [f"g1-{number}-{seat}.html", f"g1-{number + 1}-{seat}-orders.txt"]
            assert list(files) == [f"g1-{number}-{seat}.pdf", *form]
            assert (
                files[f"g1-{number}-{seat}.pdf"].get_content()
                == (home / f"reports/g1/{number}/{seat}.pdf").read_bytes()
            )
            # One thread per game and seat: each report answers the one before.
            assert report["In-Reply-To"] == (reports[number - 2]["Message-ID"] if number > 1 else None)
        assert "is over:" in reports[-1].get_body(("plain",)).get_content()
    assert rows(home, "SELECT count(*) FROM submissions WHERE channel = 'mail' AND verdict = 'accepted'") == [
        (2 * turns,)
    ]
    assert rows(home, "SELECT count(*) FROM outbox WHERE status != 'sent'") == [(0,)]
