"""One game's fault stays in that game (issue 28): a plug-in ruleset whose resolve, robot_orders,
view or report template raises stops its own game only. gm run-due runs the others, leaves the
failed turn uncommitted (or, committed, publishes it once fixed, once), says so at the end and
exits 1; gm status, gm doctor and the GM's portal page show the game and why."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta

import pytest

from gm.home import Home
from gm.web.app import create_app
from tests.cycle.test_rundue import clock  # noqa: F401 (fixture: Monday 2026-11-16 12:00 UTC)
from tests.faulty_plugin import faulty  # noqa: F401 (fixture)
from tests.intake.mails import set_mail_address
from tests.web.conftest import GM_PASSWORD, Player
from tests.web.test_portal import set_gm_password

DUE = datetime(2026, 11, 16, 18, 1, tzinfo=UTC)  # just past the first deadline
GAMES = ("a1", "f1", "z1")  # run-due works through them by name: the faulty one in the middle
FAULT = "the faulty ruleset (0.1) failed in {method} for game 'f1': {cause}"
ZERO = "ZeroDivisionError: division by zero (faulty_game/__init__.py line 10)"  # the plug-in's planted()


@pytest.fixture
def house(home, gm, clock, faulty):
    """Three 2-seat games, one player and one robot each, due daily at 18:00 UTC; f1 plays the
    faulty plug-in, a1 and z1 Clash. Returns the plug-in (its FAULTS plant a bug)."""
    set_mail_address(home)
    for name in GAMES:
        ruleset = "faulty" if name == "f1" else "clash"
        ran = gm(
            "game",
            "new",
            name,
            "--ruleset",
            ruleset,
            "--scenario",
            "lowlands",
            "--seed",
            "3",
            "--robots",
            "1",
            home=home,
        )
        assert ran.code == 0, ran.err
        assert gm("game", "join", name, f"ann-{name}@example.org", "--name", "Ann", home=home).code == 0
        assert gm("game", "schedule", name, "daily at 18:00 UTC", home=home).code == 0
        assert gm("game", "set", name, "nmr-spike", "100", home=home).code == 0
    clock.when = DUE
    return faulty


def turns_of(home, game: str) -> list[tuple[int, bool]]:
    """(number, published) of each turn the game has committed after its start."""
    return (
        sqlite3.connect(home / "gm.db")
        .execute(
            "SELECT t.number, t.published IS NOT NULL FROM turns t JOIN games g ON g.id = t.game_id "
            "WHERE g.name = ? AND t.number >= 1 ORDER BY 1",
            [game],
        )
        .fetchall()
    )


def report_mails(home, game: str, turn: int) -> int:
    return (
        sqlite3.connect(home / "gm.db")
        .execute(
            "SELECT COUNT(*) FROM outbox o JOIN games g ON g.id = o.game_id "
            "WHERE g.name = ? AND o.kind IN ('report', 'notice') AND o.turn = ?",
            [game, turn],
        )
        .fetchone()[0]
    )


def gm_page(home, monkeypatch, gm) -> str:
    """The GM's portal page, /gm, as the signed-in GM gets it."""
    assert set_gm_password(gm, home, monkeypatch).code == 0
    the_gm = Player(create_app(Home(home)).test_client())
    the_gm.get("/gm")
    return the_gm.post("/gm/sign-in", {"password": GM_PASSWORD}).text


@pytest.mark.parametrize("method", ["resolve", "robot_orders"])
def test_a_ruleset_that_raises_before_the_commit_stops_only_its_game(house, gm, home, monkeypatch, method):
    house.FAULTS.add(method)
    ran = gm("run-due", home=home)
    fault = FAULT.format(method=method, cause=ZERO)
    assert ran.code == 1
    assert "a1: turn 1 run (deadline passed)" in ran.out and "z1: turn 1 run (deadline passed)" in ran.out
    assert "f1: turn" not in ran.out
    assert f"Warning: f1: {fault}. This is a bug in the ruleset, not in the game" in ran.err
    assert ran.err.endswith(
        "Error: 1 game(s) failed: f1 (why: above, and in gm status); every other game ran. Fix what the "
        "warnings say; gm run-due tries them again each time it runs.\n"
    )
    assert turns_of(home, "f1") == [] and turns_of(home, "a1") == turns_of(home, "z1") == [(1, True)]
    assert f"  problem: turn 1 not run: {fault}." in gm("status", home=home).out
    doctor = gm("doctor", home=home)
    assert doctor.code == 1 and f"PROBLEM  games: f1: turn 1 not run: {fault}." in doctor.out
    assert "gm run-due then runs the turn, or gm turn run f1 at once." in doctor.out
    page = gm_page(home, monkeypatch, gm)
    assert f"turn 1 not run: {fault}.".replace("'", "&#39;") in page
    again = gm("run-due", home=home)  # still broken: still one problem, noted once
    assert again.code == 1 and turns_of(home, "f1") == []
    assert gm("audit", "f1", home=home).out.count("run-due failed") == 1

    house.FAULTS.clear()  # the fixed version is installed
    fixed = gm("run-due", home=home)
    assert fixed.code == 0 and "f1: turn 1 run (deadline passed)" in fixed.out and fixed.err == ""
    assert turns_of(home, "f1") == [(1, True)]
    assert "problem" not in gm("status", home=home).out
    assert "OK       games: 3 games: no ruleset broken, no fault holds, no mail kept" in gm("doctor", home=home).out


@pytest.mark.parametrize(
    "method, cause",
    [
        ("view", ZERO),
        (
            "render",
            "UndefinedError: 'dict object' has no attribute 'no_such_key' (faulty_game/templates/faulty_report.html line 3)",
        ),
    ],
)
def test_a_turn_whose_reports_fail_stays_committed_and_is_published_once_fixed(house, gm, home, clock, method, cause):
    house.FAULTS.add(method)
    ran = gm("run-due", home=home)
    fault = FAULT.format(method=method, cause=cause)
    assert ran.code == 1 and "f1: turn 1 run (deadline passed)" in ran.out
    assert "a1: turn 1 reports written" in ran.out and "z1: turn 1 reports written" in ran.out
    assert f"Warning: f1: {fault}." in ran.err and "Error: 1 game(s) failed: f1" in ran.err
    assert turns_of(home, "f1") == [(1, False)] and report_mails(home, "f1", 1) == 0
    assert f"  problem: turn 1 not published: {fault}." in gm("status", home=home).out
    assert f"PROBLEM  games: f1: turn 1 not published: {fault}." in gm("doctor", home=home).out
    clock.when = DUE + timedelta(days=1)  # turn 2 is due too: it waits for turn 1
    assert gm("run-due", home=home).code == 1 and turns_of(home, "f1") == [(1, False)]

    house.FAULTS.clear()
    fixed = gm("run-due", home=home)
    assert fixed.code == 0, fixed.err
    assert "f1: turn 1 reports written" in fixed.out
    assert turns_of(home, "f1")[0] == (1, True) and report_mails(home, "f1", 1) == 1  # its one player, once
    assert (home / "reports" / "f1" / "1" / "BR.pdf").is_file()
