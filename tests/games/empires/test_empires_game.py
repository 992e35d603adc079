"""Empires through the gm command: a game on the duchies map from creation to a win, the census
kept secret until the GM asks, the books charging every turn and awarding discounts at the end,
and the end-of-game reports."""

from __future__ import annotations

import json
import sqlite3

import pytest

PLAYERS = [("ann@example.org", "Ann"), ("bob@example.org", "Bob"), ("cy@example.org", "Cy")]


@pytest.fixture
def empires(home, gm):
    assert gm("game", "new", "e1", "--ruleset", "empires", "--scenario", "duchies", "--seed", "3", home=home).code == 0
    for email, name in PLAYERS:
        assert gm("game", "join", "e1", email, "--name", name, home=home).code == 0
    return home


def test_the_census_is_secret_until_the_gm_asks(empires, gm):
    gm("turn", "run", "e1", "--no-render", home=empires)
    plain = gm("game", "show", "e1", home=empires)
    assert "Census" not in plain.out and plain.out.startswith("e1: Empires: the Three Duchies (empires 1.0")
    facts = json.loads(gm("game", "show", "e1", "--json", home=empires).out)
    assert "census" not in facts and "census" not in facts["state"]
    secret = gm("game", "show", "e1", "--gm-secrets", home=empires)
    assert secret.out.endswith("Census (secret): held on turns none yet; next on turn 4; then 9, 14, 19, 22, 26, ...\n")
    facts = json.loads(gm("game", "show", "e1", "--json", "--gm-secrets", home=empires).out)
    assert facts["census"] == {"turns": facts["state"]["census"]["turns"], "held": [], "next": 4}
    assert gm("game", "new", "c1", home=empires).code == 0
    for email, name in PLAYERS[:2]:
        gm("game", "join", "c1", email, "--name", name, home=empires)
    assert gm("game", "show", "c1", "--gm-secrets", home=empires).out.endswith(
        "Census (secret): this ruleset holds no census.\n"
    )


def test_a_report_shows_credits_and_no_secrets(empires, gm):
    gm("credits", "buy", "ann@example.org", "10", "--paid", "25", home=empires)
    ran = gm("turn", "run", "e1", "--now", home=empires)
    assert ran.code == 0, ran.err
    report = json.loads((empires / "reports" / "e1" / "1" / "AL.json").read_text())
    assert report["credits"] == {
        "balance": 9,
        "discount": 0,
        "charged": True,
        "low": False,
        "next_unpaid": False,
        "unpaid": False,
        "policy": "hold",
        "bonus_from": 10,
    }
    view = report["view"]
    assert set(view) == {
        "ruleset",
        "title",
        "seat",
        "phase",
        "turn",
        "turn_label",
        "map",
        "seats",
        "leader",
        "warning",
        "last_census",
        "census_now",
        "target",
        "you",
        "order_of_play",
        "known",
        "outcome",
    }
    assert "census" not in json.dumps(view["you"]) and '"turns"' not in json.dumps(report)
    assert {t["code"] for t in view["map"]["territories"]} >= {"ALB", "SEA"}
    assert report["turn_label"] == "Turn 1" and report["next_label"] == "Turn 2"
    assert (empires / "reports" / "e1" / "1" / "AL.pdf").read_bytes().startswith(b"%PDF")


@pytest.mark.slow
def test_a_robot_game_to_a_win_with_the_books(empires, gm):
    assert gm("game", "set", "e1", "nmr-limit", "0", home=empires).code == 0
    gm("credits", "adjust", "ann@example.org", "--discount", "9", "--reason", "earlier games", home=empires)
    for email, _ in PLAYERS:
        gm("credits", "buy", email, "10", "--paid", "25", home=empires)
    assert _play_to_the_end(gm, empires) == 9
    facts = json.loads(gm("game", "show", "e1", "--json", home=empires).out)
    assert facts["outcome"]["winners"] == ["AL"]
    assert facts["outcome"]["reason"].startswith("knockout win at the census of turn 9: 11 VP")
    events = json.loads(
        sqlite3.connect(empires / "gm.db").execute("SELECT events FROM turns WHERE number = 9").fetchone()[0]
    )
    assert [e["kind"] for e in events if e["kind"] in ("census", "game_over")] == ["census", "game_over"]
    assert gm("ledger", "check", home=empires).out == "The books balance: 35 entries, 3 accounts.\n"
    shown = gm("credits", "show", "ann@example.org", home=empires).out.splitlines()
    # Ann: 10 bought + 9 bonus - 9 turns; 9 discount + 3 for the knockout win, capped at 10.
    assert shown[0] == "ann@example.org (Ann): 10 credits, discount 10 bonus turns."
    assert shown[-1].split()[3:] == [
        "discount",
        "award",
        "0",
        "0.00",
        "1",
        "10",
        "e1:",
        "1",
        "bonus",
        "turns,",
        "seat",
        "AL",
        "(3",
        "earned;",
        "the",
        "cap",
        "is",
        "10)",
    ]
    ran = gm("report", "render", "e1", "--turn", "9", home=empires)
    assert ran.code == 0, ran.err
    end = json.loads((empires / "reports" / "e1" / "endgame" / "CA.json").read_text())
    assert (end["won"], end["discount"], end["credits"]) == (
        False,
        {
            "now": 1,
            "awarded": 1,
            "earned": 1,
            "cap": 10,
            "bonus_from": 10,
            "table": {"win": 3, "finish": 1, "knockout": 1, "by_condition": {"knockout": 3, "points": 2, "runaway": 3}},
        },
        {"left": 1},
    )
    assert [row["seat"] for row in end["scores"]] == ["AL", "BR", "CA"]
    assert (empires / "reports" / "e1" / "endgame" / "CA.pdf").read_bytes().startswith(b"%PDF")


def _play_to_the_end(gm, home) -> int:
    """Run e1's turns until it is over; the number of the turn that ended it."""
    for number in range(1, 30):
        ran = gm("turn", "run", "e1", "--now", "--no-render", home=home)
        assert ran.code == 0, ran.err
        if ran.out.endswith("e1 is over.\n"):
            return number
    raise AssertionError("e1 did not end in 29 turns")


def test_a_rerun_of_the_last_turn_ends_the_game_the_same_way(empires, gm):
    """11.6's end, run again: `gm turn rerun` of the census turn that ended the game gives the same
    census, the same winner and condition, the same final scores and events, and each seat's
    discount (11.7) awarded once, the first award reversed."""
    assert gm("game", "set", "e1", "nmr-limit", "0", home=empires).code == 0
    last = _play_to_the_end(gm, empires)
    db = empires / "gm.db"
    query = "SELECT events, state FROM turns WHERE number = ?"
    first = sqlite3.connect(db).execute(query, (last,)).fetchone()
    outcome = json.loads(gm("game", "show", "e1", "--json", home=empires).out)["outcome"]
    shown = {email: gm("credits", "show", email, home=empires).out.splitlines()[0] for email, _ in PLAYERS}
    ran = gm("turn", "rerun", "e1", str(last), "--reason", "the end checked", "--yes", "--no-render", home=empires)
    assert ran.code == 0 and ran.out.endswith("e1 is over.\n"), ran.out + ran.err
    assert sqlite3.connect(db).execute(query, (last,)).fetchone() == first
    assert json.loads(gm("game", "show", "e1", "--json", home=empires).out)["outcome"] == outcome
    assert {email: gm("credits", "show", email, home=empires).out.splitlines()[0] for email, _ in PLAYERS} == shown
    assert "discount 3 bonus turns" in shown["ann@example.org"]
    assert gm("ledger", "check", home=empires).code == 0
