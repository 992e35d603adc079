"""A seat whose country is out of the game sends no orders and misses none: it is never dropped
out for NMR, so it keeps its discounts (11.7: "A player that is knocked out while still playing
... receives a discount of one turn"; "Dropouts forfeit all accumulated discounts")."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import sqlite_utils

from gm.core import cycle as core_cycle
from gm.services import cycle
from gm.store import records


def _rows(home, sql, *params):
    with sqlite3.connect(home / "gm.db") as db:
        return db.execute(sql, params).fetchall()


def _three_seats(home, gm) -> None:
    assert gm("game", "new", "g", "--ruleset", "empires", "--scenario", "duchies", "--seed", "5", home=home).code == 0
    for name in ("ann", "bob", "cy"):
        assert gm("game", "join", "g", f"{name}@example.org", "--name", name.title(), home=home).code == 0


def _bob_out_after_turn_1(home, gm) -> str:
    """A 3-seat Empires game whose turn 1 has run and left Bob's country eliminated: its code."""
    assert gm("turn", "run", "g", "--now", "--no-render", home=home).code == 0
    # Brega (Bob's) is out at the end of turn 1: its land neutral, the toolkit's record says so.
    (state,) = _rows(home, "SELECT state FROM turns WHERE number = 1")[0]
    state = json.loads(state)
    bob = next(code for code, c in state["countries"].items() if c["name"] == "Bob")
    for area in state["areas"].values():
        if area["owner"] == bob:
            area["owner"] = "neutral"
    state["countries"][bob].update(bps=0, reserve=0)
    state["victory"]["eliminated"][bob] = 1
    with sqlite3.connect(home / "gm.db") as db:
        db.execute("UPDATE turns SET state = ? WHERE number = 1", [json.dumps(state)])
    return bob


def test_an_eliminated_country_is_not_dropped_for_the_orders_it_cannot_send(home, gm):
    _three_seats(home, gm)
    assert gm("game", "set", "g", "nmr-limit", "2", home=home).code == 0
    gm("credits", "adjust", "bob@example.org", "--discount", "4", "--reason", "earlier games", home=home)
    bob = _bob_out_after_turn_1(home, gm)
    ran = gm("turn", "run", "g", "--now", home=home)  # nobody's orders, twice
    assert ran.code == 0, ran.err
    statuses = dict(_rows(home, "SELECT code, status FROM seats"))
    assert statuses.pop(bob) == "active"
    assert set(statuses.values()) == {"dropped"}  # the others missed two turns in a row
    assert _rows(home, "SELECT kind FROM ledger WHERE memo LIKE '%seat ' || ? || ' dropped%'", bob) == []
    # Its report does not count the turn as missed, nor say that the seat has been dropped.
    report = json.loads((home / "reports" / "g" / "2" / f"{bob}.json").read_text())
    assert report["nmr"] is None
    others = [json.loads((home / "reports" / "g" / "2" / f"{c}.json").read_text()) for c in statuses]
    assert [r["nmr"]["missed"] for r in others] == [2, 2]


def test_the_cycle_neither_waits_for_nor_counts_a_seat_knocked_out(home, gm):
    """A knocked-out seat is not reminded, does not keep a turn from running early, and is not
    one of the seats whose missing orders make an NMR spike (which held a late game for the GM
    for ever once half its seats were out)."""
    _three_seats(home, gm)
    bob = _bob_out_after_turn_1(home, gm)
    assert gm("turn", "run", "g", "--now", "--no-render", home=home).code == 0  # turn 2 finds Bob out
    with sqlite_utils.Database(home / "gm.db") as db:
        game = records.game_by_name(db, "g")
        facts = cycle.cycle_facts(db, game, datetime.now(UTC))
    codes = dict(_rows(home, "SELECT code, status FROM seats"))
    others = tuple(sorted(c for c in codes if c != bob))
    assert facts.active == others
    facts = replace(facts, due=datetime(2026, 12, 4, 18, 0, tzinfo=UTC), grace_minutes=0)
    due = facts.due
    # One of the two left sent orders: half are missing, not more than half (nmr-spike 50).
    one = replace(facts, submitted=others[:1], spike_percent=50)
    assert core_cycle.decide(one, due).run
    assert core_cycle.missing_seats(one) == others[1:]
    both_final = replace(
        facts,
        submitted=others,
        early=True,
        early_delay_minutes=0,
        final_at={c: facts.due - timedelta(days=1) for c in others},
    )
    assert core_cycle.decide(both_final, facts.due - timedelta(hours=1)).run
