"""One line number for one line (issue 30): the same file gives the same line for its problem from
`gm orders check`, in the mail's acknowledgement and on the portal, the line of what the player
sent. The mail counted from the GAME line, the portal from the text after it wrote a PASSWORD
line in."""

from __future__ import annotations

import html
from email import message_from_bytes, policy
from email.message import EmailMessage

from tests.intake.mails import mail, outbox_bodies, receive, set_mail_address


def sent(secret: str | None) -> str:
    """A player's file: a note above GAME, the bad order on line 8 (line 7 with no PASSWORD)."""
    password = f"PASSWORD {secret}\n" if secret else ""
    return f"Hello GM, my orders:\n\nGAME g1\nPLAYER BR\n{password}TURN 1\nCLAIM ENG\nFROBNICATE 3\nEND\n"


def test_gm_orders_check_tells_the_line_of_the_file(gm, home, game, tmp_path):
    path = tmp_path / "br.txt"
    path.write_text(sent(game["BR"]))
    ran = gm("orders", "check", path, home=home)
    assert ran.code == 1 and f"{path}:8: " in ran.out + ran.err


def test_the_acknowledgement_tells_the_line_of_the_mail(gm, home, game, monkeypatch):
    set_mail_address(home)
    receive(gm, monkeypatch, mail(sent(game["BR"])), home)
    body = outbox_bodies(home)[-1][3]
    assert "  line 8: FROBNICATE 3\n" in body


def test_the_acknowledgement_tells_the_line_of_an_attachment(gm, home, game, monkeypatch):
    set_mail_address(home)
    message = message_from_bytes(mail("Orders attached."), EmailMessage, policy=policy.SMTP)
    message.add_attachment(sent(game["BR"]).encode(), maintype="text", subtype="plain", filename="br.txt")
    receive(gm, monkeypatch, message.as_bytes(policy=policy.SMTP), home)
    body = outbox_bodies(home)[-1][3]
    assert "  line 8: FROBNICATE 3\n" in body


def test_the_portal_tells_the_line_of_the_pasted_text(signed_in, game):
    page = signed_in.post("/orders", {"orders": sent(game["BR"]), "action": "check"}).text
    assert '<li value="8" class="problem"><code>FROBNICATE 3</code>' in page and "line 8: " in page


def test_the_portal_tells_the_players_line_when_it_writes_the_secret_in(signed_in):
    """Signed in, the player may leave PASSWORD out; the portal writes it in, and FINAL too."""
    page = signed_in.post("/orders", {"orders": sent(None), "action": "check", "final": "yes"}).text
    assert '<li value="7" class="problem"><code>FROBNICATE 3</code>' in page and "line 7: " in page
    assert "line 8: " not in page


def test_an_unreadable_envelope_is_refused_at_the_players_line_by_every_channel(gm, home, game, monkeypatch, signed_in):
    said = "TURN must be a number, not 'seven'"
    path = home / "br.txt"
    path.write_text(sent(game["BR"]).replace("TURN 1", "TURN seven"))
    ran = gm("orders", "check", path, home=home)
    assert ran.code == 1 and f"line 6: {said}" in ran.out + ran.err
    set_mail_address(home)
    receive(gm, monkeypatch, mail(path.read_text()), home)
    assert f"REFUSED: line 6: {said}." in outbox_bodies(home)[-1][3]
    pasted = sent(None).replace("TURN 1", "TURN seven")  # no PASSWORD line: TURN is line 5
    page = signed_in.post("/orders", {"orders": pasted, "action": "check"}).text
    assert f"line 5: {said}" in html.unescape(page) and "line 6: " not in page
