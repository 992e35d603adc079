"""Replay holds through seat changes (issue 14, items 7 and 8): gm turn verify after drop-outs,
standbys, resignations and re-runs; the cycle's audit lookups match their turn exactly."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime

from tests.cycle.test_rundue import clock, duel  # noqa: F401 - fixtures


def test_verify_replays_a_game_whose_seats_changed(home, gm, game):
    assert gm("game", "set", "g1", "nmr-limit", "1", home=home).code == 0
    assert gm("game", "standby", "g1", "zed@example.org", "--name", "Zed", home=home).code == 0
    ran = gm("turn", "run", "g1", "--now", "--no-render", home=home)
    assert "BR is now played by standby Zed <zed@example.org> from turn 2" in ran.out
    assert gm("seat", "resign", "g1", "BR", home=home).code == 0
    for _ in range(2):
        assert gm("turn", "run", "g1", "--now", "--no-render", home=home).code == 0
    assert gm("turn", "rerun", "g1", "2", "--reason", "a fix", "--yes", "--no-render", home=home).code == 0
    assert gm("turn", "run", "g1", "--now", "--no-render", home=home).code == 0
    seats = {s["code"]: s for s in json.loads(gm("game", "show", "g1", "--json", home=home).out)["seats"]}
    assert seats["BR"]["name"] == "Zed" and seats["BR"]["status"] == "resigned"
    assert {seats[c]["status"] for c in ("RU", "FR", "GE")} == {"dropped"}
    ran = gm("turn", "verify", "g1", home=home)
    assert (ran.code, ran.err, ran.out) == (0, "", "g1: 3 turn(s) verified, every state hash matches.\n")


def test_verify_with_a_standby_taken_by_run_due(home, gm, clock, duel, tmp_path):
    gm("game", "set", "d1", "nmr-limit", "1", home=home)
    gm("game", "standby", "d1", "zed@example.org", "--name", "Zed", home=home)
    clock.when = datetime(2026, 11, 20, 18, 0, tzinfo=UTC)
    assert "standby Zed" in gm("run-due", home=home).out
    ran = gm("turn", "verify", "d1", home=home)
    assert (ran.code, ran.err) == (0, "")


def test_a_warning_of_turn_12_is_not_one_of_turn_1(home, gm, clock, duel):
    """The NMR-spike warning is found by its turn: the audit row of turn 12 (a game re-run back
    from there) says nothing about turn 1."""
    conn = sqlite3.connect(home / "gm.db")
    with conn:
        conn.execute(
            "INSERT INTO audit (at, game_id, action, detail) VALUES ('2026-11-01T00:00:00Z', 1, 'nmr spike', ?)",
            [json.dumps({"turn": 12, "why": "an old warning of turn 12"})],
        )
    assert "an old warning of turn 12" not in gm("status", home=home).out
    gm("game", "set", "d1", "nmr-spike", "50", home=home)
    clock.when = datetime(2026, 11, 21, 9, 0, tzinfo=UTC)
    assert "turn 1 not run" in gm("run-due", home=home).err
    warned = [json.loads(d) for (d,) in conn.execute("SELECT detail FROM audit WHERE action = 'nmr spike' ORDER BY id")]
    assert [w["turn"] for w in warned] == [12, 1]
    assert gm("status", home=home).out.count("problem: ") == 1
