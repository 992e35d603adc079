"""gm orders check --report: a player's check against the seat's last JSON report, without a GM home."""

from __future__ import annotations

import json

import pytest


@pytest.fixture
def report(home, gm, game, tmp_path):
    """BR's report of turn 1, copied away from the GM's home (as a player has it)."""
    assert gm("turn", "run", "g1", "--now", home=home).code == 0
    copied = tmp_path / "player" / "g1-1-BR.json"
    copied.parent.mkdir()
    copied.write_bytes((home / "reports/g1/1/BR.json").read_bytes())
    return copied


def test_the_form_of_the_report_checks_offline(gm, report, tmp_path, monkeypatch):
    monkeypatch.delenv("GM_HOME", raising=False)
    monkeypatch.chdir(tmp_path / "player")  # no GM home here, no database anywhere near
    form = json.loads(report.read_text())["order_form"].replace("<your secret>", "anything")
    orders = tmp_path / "orders.txt"
    orders.write_text(form)
    ran = gm("orders", "check", "--report", report, orders)
    assert (ran.code, ran.err) == (0, "")
    assert ran.out.startswith(f"{orders}: OK as far as the report can tell, ")
    assert " for BR in g1, turn 2; left to the GM's check: the password, and the rules " in ran.out
    assert not (tmp_path / "player" / "gm.db").exists()


def test_mistakes_the_report_can_settle(gm, report, tmp_path):
    orders = tmp_path / "orders.txt"
    orders.write_text("GAME g1\nPLAYER BR\nPASSWORD x\nPLACE EGN 3\nFROB 1\nEND\nFINAL\n")
    ran = gm("orders", "check", "--report", report, orders)
    assert ran.code == 1
    assert ran.err.splitlines() == [
        f"{orders}:4: warning: EGN is not a code in this game; did you mean ENG or DEN?",
        f"{orders}:5: FROB is not an order; the orders are CLAIM, PLACE, PASS, RECRUIT, REVOLT and MOVE",
        f"{orders}:7: warning: FINAL after END is ignored, so these orders are not final: put FINAL before END",
    ]
    orders.write_text("GAME g1\nPLAYER RU\nPASSWORD x\nEND\n")
    ran = gm("orders", "check", "--report", report, orders)
    assert (ran.code, ran.err) == (
        1,
        f"{orders}: refused: the file is for player RU, the report for BR (check the PLAYER line)\n",
    )
    orders.write_text("GAME g1\nPLAYER BR\nPASSWORD x\nTURN 1\nEND\n")
    assert "the report is of turn 1: its orders are for turn 2" in gm("orders", "check", "--report", report, orders).err


def test_a_file_that_is_no_report_is_a_clear_error(gm, tmp_path):
    (tmp_path / "x.json").write_text("[1, 2]")
    (tmp_path / "o.txt").write_text("GAME g1\nEND\n")
    ran = gm("orders", "check", "--report", tmp_path / "x.json", tmp_path / "o.txt")
    assert ran.code == 1 and ran.err.startswith(f"Error: {tmp_path / 'x.json'} is not a gm JSON report; ")


def test_press_written_wrong_is_a_warning_offline_too(gm, report, tmp_path):
    orders = tmp_path / "orders.txt"
    orders.write_text("GAME g1\nPLAYER BR\nPASSWORD x\nPRESS TO ALL FR\nhi\nENDPRESS\nPRESS TO FR: fine\nEND\n")
    ran = gm("orders", "check", "--report", report, orders)
    assert (ran.code, ran.err) == (
        0,
        f"{orders}:4: warning: this press would not be sent: PRESS TO ALL goes to everyone: name no seats beside ALL\n",
    )
