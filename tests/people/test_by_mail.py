"""ADDRESS and RESIGN by mail, through gm inbox receive: asked with the seat's secret, done only
once confirmed with the code gm mailed (to the new address; to the seat's own for RESIGN); a
wrong secret, a taken address, a wrong or lapsed code: a clear answer and nothing changed."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest

from gm.cli import common
from gm.clock import FixedClock
from gm.services.people import CODE_HOURS, MOST_WRONG_CODES
from tests.cli.test_game import table_dump
from tests.intake.mails import mail, outbox_bodies, receive, rows, set_mail_address

ANN, NEW = "ann@example.org", "ann@new.example"


def request(secret: str, *lines: str, seat: str = "BR") -> str:
    return f"GAME g1\nPLAYER {seat}\nPASSWORD {secret}\n" + "\n".join(lines) + "\nEND\n"


def code_sent_to(home, address: str) -> str:
    bodies = [body for _, to, subject, body in outbox_bodies(home) if to == address and subject.startswith("Confirm:")]
    return re.search(r"^  CONFIRM (\S+)$", bodies[-1], re.MULTILINE)[1]


def answer(home) -> str:
    return " ".join(outbox_bodies(home)[-1][3].split())


def seat_address(home) -> str:
    [(email,)] = rows(home, "SELECT a.email FROM seats s JOIN accounts a ON a.id = s.account_id WHERE s.code = 'BR'")
    return email


@pytest.fixture
def mailed(home, game):
    set_mail_address(home)
    return game


def test_address_by_mail_is_confirmed_from_the_new_address(home, gm, mailed, monkeypatch):
    ran = receive(gm, monkeypatch, mail(request(mailed["BR"], f"ADDRESS {NEW}")), home)
    assert ran.code == 0 and "request for BR in g1" in ran.out
    said = answer(home)
    assert f"Asked: the address {ANN} becomes {NEW}. Nothing has changed yet: gm mailed a code to {NEW}." in said
    assert seat_address(home) == ANN  # not yet
    code = code_sent_to(home, NEW)
    assert code not in said  # the code goes to the new address only
    [(stored,)] = rows(home, "SELECT code_hash FROM person_requests")
    assert code not in stored  # kept as its hash
    # The code from another address (the old one) does nothing.
    receive(gm, monkeypatch, mail(f"CONFIRM {code}", sender=f"Ann <{ANN}>", message_id="<c0@x>"), home)
    assert seat_address(home) == ANN
    ran = receive(gm, monkeypatch, mail(f"CONFIRM {code}", sender=f"Ann <{NEW}>", message_id="<c1@x>"), home)
    assert ran.out.startswith(f"stdin: confirmed: address of {NEW}; answer: outbox ")
    assert ran.out.endswith("Taken: 1 request\n")
    assert f"Done: the address of Ann is {NEW} now, in every game, the books and the portal." in answer(home)
    assert seat_address(home) == NEW
    assert rows(home, "SELECT old_email, new_email, by FROM address_changes") == [(ANN, NEW, "mail")]
    # The old address hears of it: if someone else had the secret, the player learns it there.
    [told] = [body for _, to, subject, body in outbox_bodies(home) if to == ANN and "has changed" in subject]
    assert f"Your address for the game master's mail is {NEW} from now on, no longer {ANN}" in " ".join(told.split())
    # The same code twice does nothing more.
    receive(gm, monkeypatch, mail(f"CONFIRM {code}", sender=f"Ann <{NEW}>", message_id="<c2@x>"), home)
    assert "NOT DONE" in answer(home) and rows(home, "SELECT count(*) FROM address_changes") == [(1,)]


def test_wrong_secret_and_taken_address_change_nothing(home, gm, mailed, monkeypatch):
    receive(gm, monkeypatch, mail(request("wrong-secret", f"ADDRESS {NEW}")), home)
    assert "REFUSED: wrong password for player BR of 'g1'" in answer(home)
    before = [t for t in table_dump(home) if t[0] not in ("outbox", "mail_taken")]
    receive(gm, monkeypatch, mail(request(mailed["BR"], "ADDRESS nonsense"), message_id="<3@x>"), home)
    assert "NOT DONE: ADDRESS nonsense: 'nonsense' is not an e-mail address" in answer(home)
    # The secret from another address: ADDRESS comes from the old address only.
    raw = mail(request(mailed["BR"], f"ADDRESS {NEW}"), sender=f"Ann <{NEW}>", message_id="<4@x>")
    receive(gm, monkeypatch, raw, home)
    assert "NOT DONE: ADDRESS ann@new.example: send ADDRESS from the address gm has for you now" in answer(home)
    assert [t for t in table_dump(home) if t[0] not in ("outbox", "mail_taken")] == before


def test_address_answers_alike_whether_another_player_has_the_address(home, gm, mailed, monkeypatch):
    """ADDRESS bob@... answered 'the address bob@... is another player's': with any seat's secret a
    player could find out who plays in the house (D-ALL-5). Now a player's address and a stranger's
    get the same answer; the code goes there, and only its holder, confirming, is refused."""
    said = []
    for n, new in enumerate(("stranger@elsewhere.example", "bob@example.org")):  # the later one stands
        receive(gm, monkeypatch, mail(request(mailed["BR"], f"ADDRESS {new}"), message_id=f"<{n}@x>"), home)
        said.append(answer(home).replace(new, "NEW"))
    assert said[0] == said[1] and "Nothing has changed yet: gm mailed a code to NEW." in said[0]
    code = code_sent_to(home, "bob@example.org")
    receive(gm, monkeypatch, mail(f"CONFIRM {code}", sender="Bob <bob@example.org>", message_id="<c@x>"), home)
    assert "the address bob@example.org is another player's" in answer(home)
    assert seat_address(home) == ANN and rows(home, "SELECT count(*) FROM address_changes") == [(0,)]


def test_a_lapsed_code_and_too_many_wrong_codes(home, gm, mailed, monkeypatch):
    start = datetime(2030, 1, 7, 12, tzinfo=UTC)
    monkeypatch.setattr(common, "CLOCK", FixedClock(start))
    receive(gm, monkeypatch, mail(request(mailed["BR"], f"ADDRESS {NEW}")), home)
    code = code_sent_to(home, NEW)
    monkeypatch.setattr(common, "CLOCK", FixedClock(start + timedelta(hours=24, minutes=1)))  # CODE_HOURS written out
    receive(gm, monkeypatch, mail(f"CONFIRM {code}", sender=NEW, message_id="<late@x>"), home)
    assert "NOT DONE" in answer(home) and seat_address(home) == ANN
    # Asked by the From address alone (no secret): MOST_WRONG_CODES wrong codes lapse it, the
    # right one then does nothing.
    receive(gm, monkeypatch, mail("EXPORT", sender=f"Ann <{ANN}>", subject="x", message_id="<ex@x>"), home)
    code = code_sent_to(home, ANN)
    for n in range(5):  # MOST_WRONG_CODES written out: a raised limit fails here, a loop on it would not end
        receive(gm, monkeypatch, mail("CONFIRM aaaa-bbbb-cccc-dddd", sender=ANN, message_id=f"<w{n}@x>"), home)
    assert f"that is wrong code number {MOST_WRONG_CODES} from {ANN}" in answer(home)
    receive(gm, monkeypatch, mail(f"CONFIRM {code}", sender=ANN, message_id="<right@x>"), home)
    assert "NOT DONE" in answer(home) and "lapsed after 5 wrong codes" in answer(home)


def test_wrong_codes_forged_from_the_address_do_not_lapse_a_request_asked_with_the_secret(
    home, gm, mailed, monkeypatch
):
    """Anyone can write the address a code went to in a From: five wrong codes forged from it
    lapsed Ann's request, again each time she asked, until her requests for the day were spent.
    A request asked with the seat's secret is not lapsed by wrong codes (its code is some 79
    bits); each wrong code is still answered, and her right code then does what she asked."""
    receive(gm, monkeypatch, mail(request(mailed["BR"], f"ADDRESS {NEW}"), message_id="<asked@x>"), home)
    code = code_sent_to(home, NEW)
    for n in range(5 + 2):  # MOST_WRONG_CODES and two, written out
        forged = mail("CONFIRM aaaa-bbbb-cccc-dddd", sender=f"Ann <{NEW}>", message_id=f"<w{n}@evil>")
        receive(gm, monkeypatch, forged, home)
        assert f"that code is not the one gm sent to {NEW}" in answer(home)
    receive(gm, monkeypatch, mail(f"CONFIRM {code}", sender=NEW, message_id="<right@x>"), home)
    assert f"Done: the address of Ann is {NEW} now" in answer(home) and seat_address(home) == NEW


def test_resign_by_mail_waits_for_its_code_then_is_gm_seat_resign(home, gm, mailed, monkeypatch):
    receive(gm, monkeypatch, mail(request(mailed["BR"], "RESIGN")), home)
    said = answer(home)
    assert f"Asked: Ann resigns seat BR of g1. Nothing has changed yet: gm mailed a code to {ANN}." in said
    assert rows(home, "SELECT status FROM seats WHERE code = 'BR'") == [("active",)]
    code = code_sent_to(home, ANN)
    receive(gm, monkeypatch, mail(f"CONFIRM {code}", sender=ANN, message_id="<c@x>"), home)
    assert "Done: you resigned seat BR of g1." in answer(home)
    assert rows(home, "SELECT status FROM seats WHERE code = 'BR'") == [("resigned",)]
    [(detail,)] = rows(home, "SELECT detail FROM audit WHERE action = 'seat resigned'")
    assert '"forfeit": false' in detail and "resigned by mail" in detail
    # Resigned once: asking again is refused, nothing changes.
    receive(gm, monkeypatch, mail(request(mailed["BR"], "RESIGN"), message_id="<again@x>"), home)
    assert "NOT DONE: RESIGN: seat BR of 'g1' has already resigned" in answer(home)


def test_a_secret_cannot_flood_an_address_with_codes(home, gm, mailed, monkeypatch):
    from gm.services.people import MOST_REQUESTS

    for n in range(5 + 1):  # MOST_REQUESTS written out: a raised limit fails here, a loop on it would not end
        receive(gm, monkeypatch, mail(request(mailed["BR"], f"ADDRESS {NEW}"), message_id=f"<a{n}@x>"), home)
    assert f"Ann has made {MOST_REQUESTS} requests by mail in the last {CODE_HOURS} hours" in answer(home)
    codes = [s for _, to, s, _ in outbox_bodies(home) if to == NEW]
    assert len(codes) == 5


def test_resign_in_a_mail_without_a_turn_file_from_the_registered_address(home, gm, mailed, monkeypatch):
    """RESIGN GAME in a mail's own lines: no secret, so the code goes to the address gm has for
    the seat, and only a CONFIRM from there resigns it."""
    ran = receive(gm, monkeypatch, mail("Hello,\n\nRESIGN g1\n\nAnn", subject="leaving"), home)
    assert "stdin: asked: resign for ann@example.org" in ran.out
    assert f"Asked: Ann resigns seat BR of g1. Nothing has changed yet: gm mailed a code to {ANN}." in answer(home)
    code = code_sent_to(home, ANN)
    receive(gm, monkeypatch, mail(f"CONFIRM {code}", sender=ANN, message_id="<c@x>"), home)
    assert rows(home, "SELECT status FROM seats WHERE code = 'BR'") == [("resigned",)]


def test_a_request_line_from_an_address_gm_does_not_know_changes_nothing(home, gm, mailed, monkeypatch):
    before = [t for t in table_dump(home) if t[0] not in ("outbox", "mail_taken", "person_requests")]
    raw = mail("RESIGN g1", sender="Eve <eve@example.org>", subject="x", message_id="<e@x>")
    assert "request refused" in receive(gm, monkeypatch, raw, home).out
    said = answer(home)
    assert "NOT DONE: RESIGN g1: gm has no player at eve@example.org: write from the address gm has" in said
    assert "gm game show" not in said  # the GM's words are not the player's
    assert outbox_bodies(home)[-1][1] == "eve@example.org"
    raw = mail("RESIGN g1", sender="Bob <bob@example.org>", subject="x", message_id="<b@x>", reply_to=ANN)
    receive(gm, monkeypatch, raw, home)  # Bob has RU, not BR: asking resigns his own seat, never Ann's
    assert "Asked: Bob resigns seat RU of g1." in answer(home) and outbox_bodies(home)[-1][1] == "bob@example.org"
    assert [t for t in table_dump(home) if t[0] not in ("outbox", "mail_taken", "person_requests")] == before
    assert rows(home, "SELECT kind, confirm_from FROM person_requests") == [("resign", "bob@example.org")]


def test_requests_forged_from_a_players_address_cannot_use_up_the_ones_asked_with_the_secret(
    home, gm, mailed, monkeypatch
):
    """EXPORT in a mail's own lines needs only the From address, which anyone can write: five
    such mails forged from Ann's address used up her requests for 24 hours, so her own, asked
    with her seat's secret, was refused. Requests asked with the secret count only each other."""
    from gm.services.people import MOST_REQUESTS

    for n in range(5 + 1):  # MOST_REQUESTS written out
        receive(gm, monkeypatch, mail("EXPORT", sender=f"Ann <{ANN}>", subject="x", message_id=f"<f{n}@evil>"), home)
    assert f"Ann has made {MOST_REQUESTS} requests by mail in the last {CODE_HOURS} hours" in answer(home)
    receive(gm, monkeypatch, mail(request(mailed["BR"], f"ADDRESS {NEW}"), message_id="<mine@x>"), home)
    assert f"Asked: the address {ANN} becomes {NEW}." in answer(home)
    for n in range(5 - 1):
        receive(gm, monkeypatch, mail(request(mailed["BR"], "EXPORT"), message_id=f"<m{n}@x>"), home)
    assert f"Ann has made {MOST_REQUESTS} requests by mail in the last {CODE_HOURS} hours" not in answer(home)
    receive(gm, monkeypatch, mail(request(mailed["BR"], "EXPORT"), message_id="<last@x>"), home)
    assert f"Ann has made {MOST_REQUESTS} requests by mail in the last {CODE_HOURS} hours" in answer(home)
