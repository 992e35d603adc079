"""Robot seats (gm game new --robots N) in every installed ruleset: the ruleset's robot plays
them every turn; they are never dropped for NMR, charged, mailed or sent a held notice."""

from __future__ import annotations

import json
import sqlite3

import pytest

from gm.rulesets import installed
from gm.services.games import load_scenario
from tests.intake.mails import set_mail_address


def _rows(home, sql, *params):
    with sqlite3.connect(home / "gm.db") as db:
        return db.execute(sql, params).fetchall()


def _smallest(name: str) -> tuple[str, int]:
    """The ruleset's scenario with the fewest seats (the quickest to render), and its minimum."""
    ruleset = installed()[name]
    sizes = {}
    for scenario in ruleset.scenario_names():
        _, _, parsed = load_scenario(ruleset, scenario)
        sizes[scenario] = (len(ruleset.seat_codes(parsed)), ruleset.seat_limits(parsed)[0])
    scenario = min(sizes, key=lambda n: (sizes[n], n))
    return scenario, sizes[scenario][1]


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", sorted(installed()))
def test_a_robot_seat_plays_and_costs_nothing(ruleset, home, gm):
    set_mail_address(home)
    scenario, fewest = _smallest(ruleset)
    made = gm(
        "game", "new", "g", "--ruleset", ruleset, "--scenario", scenario, "--robots", "1", "--seed", "5", home=home
    )
    assert made.code == 0, made.err
    robot = _rows(home, "SELECT code FROM seats WHERE status = 'robot'")
    assert len(robot) == 1 and f"Robots play {robot[0][0]}." in made.out
    robot = robot[0][0]
    for n in range(max(fewest - 1, 1)):
        assert gm("game", "join", "g", f"p{n}@example.org", "--name", f"P{n}", home=home).code == 0
    assert gm("game", "set", "g", "nmr-limit", "1", home=home).code == 0
    ran = gm("turn", "run", "g", "--now", home=home)
    assert ran.code == 0, ran.err
    assert robot not in ran.out.split("no orders from")[1].split(";")[0]

    orders = json.loads(_rows(home, "SELECT orders FROM turns WHERE number = 1")[0][0])
    assert orders[robot]["by"] == "robot seat"
    assert {o["by"] for code, o in orders.items() if code != robot} == {"robot"}  # the humans' NMR
    statuses = dict(_rows(home, "SELECT code, status FROM seats"))
    assert statuses.pop(robot) == "robot"
    assert set(statuses.values()) == {"dropped"}  # one missed turn drops a player, never the robot
    reports = {code: json.loads((home / "reports" / "g" / "1" / f"{code}.json").read_text()) for code in orders}
    robot_report = reports.pop(robot)
    assert robot_report["nmr"] is None and robot_report["credits"] is None  # no missed turn, no books
    assert {r["nmr"]["played_by"] for r in reports.values()} == {"robot"}
    charged = {seat for (seat,) in _rows(home, "SELECT seat FROM ledger WHERE kind = 'turn charge'")}
    assert charged == set(statuses)
    assert not _rows(
        home,
        "SELECT 1 FROM ledger l JOIN accounts a ON a.id = l.account_id WHERE l.seat = ? OR a.email LIKE '%.invalid'",
        robot,
    )
    mailed = _rows(home, "SELECT seat, kind, recipient FROM outbox")
    assert {seat for seat, _, _ in mailed if seat} == set(statuses)  # reports, or held notices: players only
    assert {kind for seat, kind, _ in mailed if not seat} == {"notice"}  # each player's drop-out notice
    assert not [m for m in mailed if m[0] == robot or m[2].endswith(".invalid")]

    shown = json.loads(gm("game", "show", "g", "--json", home=home).out)
    seat = next(s for s in shown["seats"] if s["code"] == robot)
    assert (seat["status"], seat["orders"], seat["email"]) == ("robot", "robot", "robot@robots.invalid")
    assert f"{robot} " in gm("game", "show", "g", home=home).out.split("(robot)")[0].splitlines()[-1]
    assert gm("turn", "verify", "g", home=home).code == 0


def test_robot_seats_are_refused_where_a_player_is_meant(home, gm):
    too_many = gm("game", "new", "g", "--ruleset", "clash", "--scenario", "channel", "--robots", "3", home=home)
    assert (too_many.code, too_many.err) == (
        1,
        "Error: --robots 3: the game has 2 seats; seat 0 to 2 robots.\n",
    )
    assert not _rows(home, "SELECT 1 FROM games")
    assert gm("game", "new", "g", "--ruleset", "clash", "--scenario", "channel", "--robots", "1", home=home).code == 0
    secret = gm("game", "secret", "g", "FR", home=home)
    assert (secret.code, secret.err) == (1, "Error: seat FR of 'g' is played by the robot and has no secret.\n")
    resign = gm("seat", "resign", "g", "FR", home=home)
    assert (resign.code, resign.err) == (1, "Error: seat FR of 'g' is played by the robot for the whole game.\n")
    taken = gm("game", "join", "g", "a@example.org", "--name", "A", "--seat", "FR", home=home)
    assert taken.code == 1 and "seat FR of 'g' is taken" in taken.err
