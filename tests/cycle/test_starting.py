"""A game that does not fill (issue 28): the GM says how many seats a game has (--seats N) or
starts it with the seats it has (gm game start); the start mail always goes, to players only,
with the board, the order form for turn 1 and the portal's address; turn 1 never runs unseen."""

from __future__ import annotations

import email
import email.policy
import json

from tests.intake.mails import configure, joined, rows, set_mail_address

JOIN = (
    b"From: Ann <ann@example.org>\r\nTo: gm@pbm.example.org\r\nSubject: join\r\nMessage-ID: <j@x>\r\n\r\nJOIN mc-1\r\n"
)


def mails(home) -> list[tuple]:
    """(kind, recipient, subject, body, attachment names) of every mail in the outbox."""
    return [
        (kind, to, subject, body, [a["filename"] for a in json.loads(attached)])
        for kind, to, subject, body, attached in rows(
            home, "SELECT kind, recipient, subject, body, attachments FROM outbox ORDER BY id"
        )
    ]


def test_a_game_of_robots_and_one_player_starts_with_the_seats_it_has(home, gm, monkeypatch):
    """The issue's game: a 16-seat world, two robots, one player by mail. The seat mail promised
    a mail when all 16 were taken; it never came. Now the GM starts it, and it comes."""
    set_mail_address(home)
    configure(home, {"portal.base_url": "https://pbm.example.org"})
    assert gm("game", "new", "mc-1", "--ruleset", "mcempires", "--robots", "2", "--seed", "5", home=home).code == 0
    assert joined(gm, monkeypatch, home, JOIN).code == 0
    assert gm("game", "seat-waiting", "mc-1", home=home).code == 0
    [seated] = [m for m in mails(home) if m[2] == "mc-1: you have seat RE"]
    assert "or when the\ngame master starts it with the players it has" in seated[3]
    ran = gm("game", "start", "mc-1", home=home)
    assert ran.code == 0, ran.err
    assert ran.out.splitlines()[0] == "mc-1 has started with 3 seats: RE, WI, LA (the robot plays WI, LA)"
    [start] = [m for m in mails(home) if m[2] == "mc-1 has started"]
    kind, to, _, body, attached = start
    assert (kind, to) == ("notice", "ann@example.org")  # and none to robot@robots.invalid
    assert attached == ["mc-1-start-RE-world.png", "mc-1-start-RE-region.png", "mc-1-1-RE-orders.txt"]
    assert "The game master has started mc-1 with the 3 seats taken." in body
    assert "On the portal, https://pbm.example.org, you see the board" in body
    assert "GAME mc-1\nPLAYER RE\nPASSWORD <your secret>\nTURN 1\n" in body and "\nCAPITAL " in body
    assert gm("mail", "send", home=home).code == 0
    sent = email.message_from_bytes(
        (home / "outbox" / "mc-1-RE-notice-2.eml").read_bytes(), policy=email.policy.default
    )
    world = next(a for a in sent.iter_attachments() if a.get_filename() == "mc-1-start-RE-world.png")
    assert world.get_content_type() == "image/png" and world.get_content().startswith(b"\x89PNG")
    # Its seats are fixed: nobody joins a game that has started, and a second start says so.
    ran = gm("game", "join", "mc-1", "zed@example.org", "--name", "Zed", home=home)
    assert ran.code == 1 and "has started (turn 1); players can join only before it starts" in ran.err
    assert gm("game", "start", "mc-1", home=home).err == "Error: game 'mc-1' has started already; it has its seats.\n"
    assert json.loads(gm("game", "show", "mc-1", "--json", home=home).out)["status"] == "running"


def test_a_game_of_n_seats_starts_when_they_are_taken(home, gm, monkeypatch):
    set_mail_address(home)
    ran = gm("game", "new", "mc-1", "--ruleset", "mcempires", "--robots", "2", "--seats", "17", home=home)
    assert (ran.code, ran.err) == (
        1,
        "Error: --seats 17: scenario frontier of mcempires is played by 2 to 16 seats; give a number from 2 to 16.\n",
    )
    ran = gm("game", "new", "mc-1", "--ruleset", "mcempires", "--robots", "2", "--seats", "3", home=home)
    assert ran.code == 0 and "Robots play BL, YE.\nSeats: RE, BL, YE.\n" in ran.out
    assert joined(gm, monkeypatch, home, JOIN).code == 0
    ran = gm("game", "seat-waiting", "mc-1", home=home)
    assert ran.out.splitlines()[:2] == [
        "seated ann@example.org in RE of mc-1",
        "mc-1 has started with 3 seats: RE, BL, YE (the robot plays BL, YE)",
    ]
    assert [m[1] for m in mails(home) if m[2] == "mc-1 has started"] == ["ann@example.org"]
    assert "Every seat of mc-1 is taken, so the game has started." in mails(home)[-1][3]


def test_the_gm_may_let_the_robot_play_the_seats_nobody_took(home, gm):
    assert gm("game", "new", "c1", "--ruleset", "clash", "--seed", "1", home=home).code == 0
    assert gm("game", "start", "c1", home=home).err.startswith(
        "Error: game 'c1' has 0 seat(s) taken; clash needs at least 2 to start."
    )
    assert gm("game", "join", "c1", "ann@example.org", "--name", "Ann", home=home).code == 0
    ran = gm("game", "start", "c1", "--robots", home=home)
    assert ran.out.splitlines()[0] == "c1 has started with 4 seats: BR, RU, FR, GE (the robot plays RU, FR, GE)"


def test_turn_one_never_runs_before_its_players_hear_the_game_started(home, gm):
    """A GM who runs turn 1 of a game nobody started starts it: the players get the start mail
    (turn 1 runs now) before their first report, the robots nothing."""
    set_mail_address(home)
    assert gm("game", "new", "c1", "--ruleset", "clash", "--robots", "2", "--seed", "1", home=home).code == 0
    assert gm("game", "join", "c1", "ann@example.org", "--name", "Ann", home=home).code == 0
    assert gm("credits", "buy", "ann@example.org", "5", "--paid", "12.50", home=home).code == 0
    ran = gm("turn", "run", "c1", "--now", home=home)
    assert ran.code == 0, ran.err
    assert "c1: started with 3 seats (BR, FR, GE) before turn 1; 1 start mail(s) queued\n" in ran.out
    sent = [(m[0], m[1], m[2]) for m in mails(home)]
    assert sent == [
        ("notice", "ann@example.org", "c1 has started"),
        ("report", "ann@example.org", "c1: Set-up: claiming territories (turn 1)"),
    ]
    assert "The game master runs turn 1 now: your first report follows" in mails(home)[0][3]
    assert all("robots.invalid" not in m[1] for m in mails(home))
