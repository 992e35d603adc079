"""A GAME line that names no game: the answer offers the names one slip away, among the games
the sender is seated in only; a stranger, or an answer going to a Reply-To, is offered none."""

from __future__ import annotations

from tests.intake.mails import mail, outbox_bodies, receive, turn_file


def other_game(gm, home) -> None:
    """g2, in which Ann (BR of g1) has no seat."""
    assert gm("game", "new", "g2", "--ruleset", "clash", home=home).code == 0
    assert gm("game", "join", "g2", "zed@example.org", "--name", "Zed", home=home).code == 0


def answered(gm, monkeypatch, home, raw: bytes) -> str:
    ran = receive(gm, monkeypatch, raw, home)
    assert ran.code == 0, ran.err
    return outbox_bodies(home)[-1][3]


def test_a_player_is_offered_their_own_game(home, gm, mail_home, monkeypatch):
    other_game(gm, home)
    body = answered(gm, monkeypatch, home, mail(turn_file(mail_home["BR"], game="G-1")))
    assert "REFUSED: unknown game 'G-1' (check the GAME line; did you mean 'g1'?)." in body


def test_a_player_is_never_offered_a_game_they_have_no_seat_in(home, gm, mail_home, monkeypatch):
    other_game(gm, home)
    body = answered(gm, monkeypatch, home, mail(turn_file(mail_home["BR"], game="G-2")))
    assert "REFUSED: unknown game 'G-2' (check the GAME line)." in body and "g2" not in body


def test_a_stranger_is_offered_no_game(home, gm, mail_home, monkeypatch):
    raw = mail(turn_file("guess", game="G-1"), sender="Eve <eve@example.org>")
    body = answered(gm, monkeypatch, home, raw)
    assert "REFUSED: unknown game 'G-1' (check the GAME line)." in body and "g1" not in body


def test_an_answer_to_a_reply_to_elsewhere_offers_no_game(home, gm, mail_home, monkeypatch):
    # A forged From with the answer sent to the forger: it must not learn Ann's games.
    raw = mail(turn_file("guess", game="G-1"), Reply_To="eve@example.org")
    body = answered(gm, monkeypatch, home, raw)
    assert outbox_bodies(home)[-1][1] == "eve@example.org"
    assert "REFUSED: unknown game 'G-1' (check the GAME line)." in body and "g1" not in body


def test_a_request_line_is_offered_the_players_own_game(home, gm, mail_home, monkeypatch):
    text = f"GAME G-1\nPLAYER BR\nPASSWORD {mail_home['BR']}\nRESEND\nEND\n"
    body = answered(gm, monkeypatch, home, mail(text))
    assert "REFUSED: unknown game 'G-1' (check the GAME line; did you mean 'g1'?)." in body


def test_resign_names_only_the_players_own_games(home, gm, mail_home, monkeypatch):
    other_game(gm, home)
    ran = receive(gm, monkeypatch, mail("RESIGN G2\n"), home)
    assert ran.out.startswith(  # the GM's line: one full stop, not "changed.;"
        "stdin: request refused: NOT DONE: RESIGN G2: ann@example.org has no seat in a game named 'G2'. "
        "Nothing changed; answer: outbox 1\n"
    )
    body = outbox_bodies(home)[-1][3]
    assert "NOT DONE: RESIGN G2: ann@example.org has no seat in a game named 'G2'. Nothing changed." in body
    body = answered(gm, monkeypatch, home, mail("RESIGN G-1\n", message_id="<2@example.org>"))
    assert (
        "NOT DONE: RESIGN G-1: ann@example.org has no seat in a game named 'G-1' (did you mean 'g1'?). "
        "Nothing changed." in body
    )
