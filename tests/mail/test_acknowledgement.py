"""The acknowledgement: warnings beside the errors, how many seats are in, whether the orders are final."""

from __future__ import annotations

import sqlite3

from tests.intake.mails import mail, outbox_bodies, receive, set_mail_address, turn_file


def test_a_slip_is_warned_of_and_a_late_final_is_not_ignored(home, gm, game, monkeypatch):
    set_mail_address(home)
    receive(gm, monkeypatch, mail(turn_file(game["BR"], "CLAIM ENG SCO WLA") + "\nFINAL\n"), home)
    [(_, _, _, body)] = outbox_bodies(home)
    assert (
        body
        == """Hello Ann,

NOT USED: your turn file for BR in g1, turn 1, has 1 problem:

  line 4: CLAIM ENG SCO WLA
    WLA is not a territory on this map

Until gm has valid orders from you, this seat gets the robot's orders.
Fix the lines above and send the whole turn file again.

Warnings (not errors: orders with only warnings count, but check these):
  line 4: CLAIM ENG SCO WLA
    WLA is not a code in this game; did you mean WAL?
  line 7: FINAL
    FINAL after END is ignored, so these orders are not final: put FINAL before END

0 of 4 seats are in.

--"""
        + " \nGame Master\n"
    )  # the signature line is "-- " (RFC 3676)


def test_seats_in_and_final(home, gm, game, monkeypatch):
    set_mail_address(home)
    receive(gm, monkeypatch, mail(turn_file(game["FR"], "CLAIM BRI\nFINAL", seat="FR")), home)
    receive(gm, monkeypatch, mail(turn_file(game["BR"]), message_id="<2@x>"), home)
    first, second = (body for *_, body in outbox_bodies(home))
    assert "\n\n1 of 4 seats are in (1 marked FINAL).\nYour orders are marked FINAL: " in first
    assert "\n\n2 of 4 seats are in (1 marked FINAL).\nYour orders are not marked FINAL: send new ones " in second


def test_the_rulesets_own_warnings_reach_gm_submit_and_the_acknowledgement(home, gm, game, monkeypatch, tmp_path):
    """Clash's units left unplaced (issue 15), through gm itself: gm submit prints the warning,
    the acknowledgement mail lists it beside the orders, and the file counts."""
    set_mail_address(home)
    assert gm("turn", "run", "g1", "--now", home=home).code == 0  # the claims: turn 2 places the units
    form = gm("orders", "template", "g1", "BR", "-o", "-", home=home).out
    core = next(line.split()[1] for line in form.splitlines() if line.startswith("PLACE "))
    said = (
        "you place 1 of your 20 units; the other 19 are spread one at a time over your core territories, in code order"
    )
    orders = tmp_path / "br.txt"
    orders.write_text(turn_file(game["BR"], f"PLACE {core} 1"))
    ran = gm("submit", orders, home=home)
    assert ran.code == 0 and ran.out == f"{orders}: accepted 1 order for BR in g1, turn 2\n"
    assert ran.err == f"{orders}: warning: {said}\n"
    receive(gm, monkeypatch, mail(turn_file(game["BR"], f"PLACE {core} 1"), message_id="<9@x>"), home)
    body = outbox_bodies(home)[-1][3]
    assert "ACCEPTED: 1 order for BR in g1, turn 2" in body
    assert (f"Warnings (not errors: orders with only warnings count, but check these):\n  {said}\n") in body


def test_the_orders_are_echoed_in_the_players_words(home, gm, monkeypatch):
    """Issue 30: Imperials echoed 'SETTLE 36 None'; the echo is the line a player could send again."""
    set_mail_address(home)
    assert gm("game", "new", "g2", "--ruleset", "imperials", "--seed", "7", home=home).code == 0
    ran = gm("game", "join", "g2", "ann@example.org", "--name", "Ann", home=home)
    secret = next(line for line in ran.out.splitlines() if line.startswith("Secret for RED: ")).split(": ")[1]
    for name in ("bob", "cy"):
        assert gm("game", "join", "g2", f"{name}@example.org", "--name", name, home=home).code == 0
    receive(gm, monkeypatch, mail(turn_file(secret, "SETTLE 36\nsettle  041", seat="RED", game="g2")), home)
    body = outbox_bodies(home)[-1][3]
    assert "Your orders as the game understood them:\n  line 4: SETTLE 36\n  line 5: SETTLE 41\n" in body


def test_seats_in_counts_active_seats_only(home, gm, game, monkeypatch):
    """A seat no longer active counts neither among the seats in nor among those there are, nor
    does its FINAL (counted in SQL since the acknowledgement stopped reading every seat's orders)."""
    set_mail_address(home)
    receive(gm, monkeypatch, mail(turn_file(game["FR"], "CLAIM BRI\nFINAL", seat="FR")), home)
    receive(gm, monkeypatch, mail(turn_file(game["GE"], "CLAIM BRI\nFINAL", seat="GE"), message_id="<2@x>"), home)
    db = sqlite3.connect(home / "gm.db")
    with db:
        db.execute("UPDATE seats SET status = 'dropped' WHERE code = 'FR'")
    db.close()
    receive(gm, monkeypatch, mail(turn_file(game["BR"]), message_id="<3@x>"), home)
    *_, last = (body for *_, body in outbox_bodies(home))
    assert "\n\n2 of 3 seats are in (1 marked FINAL).\nYour orders are not marked FINAL: " in last
