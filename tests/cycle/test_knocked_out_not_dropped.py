"""A seat whose country is out of the game sends no orders and misses none: it is never dropped
out for NMR, so it keeps its discounts (11.7: "A player that is knocked out while still playing
... receives a discount of one turn"; "Dropouts forfeit all accumulated discounts")."""

from __future__ import annotations

import json
import sqlite3


def _rows(home, sql, *params):
    with sqlite3.connect(home / "gm.db") as db:
        return db.execute(sql, params).fetchall()


def test_an_eliminated_country_is_not_dropped_for_the_orders_it_cannot_send(home, gm):
    assert gm("game", "new", "g", "--ruleset", "empires", "--scenario", "duchies", "--seed", "5", home=home).code == 0
    for name in ("ann", "bob", "cy"):
        assert gm("game", "join", "g", f"{name}@example.org", "--name", name.title(), home=home).code == 0
    assert gm("game", "set", "g", "nmr-limit", "2", home=home).code == 0
    gm("credits", "adjust", "bob@example.org", "--discount", "4", "--reason", "earlier games", home=home)
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
