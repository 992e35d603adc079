"""Observers (gm game observe GAME EMAIL, --stop): each published turn mails them its public
pages, the scores and what every seat saw, and nothing of any seat's own report."""

from __future__ import annotations

import email
import email.policy
import subprocess

from tests.intake.mails import rows, set_mail_address, turn_file


def observer_mails(home) -> list:
    return rows(home, "SELECT recipient, turn, subject, body, attachments FROM outbox WHERE kind = 'observer'")


def pdf_text(path) -> str:
    return subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout


def test_an_observer_gets_the_public_pages_of_each_turn_and_nothing_of_a_seat(gm, home, game, tmp_path):
    set_mail_address(home)
    ran = gm("game", "observe", "g1", "Olga.Observer@example.org", home=home)
    assert ran.code == 0 and ran.out.startswith("Olga.Observer@example.org observes g1: the public pages")
    orders = tmp_path / "br.txt"
    orders.write_text(turn_file(game["BR"], "CLAIM ENG SCO WAL\nPRESS TO FR\nmeet me in Paris\nENDPRESS"))
    assert gm("submit", orders, home=home).code == 0
    ran = gm("turn", "run", "g1", home=home)
    assert ran.code == 0 and "Mail: 1 mail(s) of the turn's public pages queued to its observers." in ran.out, ran.out
    [(to, turn, subject, body, attachments)] = observer_mails(home)
    assert (to, turn, subject) == ("Olga.Observer@example.org", 1, "g1: turn 1, the public pages (you observe)")
    assert "You receive nothing of any seat's own report" in body
    public = pdf_text(home / "reports" / "g1" / "1" / "public.pdf")
    seat = pdf_text(home / "reports" / "g1" / "1" / "BR.pdf")
    assert (
        "Victory points" in public and "Britain" in public and "Ann" in public
    )  # the scores, as every seat reads them
    # Nothing of a seat's own: no order form, no secret, no press, no seat's own events.
    assert "PASSWORD" in seat and "PASSWORD" not in public
    assert "meet me in Paris" not in public and not any(secret in public for secret in game.values())
    assert "Your territories" in seat and "Your" not in public.replace("Your vote", "")
    # The mail goes out with the PDF as rendered.
    assert gm("mail", "send", home=home).code == 0
    sent = [
        email.message_from_bytes(p.read_bytes(), policy=email.policy.default) for p in (home / "outbox").glob("*.eml")
    ]
    [mail] = [m for m in sent if m["To"] == "Olga.Observer@example.org"]
    [attached] = list(mail.iter_attachments())
    assert attached.get_filename() == "g1-1-public.pdf"
    assert attached.get_content() == (home / "reports" / "g1" / "1" / "public.pdf").read_bytes()
    # Stopped, the observer gets no more; the next turn renders no public pages.
    ran = gm("game", "observe", "g1", "olga.observer@example.org", "--stop", home=home)
    assert (ran.code, ran.out) == (0, "olga.observer@example.org observes g1 no more.\n")
    assert gm("turn", "run", "g1", "--now", home=home).code == 0
    assert len(observer_mails(home)) == 1 and not (home / "reports" / "g1" / "2" / "public.pdf").exists()
    audit = gm("audit", "g1", home=home).out
    assert "observer added" in audit and "observer stopped" in audit


def test_observe_refuses_what_it_cannot_do_and_changes_nothing(gm, home, game):
    assert gm("game", "observe", "g1", "olga@example.org", home=home).code == 0
    ran = gm("game", "observe", "g1", "OLGA@example.org", home=home)
    assert (ran.code, ran.err) == (
        1,
        "Error: OLGA@example.org observes 'g1' already. To stop: gm game observe g1 OLGA@example.org --stop.\n",
    )
    ran = gm("game", "observe", "g1", "not-an-address", home=home)
    assert (ran.code, ran.err) == (1, "Error: 'not-an-address' is not an e-mail address.\n")
    ran = gm("game", "observe", "g1", "zed@example.org", "--stop", home=home)
    assert (ran.code, ran.err) == (
        1,
        "Error: zed@example.org does not observe 'g1'. Its observers: gm game observe g1.\n",
    )
    assert gm("game", "observe", "g1", home=home).out == "olga@example.org\n"
    ran = gm("game", "observe", "nope", "olga@example.org", home=home)
    assert ran.code == 1 and "nope" in ran.err
