"""The acknowledgement: warnings beside the errors, how many seats are in, whether the orders are final."""
from __future__ import annotations

from tests.intake.mails import mail, outbox_bodies, receive, set_mail_address, turn_file


def test_a_slip_is_warned_of_and_a_late_final_is_not_ignored(home, gm, game, monkeypatch):
    set_mail_address(home)
    receive(gm, monkeypatch, mail(turn_file(game["BR"], "CLAIM ENG SCO WLA") + "\nFINAL\n"), home)
    [(_, _, _, body)] = outbox_bodies(home)
    assert body == """Hello Ann,

NOT USED: your turn file for BR in g1, turn 1, has 1 problem(s):

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

--""" + " \nGame Master\n"  # the signature line is "-- " (RFC 3676)


def test_seats_in_and_final(home, gm, game, monkeypatch):
    set_mail_address(home)
    receive(gm, monkeypatch, mail(turn_file(game["FR"], "CLAIM BRI\nFINAL", seat="FR")), home)
    receive(gm, monkeypatch, mail(turn_file(game["BR"]), message_id="<2@x>"), home)
    first, second = (body for *_, body in outbox_bodies(home))
    assert "\n\n1 of 4 seats are in (1 marked FINAL).\nYour orders are marked FINAL: " in first
    assert "\n\n2 of 4 seats are in (1 marked FINAL).\nYour orders are not marked FINAL: send new ones " in second
