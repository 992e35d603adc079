"""The house's prize discounts (rules D-EMP-15, H-1): the table a game uses, what each seat
earns, and a game of another ruleset awarding them at its end through the books."""

from __future__ import annotations

import json

from gm.core import prizes
from gm.core.prizes import PrizeTable


def test_empires_default_is_rule_11_7():
    table = prizes.table_for("empires", {}, {})
    assert [table.for_win(c) for c in ("runaway", "knockout", "points")] == [3, 3, 2]
    assert (table.finish, table.knockout) == (1, 1)


def test_the_game_setting_beats_gm_toml_which_beats_the_ruleset():
    house = {"win": 5, "finish": 2}
    chosen = {"win": 4, "finish": "house", "knockout": "house"}
    assert prizes.table_for("clash", house, chosen) == PrizeTable(4, 2, 1)
    # Once the GM sets the win, 11.7's smaller points win no longer applies.
    assert prizes.table_for("empires", {}, {"win": 6}).for_win("points") == 6
    assert prizes.table_for("empires", {"finish": 0}, {}).for_win("points") == 2


def test_each_seat_earns_its_part():
    table = PrizeTable(3, 1, 2)
    earned = prizes.earned(table, ["A", "B", "C", "D"], ["A", "B"], None, ["D"])
    assert earned == {"A": 3, "B": 3, "C": 1, "D": 2}


def test_knocked_out_joins_the_toolkit_record_and_the_ruleset():
    state = {"victory": {"eliminated": {"X": 4}}}
    assert prizes.knocked_out(state, ["Y"]) == {"X", "Y"}
    assert prizes.knocked_out({}, ()) == set()


def test_a_minecraft_empires_game_awards_the_house_discounts_at_its_end(home, gm):
    (home / "gm.toml").write_text((home / "gm.toml").read_text() + "\n[discounts.mcempires]\nfinish = 2\n")
    assert gm("game", "new", "m1", "--ruleset", "mcempires", "--seed", "5", "-o", "round-limit=1", home=home).code == 0
    for name in ("ann", "bob"):
        assert gm("game", "join", "m1", f"{name}@example.org", "--name", name.title(), home=home).code == 0
    assert gm("game", "set", "m1", "discount-win", "4", home=home).code == 0
    gm("credits", "adjust", "bob@example.org", "--discount", "9", "--reason", "earlier games", home=home)
    ran = gm("turn", "run", "m1", "--now", home=home)
    assert ran.code == 0 and ran.out.endswith("m1 is over.\n"), ran.out + ran.err
    winners = json.loads(gm("game", "show", "m1", "--json", home=home).out)["outcome"]["winners"]
    assert sorted(winners) == ["BL", "RE"]  # one round: every empire ties on its one city
    # Tied winners both earn the game's 4 (not gm.toml's finish of 2); Bob stops at the cap of 10.
    assert _awards(home) == [("ann@example.org", 4), ("bob@example.org", 1)]
    assert gm("ledger", "check", home=home).code == 0
    end = json.loads((home / "reports" / "m1" / "endgame" / f"{winners[0]}.json").read_text())
    assert end["discount"]["table"] == {"win": 4, "finish": 2, "knockout": 1, "by_condition": {}}
    assert end["slip"] == {"days": 14, "default": "join"}  # the report says when the default applies
    # The standings of the end-of-game report are the final standings' rows, each with its seat's status.
    final = json.loads((home / "reports" / "m1" / "final.json").read_text())
    assert [{k: v for k, v in row.items() if k != "status"} for row in end["scores"]] == final["scores"]
    assert [(row["seat"], row["status"]) for row in end["scores"]] == [
        (row["seat"], "active") for row in final["scores"]
    ]
    assert (home / "reports" / "m1" / "endgame" / f"{winners[0]}.pdf").read_bytes().startswith(b"%PDF")


def test_conqueror_and_minecraft_empires_name_their_knocked_out_seats():
    from games.conqueror import rules as conqueror
    from games.mcempires import rules as mcempires

    state = {"seating": ["A", "B"], "seats": {"A": {"alive": True}, "B": {"alive": False}}}
    assert conqueror.knocked_out(state) == mcempires.knocked_out(state) == ["B"]


def _awards(home):
    import sqlite3

    return (
        sqlite3.connect(home / "gm.db")
        .execute(
            """SELECT a.email, l.discount FROM ledger l JOIN accounts a ON a.id = l.account_id
           WHERE l.kind = 'discount award' ORDER BY l.id"""
        )
        .fetchall()
    )


def test_a_bad_prize_setting_is_refused(home, gm, game):
    ran = gm("game", "set", "g1", "discount-win", "11", home=home)
    assert (ran.code, ran.err) == (
        1,
        "Error: discount-win takes a number of bonus turns from 0 to 10, or house, not '11'.\n",
    )
