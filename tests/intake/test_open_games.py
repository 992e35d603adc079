"""Open games to find: a LIST mail is answered with the games open for sign-up (ruleset, seats
free, schedule, price); a private game, a started one and one of another ruleset stay out."""

from __future__ import annotations

import sqlite3

from gm.services import open_games
from tests.intake.mails import configure, mail, outbox_bodies, receive, rows, set_mail_address


def ask(gm, monkeypatch, home, text: str, n: int = 1) -> str:
    raw = mail(text, sender="Zoe <zoe@example.org>", subject="games?", message_id=f"<list{n}@example.org>")
    ran = receive(gm, monkeypatch, raw, home)
    assert ran.code == 0, ran.err
    kind, to, subject, body = outbox_bodies(home)[-1]
    assert to == "zoe@example.org"
    return body


def new_game(gm, home, name: str, ruleset: str = "clash", *more: str) -> None:
    assert gm("game", "new", name, "--ruleset", ruleset, *more, home=home).code == 0


def test_list_answers_with_the_open_games_and_leaves_out_the_private_and_started(home, gm, game, monkeypatch):
    set_mail_address(home)
    configure(home, {"credits.price": "2.50 EUR a turn"})
    new_game(gm, home, "c2")
    assert gm("game", "schedule", "c2", "weekly on friday 18:00", home=home).code == 0
    assert gm("game", "join", "c2", "amy@example.org", "--name", "Amy", home=home).code == 0
    new_game(gm, home, "secret-club")
    assert gm("game", "set", "secret-club", "private", "yes", home=home).code == 0
    new_game(gm, home, "k1", "conqueror")
    assert rows(home, "SELECT status FROM games WHERE name = 'g1'") == [("running",)]  # started: it takes nobody
    body = ask(gm, monkeypatch, home, "Hello,\nLIST\nthanks")
    assert "OPEN GAMES: 2 game(s) take players now." in body
    assert (
        "  c2: Clash of Empires (clash, scenario europe)\n    seats free: 3 of 4\n    deadlines: weekly on friday 18:00"
        in body
    )
    assert "  k1: Conqueror!" in body
    assert "secret-club" not in body and "g1:" not in body
    assert "Turn credits: 2.50 EUR a turn (each turn played takes one)." in body
    assert "To sign up, send a mail with the line JOIN and the game's name (for example JOIN c2)" in body
    assert rows(home, "SELECT outcome FROM mail_taken") == [("list",)]
    # One ruleset's games only; none open; a ruleset gm does not have.
    assert "OPEN GAMES: 1 game(s) of conqueror take players now." in ask(gm, monkeypatch, home, "LIST conqueror", 2)
    none = ask(gm, monkeypatch, home, "LIST empires", 3)
    assert "OPEN GAMES: no game of empires takes players right now." in none and "JOIN empires" in none
    assert "REFUSED: gm has no ruleset 'chess' to list the games of; rulesets: " in ask(
        gm, monkeypatch, home, "LIST chess", 4
    )
    # A quoted LIST asks nothing: the mail is a question for the GM.
    ask(gm, monkeypatch, home, "Which games?\n> LIST\n", 5)
    assert rows(home, "SELECT outcome FROM mail_taken ORDER BY id")[-1] == ("question",)


def test_the_list_is_cut_at_its_limit_and_the_gm_sees_it_as_strangers_do(home, gm, monkeypatch):
    set_mail_address(home)
    for name in ("a1", "a2", "a3"):
        new_game(gm, home, name)
    new_game(gm, home, "p1")
    assert gm("game", "set", "p1", "private", "yes", home=home).code == 0
    assert gm("game", "list", "--open", home=home).out == (
        "GAME                 RULESET         FREE  DEADLINES\n"
        "a1                   clash         4 of 4  not set yet\n"
        "a2                   clash         4 of 4  not set yet\n"
        "a3                   clash         4 of 4  not set yet\n"
    )
    # The cut at 2 here; the 50 itself: test_a_list_names_fifty_games_and_counts_the_rest.
    monkeypatch.setattr(open_games, "MOST_LISTED", 2)
    body = ask(gm, monkeypatch, home, "LIST")
    assert "OPEN GAMES: 2 of 3 game(s) take players now." in body and "  a3:" not in body
    assert "1 more are not listed here (a mail lists at most 2): LIST RULESET lists one ruleset's." in body
    assert gm("game", "list", "--open", home=home).out.endswith("... and 1 more (at most 2 are listed).\n")


def test_a_list_names_fifty_games_and_counts_the_rest(home, gm, monkeypatch):
    """MOST_LISTED is 50 (docs/mail.md): 60 open games, copied in the database from one made by
    gm game new, are answered with 50 named and 10 counted, and gm game list --open shows 50."""
    set_mail_address(home)
    new_game(gm, home, "o00")
    conn = sqlite3.connect(home / "gm.db")
    columns = [c for (_, c, *_) in conn.execute("PRAGMA table_info(games)") if c not in ("id", "name")]
    for n in range(1, 60):
        conn.execute(
            f"INSERT INTO games (name, {', '.join(columns)}) SELECT ?, {', '.join(columns)} FROM games WHERE name = 'o00'",
            (f"o{n:02}",),
        )
    conn.commit()
    conn.close()
    body = ask(gm, monkeypatch, home, "LIST")
    assert "OPEN GAMES: 50 of 60 game(s) take players now." in body
    assert "  o49: " in body and "  o50: " not in body
    assert "10 more are not listed here (a mail lists at most 50)" in body
    listed = gm("game", "list", "--open", home=home).out.splitlines()
    assert (
        len(listed) == 52 and listed[-2].startswith("o49 ") and listed[-1] == "... and 10 more (at most 50 are listed)."
    )
