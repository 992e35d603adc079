"""FORGET ME and EXPORT by mail, through gm inbox receive and gm mail send: each asked with the
seat's secret and done only once confirmed with the code mailed to the player; an export too
large to attach is refused with words; erasure waits until gm's last mail to them has gone."""

from __future__ import annotations

import dataclasses
import email
import email.policy
import io
import json
import zipfile

from gm.services import person_export
from tests.intake.mails import configure, mail, outbox_bodies, receive, rows, set_mail_address, turn_file
from tests.people.test_by_mail import answer, code_sent_to, request

ANN, ALIAS = "ann@example.org", "player-1@forgotten.invalid"


def confirm(gm, monkeypatch, home, n: str):
    code = code_sent_to(home, ANN)
    return receive(gm, monkeypatch, mail(f"CONFIRM {code}", sender=f"Ann <{ANN}>", message_id=f"<c{n}@x>"), home)


def test_export_by_mail_comes_attached_once_confirmed(home, gm, game, monkeypatch):
    set_mail_address(home)
    orders = mail(turn_file(game["BR"]), message_id="<orders@x>")
    assert "accepted" in receive(gm, monkeypatch, orders, home).out
    receive(gm, monkeypatch, mail(request(game["BR"], "EXPORT"), message_id="<e@x>"), home)
    assert "Asked: gm mails Ann everything it holds of them, as one zip." in answer(home)
    assert not [s for _, _, s, _ in outbox_bodies(home) if s == "Everything gm holds of you"]
    assert "confirmed: export of ann@example.org" in confirm(gm, monkeypatch, home, "1").out
    assert "Done: everything gm holds of you comes as one zip" in answer(home)
    sent = gm("mail", "send", home=home)
    assert sent.code == 0, sent.err
    [eml] = [p for p in (home / "outbox").glob("*.eml") if b"Everything gm holds of you" in p.read_bytes()]
    message = email.message_from_bytes(eml.read_bytes(), policy=email.policy.default)
    assert message["To"].addresses[0].addr_spec == ANN
    [zipped] = [part for part in message.iter_attachments() if part.get_filename() == "gm-export.zip"]
    with zipfile.ZipFile(io.BytesIO(zipped.get_content())) as made:
        mails = [made.read(n) for n in made.namelist() if n.startswith("mails/")]
        assert orders in mails
        assert json.loads(made.read("person.json"))["email"] == ANN


def test_an_export_larger_than_the_house_attaches_is_for_the_gm(home, gm, game, monkeypatch):
    set_mail_address(home)
    configure(home, {"mail.max_attachment_bytes": 100})
    receive(gm, monkeypatch, mail(request(game["BR"], "EXPORT"), message_id="<e@x>"), home)
    confirm(gm, monkeypatch, home, "1")
    said = answer(home)
    assert "more than gm mails (100 bytes at most): ask the game master for it (gm person export)." in said
    assert not (home / "outbox" / "exports").exists()


def test_the_house_mails_an_export_of_five_million_bytes_and_no_more(home, gm, game, monkeypatch):
    """gm.toml as gm init writes it: an export of 5,000,001 bytes is for the GM; one of 5,000,000
    is mailed (the zip padded to those sizes)."""
    set_mail_address(home)
    made = person_export.export
    size = {"bytes": 5_000_001}

    def padded(db, at, address):
        export = made(db, at, address)
        return dataclasses.replace(export, data=export.data + b"\0" * (size["bytes"] - len(export.data)))

    monkeypatch.setattr(person_export, "export", padded)
    receive(gm, monkeypatch, mail(request(game["BR"], "EXPORT"), message_id="<e1@x>"), home)
    confirm(gm, monkeypatch, home, "1")
    assert "Your export is 5,000,001 bytes, more than gm mails (5,000,000 bytes at most)" in answer(home)
    size["bytes"] = 5_000_000
    receive(gm, monkeypatch, mail(request(game["BR"], "EXPORT"), message_id="<e2@x>"), home)
    confirm(gm, monkeypatch, home, "2")
    assert "Done: everything gm holds of you comes as one zip" in answer(home)
    [zipped] = list((home / "outbox" / "exports").iterdir())
    assert zipped.stat().st_size == 5_000_000


def test_forget_me_by_mail_waits_for_its_code_and_its_last_answer(home, gm, game, monkeypatch):
    set_mail_address(home)
    receive(gm, monkeypatch, mail(request(game["BR"], "FORGET ME"), message_id="<f0@x>"), home)
    said = answer(home)
    assert "NOT DONE: FORGET ME: Ann <ann@example.org> still plays BR in g1; send RESIGN g1 first" in said
    assert rows(home, "SELECT count(*) FROM person_requests") == [(0,)]
    assert gm("seat", "resign", "g1", "BR", home=home).code == 0
    receive(gm, monkeypatch, mail(request(game["BR"], "FORGET ME"), message_id="<f1@x>"), home)
    assert "Asked: gm forgets Ann" in answer(home)
    assert "confirmed: forget of ann@example.org" in confirm(gm, monkeypatch, home, "1").out
    assert "This is the last mail gm sends you." in answer(home)
    assert rows(home, "SELECT email FROM accounts WHERE id = 1") == [(ANN,)]  # its answer has not gone yet
    sent = gm("mail", "send", home=home)
    assert sent.code == 0, sent.err
    assert "Forgotten at their request: Forgotten player 1 <player-1@forgotten.invalid>." in sent.out
    assert rows(home, "SELECT email, name FROM accounts WHERE id = 1") == [(ALIAS, "Forgotten player 1")]
    assert rows(home, "SELECT count(*) FROM mail_taken WHERE sender = ?", ANN) == [(0,)]
    assert rows(home, "SELECT DISTINCT sender FROM mail_taken") == [(ALIAS,)]
    assert rows(home, "SELECT outcome FROM person_requests WHERE kind = 'forget'") == [("done",)]
    assert gm("mail", "send", home=home).out.count("Forgotten") == 0  # once
