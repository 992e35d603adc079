"""gm person export and forget: one zip of everything gm holds of a player; forgetting puts a
pseudonym in their place everywhere and removes their raw mails, while every game still
replays (gm turn verify) and the books balance (gm ledger check)."""

from __future__ import annotations

import io
import json
import sqlite3
import zipfile

import pytest

from gm.store.archive import archived_path, noted_path
from tests.cli.test_game import table_dump
from tests.intake.mails import mail, receive, rows, set_mail_address, turn_file

ANN = "ann@example.org"
ALIAS = "player-1@forgotten.invalid"


@pytest.fixture
def played(home, gm, game, monkeypatch):
    """g1: Ann (BR) changed address once, sent her orders by mail, paid and gave Bob credits;
    turn 1 run and its reports rendered."""
    set_mail_address(home)
    raw = mail(turn_file(game["BR"]), message_id="<orders@x>")
    assert "accepted" in receive(gm, monkeypatch, raw, home).out
    assert gm("person", "address", ANN, "ann@new.example", home=home).code == 0
    assert gm("credits", "buy", "ann@new.example", "4", "--paid", "10", home=home).code == 0
    assert gm("credits", "transfer", "ann@new.example", "bob@example.org", "1", home=home).code == 0
    assert gm("turn", "run", "g1", "--now", home=home).code == 0
    return {"raw": raw, "secrets": game}


@pytest.mark.slow
def test_export_holds_every_mail_order_report_and_ledger_row(home, gm, played, tmp_path):
    out = tmp_path / "ann.zip"
    ran = gm("person", "export", ANN, "--out", out, home=home)  # the old address finds her too
    assert ran.code == 0, ran.err
    assert ran.out == f"Wrote {out}: 1 mail(s), 1 turn file(s), 2 report file(s), 3 ledger row(s).\n"
    with zipfile.ZipFile(out) as made:
        names = made.namelist()
        [eml] = [n for n in names if n.startswith("mails/")]
        assert made.read(eml) == played["raw"]  # the mail as it came, byte for byte
        [turn_text] = [n for n in names if n.startswith("turn-files/")]
        assert turn_text.startswith("turn-files/g1-BR-turn1-") and b"CLAIM ENG SCO WAL" in made.read(turn_text)
        [orders] = json.loads(made.read("orders.json"))
        assert (orders["verdict"], orders["counts"], len(orders["orders"])) == ("accepted", True, 1)
        assert sorted(n for n in names if n.startswith("reports/")) == [
            "reports/g1/turn1-BR.json",
            "reports/g1/turn1-BR.pdf",
        ]
        ledger = made.read("ledger.csv").decode().splitlines()
        assert len(ledger) == 4 and all("ann@new.example" in line for line in ledger[1:])
        about = json.loads(made.read("person.json"))
        assert about["email"] == "ann@new.example" and about["address_changes"][0]["old"] == ANN
        assert about["seats"] == [{"game": "g1", "seat": "BR", "from_turn": 1, "until_turn": None}]
    again = tmp_path / "again.zip"
    assert gm("person", "export", "ann@new.example", "-o", again, home=home).code == 0
    assert again.read_bytes() == out.read_bytes()  # the same holdings make the same bytes


def test_forget_is_refused_while_the_player_plays(home, gm, game):
    before = table_dump(home)
    ran = gm("person", "forget", ANN, home=home)
    assert ran.code == 1
    assert ran.err.startswith("Error: Ann <ann@example.org> still plays BR in g1. Forget a player once")
    assert "gm seat resign g1 BR" in ran.err
    assert table_dump(home) == before
    assert gm("person", "forget", "nobody@example.org", home=home).err.startswith(
        "Error: no player has the address 'nobody@example.org'."
    )


@pytest.mark.slow
def test_forget_leaves_no_address_and_every_game_replaying(home, gm, played):
    digest = rows(home, "SELECT digest FROM mail_taken WHERE message_id = '<orders@x>'")[0][0]
    [(turn_file_digest,)] = rows(home, "SELECT archive FROM submissions")
    assert gm("seat", "resign", "g1", "BR", home=home).code == 0
    ran = gm("person", "forget", ANN, home=home)
    assert ran.code == 0, ran.err
    assert ran.out == (
        f"Forgotten: {ANN} is Forgotten player 1 <{ALIAS}> now (2 address(es) replaced); "
        "2 archived file(s) removed.\nStill replaying (gm turn verify): g1.\n"
    )
    dump = repr(table_dump(home)).lower()
    assert "ann@example.org" not in dump and "ann@new.example" not in dump
    assert '"ann"' not in dump.replace("\\", "")  # no JSON value is her name
    assert rows(home, "SELECT email, name FROM accounts WHERE id = 1") == [(ALIAS, "Forgotten player 1")]
    # Her raw mail and turn file are gone; a note without a byte of them stands in their place.
    for removed in (digest, turn_file_digest):
        assert not archived_path(home / "archive", removed).exists()
        note = json.loads(noted_path(home / "archive", removed).read_text())
        assert (note["reason"], note["head"], note["sender"]) == ("forgotten", "", None)
    # The orders read from it stay: the game replays and the books balance.
    [(orders,)] = rows(home, "SELECT orders FROM submissions")
    assert json.loads(orders)
    verified = gm("turn", "verify", "g1", home=home)
    assert verified.code == 0, verified.err
    assert gm("ledger", "check", home=home).code == 0
    memos = [m for (m,) in rows(home, "SELECT memo FROM ledger WHERE kind = 'transfer'")]
    assert memos == ["to bob@example.org: transfer", f"from {ALIAS}: transfer"]
    assert gm("doctor", home=home).code == 0
    # The ledger is append-only again once erasure is done.
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        with sqlite3.connect(home / "gm.db") as conn:
            conn.execute("UPDATE ledger SET memo = 'x'")
    # Forgetting again finds nothing more to remove, and says so.
    again = gm("person", "forget", ALIAS, home=home)
    assert again.code == 0 and "(0 address(es) replaced); 0 archived file(s) removed." in again.out


def test_export_of_a_player_without_a_seat(home, gm, tmp_path):
    assert gm("credits", "buy", "zed@example.org", "2", "--paid", "5", "--name", "Zed", home=home).code == 0
    out = tmp_path / "zed.zip"
    ran = gm("person", "export", "zed@example.org", "-o", out, home=home)
    assert ran.out == f"Wrote {out}: 0 mail(s), 0 turn file(s), 0 report file(s), 1 ledger row(s).\n"
    with zipfile.ZipFile(io.BytesIO(out.read_bytes())) as made:
        assert json.loads(made.read("person.json"))["seats"] == []


def test_forget_takes_the_player_off_the_lists(home, gm):
    assert gm("game", "new", "g2", "--ruleset", "clash", "--seed", "2", home=home).code == 0
    assert gm("credits", "buy", "zed@example.org", "2", "--paid", "5", "--name", "Zed", home=home).code == 0
    assert gm("game", "standby", "g2", "zed@example.org", "--name", "Zed", home=home).code == 0
    ran = gm("person", "forget", "zed@example.org", home=home)
    assert ran.code == 0, ran.err
    assert "Taken off 1 waiting or standby list(s): forgotten, they are never seated." in ran.out
    assert rows(home, "SELECT count(*) FROM standbys") == [(0,)]


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", ["empires", "conqueror", "clash", "mcempires", "imperials"])
def test_every_ruleset_replays_after_a_player_is_forgotten(home, gm, ruleset):
    """Each ruleset names a seat's player in its state (turn 0 is made from the seats' names), so
    the stored turns are renamed and hashed again: gm turn verify passes after as before."""
    assert gm("game", "new", "g", "--ruleset", ruleset, "--seed", "5", home=home).code == 0
    for name in ("Ann", "Bob", "Cy", "Di", "Ed", "Flo"):
        gm("game", "join", "g", f"{name.lower()}@example.org", "--name", name, home=home)
    gm("game", "start", "g", home=home)  # a game with fewer seats than six is full already
    for _ in range(2):
        assert gm("turn", "run", "g", "--now", "--no-render", home=home).code == 0
    [(code,)] = rows(home, "SELECT s.code FROM seats s JOIN accounts a ON a.id = s.account_id WHERE a.email = ?", ANN)
    assert gm("seat", "resign", "g", code, home=home).code == 0
    named = [state for (state,) in rows(home, "SELECT state FROM turns") if '"Ann"' in state]
    assert named, "the state names the player: forgetting must rename it"
    assert gm("person", "forget", ANN, home=home).code == 0
    assert [s for (s,) in rows(home, "SELECT state FROM turns") if '"Ann"' in s] == []
    verified = gm("turn", "verify", "g", home=home)
    assert verified.code == 0 and "every state hash matches" in verified.out, verified.err
