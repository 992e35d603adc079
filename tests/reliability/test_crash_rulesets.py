"""The crash battery's promise for every ruleset, not Clash alone (test_crash_battery.py plays
Clash at every point): a real gm process killed by SIGKILL where each ruleset's own code has run
(its reports rendered, one mail queued; a re-run resolved, not yet committed), then the same
command run again, ends as the uninterrupted run does. Options on where a ruleset has them.
The game: every seat a paying player (robots get no mail), none sends orders, nmr-limit 1, so
turn 1 drops them all and standby Zed takes the first seat; then turn 2, re-run."""

from __future__ import annotations

import signal
import sqlite3
from pathlib import Path

import pytest

from gm.clock import FixedClock
from gm.services import credits, cycle, games
from gm.services.game_settings import set_game_setting
from tests.reliability.test_crash_battery import (
    SET_UP,
    copy_of,
    gm_process,
    mailing_home,
    ok,
    reports_of,
    resolved,
    seat_mails,
    whole_and_once,
)

pytestmark = pytest.mark.slow

# (ruleset, scenario, seats, options): Clash is test_crash_battery.py's.
GAMES = [
    ("conqueror", "vale", 2, {}),
    ("empires", "duchies", 2, {}),
    ("imperials", "island", 3, {"mode": "wonders"}),
    ("mcempires", "testbed", 2, {"borders": "yes", "alliances": "yes", "declarations": "yes"}),
]
PEOPLE = [("Ann", "ann@example.org"), ("Bob", "bob@example.org"), ("Cy", "cy@example.org")]
RUN = ("turn", "run", "d1", "--now")
RERUN = ("turn", "rerun", "d1", "2", "--reason", "a fix", "--yes")


def new_home(root: Path, ruleset: str, scenario: str, seats: int, options: dict[str, str]) -> Path:
    db = mailing_home(root)
    clock = FixedClock(SET_UP)
    games.create_game(db, clock, "d1", ruleset, scenario, 3, options, seats=seats)
    for name, address in PEOPLE[:seats]:
        games.join_game(db, clock, "d1", address, name)
        credits.buy(db, clock, address, 10, 2000, "d1", name)
    cycle.set_schedule(db, clock, "d1", "daily 20:00 UTC")
    set_game_setting(db, clock, "d1", "nmr-spike", "100")
    set_game_setting(db, clock, "d1", "nmr-limit", "1")
    cycle.add_standby(db, clock, "d1", "zed@example.org", "Zed")
    credits.buy(db, clock, "zed@example.org", 10, 2000, "d1", "Zed")
    db.conn.close()
    return root


def two_turns(home: Path, crash_at: str | None = None) -> None:
    """gm turn run until turns 1 and 2 are played; the first run killed at crash_at."""
    if crash_at:
        assert gm_process(home, *RUN, crash_at=crash_at).returncode == -signal.SIGKILL, crash_at
    while resolved(home) != [1, 2]:
        ok(gm_process(home, *RUN))


@pytest.mark.parametrize("ruleset, scenario, seats, options", GAMES, ids=[g[0] for g in GAMES])
def test_every_ruleset_killed_and_run_again_loses_and_doubles_nothing(ruleset, scenario, seats, options, tmp_path, gm):
    start = new_home(tmp_path / "start", ruleset, scenario, seats, options)
    reference = copy_of(start, tmp_path / "reference")
    two_turns(reference)
    ok(gm_process(reference, *RERUN))

    home = copy_of(start, tmp_path / "home")
    two_turns(home, crash_at="publish:mid-queue")  # every report rendered, one mail queued
    assert gm_process(home, *RERUN, crash_at="turn:before-commit").returncode == -signal.SIGKILL
    ok(gm_process(home, *RERUN))

    whole_and_once(home, gm, reference)
    assert reports_of(home) == reports_of(reference)
    assert seat_mails(home) == seat_mails(reference) and seat_mails(home)  # the drop-outs and the standby
    with sqlite3.connect(home / "gm.db") as conn, sqlite3.connect(reference / "gm.db") as first:
        hashes = "SELECT number, state_hash FROM turns ORDER BY 1"
        assert conn.execute(hashes).fetchall() == first.execute(hashes).fetchall()
        mailed = "SELECT turn, seat, recipient, status FROM outbox WHERE kind = 'report' ORDER BY 1, 2, 3, 4"
        assert conn.execute(mailed).fetchall() == first.execute(mailed).fetchall()
