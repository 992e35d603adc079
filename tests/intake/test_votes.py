"""Draws and concessions by secret ballot in turn files sent by mail (gm/core/agreement.py,
rule H-2): the acknowledgement says the sender's own vote only, the game ends when every seat
still playing agrees, with standings and prizes as for any ending, and no report of another
seat tells how anyone voted (D-ALL-5)."""

from __future__ import annotations

import json
import sqlite3

from tests.intake.mails import mail, outbox_bodies, receive, rows, turn_file

PLAYERS = {"BR": "ann", "RU": "bob", "FR": "cy", "GE": "di"}


def send(gm, monkeypatch, home, secrets, seat: str, body: str, n: int) -> str:
    """A seat's turn file by mail from its player; the body of gm's answer."""
    raw = mail(
        turn_file(secrets[seat], body, seat=seat),
        sender=f"{PLAYERS[seat]}@example.org",
        message_id=f"<vote{n}-{seat}@example.org>",
    )
    ran = receive(gm, monkeypatch, raw, home)
    assert ran.code == 0, ran.err
    kind, to, subject, answer = outbox_bodies(home)[-1]
    assert to == f"{PLAYERS[seat]}@example.org"
    return answer


def test_every_seat_votes_draw_and_the_game_ends_drawn(home, gm, mail_home, monkeypatch):
    assert gm("game", "set", "g1", "draw", "all", home=home).code == 0
    answers = {
        seat: send(gm, monkeypatch, home, mail_home, seat, "CLAIM ENG SCO WAL\nDRAW", n)
        for n, seat in enumerate(PLAYERS)
    }
    assert "ACCEPTED: 1 order for BR in g1, turn 1." in answers["BR"]
    assert "Your vote this turn: a draw. Votes are secret: no other seat is told how you voted" in answers["BR"]
    # Each answer names one vote, the sender's own: the last seat in learns nothing of the others'.
    assert all(answer.count("Your vote") == 1 and "a draw" in answer for answer in answers.values())
    ran = gm("turn", "run", "g1", "--no-render", home=home)
    assert ran.code == 0 and "g1 is over" in ran.out, ran.out
    shown = gm("game", "show", "g1", home=home).out
    assert "Over: BR, FR, GE, RU won (a draw agreed by every seat still playing (BR, FR, GE, RU))." in shown
    # Prizes as for any ending: each seat of the draw earned the win's bonus turns (3, rule H-1).
    assert (
        rows(home, "SELECT kind, discount FROM ledger WHERE discount != 0 ORDER BY id") == [("discount award", 3)] * 4
    )
    assert gm("turn", "verify", "g1", home=home).out == "g1: 1 turn(s) verified, every state hash matches.\n"


def test_a_draw_short_of_one_vote_goes_on_and_each_report_tells_only_its_own_vote(home, gm, mail_home, monkeypatch):
    assert gm("game", "set", "g1", "draw", "all", home=home).code == 0
    for n, seat in enumerate(["BR", "RU", "FR"]):
        send(gm, monkeypatch, home, mail_home, seat, "CLAIM ENG SCO WAL\nDRAW", n)
    send(gm, monkeypatch, home, mail_home, "GE", "CLAIM ENG SCO WAL", 9)
    ran = gm("turn", "run", "g1", home=home)
    assert ran.code == 0 and "g1 is over" not in ran.out, ran.out
    read = {seat: json.loads((home / "reports" / "g1" / "1" / f"{seat}.json").read_text()) for seat in PLAYERS}
    # Every report carries the game's rules for votes (for the player's offline check), the same
    # in each: nothing in it says who voted.
    ballots = [report.pop("votes") for report in read.values()]
    assert ballots == [{"draw": "all", "concede": "off", "seats": list(PLAYERS), "out": []}] * 4
    reports = {seat: json.dumps(report) for seat, report in read.items()}
    assert "Your vote in turn 1: a draw. It was not agreed, so the game goes on" in reports["BR"]
    # GE voted nothing and reads nothing of the others' votes; no report names another's vote.
    assert "vote" not in reports["GE"].lower()
    assert all(text.lower().count("vote in turn") <= 1 for text in reports.values())


def test_a_vote_the_game_does_not_take_is_refused_at_its_line_and_changes_nothing(home, gm, mail_home, monkeypatch):
    answer = send(gm, monkeypatch, home, mail_home, "BR", "CLAIM ENG SCO WAL\nDRAW", 1)
    assert "NOT USED: your turn file for BR in g1, turn 1, has 1 problem" in answer
    assert "game 'g1' takes no votes for draws: its GM has not allowed them" in answer
    assert rows(home, "SELECT current, vote FROM submissions") == [(0, None)]
    answer = send(gm, monkeypatch, home, mail_home, "BR", "CLAIM ENG SCO WAL\nDRAW BR FR", 2)
    assert "REFUSED: line 5: DRAW takes nothing after it: a draw is shared by every seat still in the game." in answer
    assert rows(home, "SELECT count(*) FROM submissions") == [(1,)]


def test_every_other_seat_concedes_and_the_named_seat_wins(home, gm, mail_home, monkeypatch):
    assert gm("game", "set", "g1", "concede", "all", home=home).code == 0
    answer = send(gm, monkeypatch, home, mail_home, "BR", "CLAIM ENG SCO WAL\nCONCEDE BR", 1)
    assert "CONCEDE names your own seat: concede the game to another seat" in answer
    answer = send(gm, monkeypatch, home, mail_home, "BR", "CLAIM ENG SCO WAL\nCONCEDE XX", 2)
    assert "CONCEDE: 'g1' has no seat 'XX' (its seats: BR, RU, FR, GE)" in answer
    for n, seat in enumerate(["RU", "FR", "GE"]):
        answer = send(gm, monkeypatch, home, mail_home, seat, "CLAIM ENG SCO WAL\nconcede br", n + 3)
        assert "Your vote this turn: conceding the game to BR." in answer
    ran = gm("turn", "run", "g1", "--no-render", home=home)
    assert ran.code == 0 and "g1 is over" in ran.out
    assert (
        "Over: BR won (every other seat still playing conceded the game to BR)."
        in gm("game", "show", "g1", home=home).out
    )


def test_a_later_turn_file_with_no_draw_withdraws_the_vote(home, gm, mail_home, monkeypatch):
    assert gm("game", "set", "g1", "draw", "all", home=home).code == 0
    for n, seat in enumerate(PLAYERS):
        send(gm, monkeypatch, home, mail_home, seat, "CLAIM ENG SCO WAL\nDRAW", n)
    answer = send(gm, monkeypatch, home, mail_home, "GE", "CLAIM ENG SCO WAL\nNO DRAW", 8)
    assert "Your vote this turn: none." in answer
    ran = gm("turn", "run", "g1", "--no-render", home=home)
    assert ran.code == 0 and "g1 is over" not in ran.out


def test_verify_counts_the_votes_again(home, gm, mail_home, monkeypatch):
    assert gm("game", "set", "g1", "draw", "all", home=home).code == 0
    for n, seat in enumerate(PLAYERS):
        send(gm, monkeypatch, home, mail_home, seat, "CLAIM ENG SCO WAL\nDRAW", n)
    assert gm("turn", "run", "g1", "--no-render", home=home).code == 0
    conn = sqlite3.connect(home / "gm.db")
    orders = json.loads(conn.execute("SELECT orders FROM turns WHERE number = 1").fetchone()[0])
    del orders["GE"]["vote"]  # a vote taken out afterwards: the stored draw no longer follows from the orders
    with conn:
        conn.execute("UPDATE turns SET orders = ? WHERE number = 1", [json.dumps(orders)])
    ran = gm("turn", "verify", "g1", home=home)
    assert ran.code == 1 and "turn 1: re-resolved state hash" in ran.err


def test_the_gms_correction_of_a_turn_carries_the_seats_vote(home, gm, mail_home, monkeypatch, tmp_path):
    assert gm("game", "set", "g1", "draw", "all", home=home).code == 0
    for n, seat in enumerate(["BR", "RU", "FR"]):
        send(gm, monkeypatch, home, mail_home, seat, "CLAIM ENG SCO WAL\nDRAW", n)
    assert "g1 is over" not in gm("turn", "run", "g1", "--no-render", home=home).out
    # GE's player phoned in a draw the GM forgot to type: the turn is run again with it.
    fix = tmp_path / "ge.txt"
    fix.write_text("GAME g1\nPLAYER GE\nTURN 1\nCLAIM ENG SCO WAL\nDRAW\nEND\n")
    ran = gm("turn", "rerun", "g1", "1", "--orders", fix, "--reason", "GE's vote", "--yes", "--no-render", home=home)
    assert ran.code == 0 and "g1 is over" in ran.out, ran.err
    assert gm("turn", "verify", "g1", home=home).code == 0
    fix.write_text("GAME g1\nPLAYER GE\nTURN 1\nCLAIM ENG SCO WAL\nCONCEDE BR\nEND\n")
    ran = gm("turn", "rerun", "g1", "1", "--orders", fix, "--reason", "no", "--yes", "--no-render", home=home)
    assert ran.code == 1 and "game 'g1' takes no votes for concessions" in ran.err
