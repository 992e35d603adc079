"""gm init, gm game new/join/list/show/deadline: exact messages and exit codes."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime
from importlib.metadata import entry_points

import pytest

from gm.cli import common as cli_common
from gm.clock import FixedClock
from gm.store.migrations import all_migrations


def table_dump(home) -> list:
    """Every row of every table: to prove a refused command changed nothing."""
    conn = sqlite3.connect(home / "gm.db")
    tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")]
    return [(t, conn.execute(f"SELECT * FROM {t} ORDER BY rowid").fetchall()) for t in tables]


def test_init_creates_the_home(tmp_path, gm):
    where = tmp_path / "h"
    ran = gm("init", home=where)
    assert ran.code == 0 and f"Created GM home {where}" in ran.out
    for part in ("gm.db", "gm.toml", "archive", "reports", "outbox", "templates"):
        assert (where / part).exists()
    conn = sqlite3.connect(where / "gm.db")
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    applied = [r[0] for r in conn.execute("SELECT name FROM migrations ORDER BY name")]
    assert applied[0] == "m001_initial" and applied == [m.name for m in all_migrations()]
    assert gm("init", home=where).out.startswith("Checked GM home")


def test_gm_home_from_environment(tmp_path, gm, monkeypatch):
    monkeypatch.setenv("GM_HOME", str(tmp_path / "env-home"))
    assert gm("init").code == 0
    assert gm("game", "list").out.startswith("No games yet")


def test_command_without_a_home_says_what_to_do(tmp_path, gm):
    ran = gm("game", "list", home=tmp_path / "nowhere")
    assert ran.code == 1
    assert (
        ran.err
        == f"Error: no GM home at {tmp_path / 'nowhere'}. Run 'gm init --home {tmp_path / 'nowhere'}' first, or set GM_HOME.\n"
    )


def test_new_join_list_show(home, gm, game):
    assert set(game) == {"BR", "RU", "FR", "GE"}
    listed = gm("game", "list", home=home).out.splitlines()
    assert listed[1].split() == ["g1", "clash", "running", "1", "4"]  # every seat taken: started
    facts = json.loads(gm("game", "show", "g1", "--json", home=home).out)
    assert facts["format"] == 1 and facts["status"] == "running" and facts["turn"] == 1 and facts["seed"] == 7
    assert [s["code"] for s in facts["seats"]] == ["BR", "RU", "FR", "GE"]
    assert {s["orders"] for s in facts["seats"]} == {"none"}
    text = json.dumps(facts)
    assert not any(secret in text for secret in game.values())
    assert "Seats:" in gm("game", "show", "g1", home=home).out


def test_secret_is_stored_hashed(home, game):
    conn = sqlite3.connect(home / "gm.db")
    stored = [r[0] for r in conn.execute("SELECT secret_hash FROM seats")]
    assert all(h.startswith("scrypt$") for h in stored)
    assert not any(secret in h for h in stored for secret in game.values())


def test_unknown_ruleset_scenario_and_game(home, gm):
    ran = gm("game", "new", "x", "--ruleset", "chess", home=home)
    installed = ", ".join(sorted(entry.name for entry in entry_points(group="gm.games")))
    assert "clash" in installed
    assert (ran.code, ran.err) == (1, f"Error: unknown ruleset 'chess'. Installed rulesets: {installed}.\n")
    ran = gm("game", "new", "x", "--scenario", "atlantis", home=home)
    assert ran.code == 1 and ran.err.startswith("Error: unknown scenario 'atlantis' for clash. Scenarios: ")
    ran = gm("game", "show", "nope", home=home)
    assert ran.code == 1 and ran.err.startswith("Error: unknown game 'nope'.")
    ran = gm("game", "new", "Bad Name!", home=home)
    assert ran.code == 1 and "is not a usable game name" in ran.err


def test_broken_scenario_files(home, gm, tmp_path):
    before = table_dump(home)
    unknown = tmp_path / "unknown.toml"
    unknown.write_text(_scenario('["BBB", "ZZZ"]', '["AAA"]'))
    ran = gm("game", "new", "x", "--scenario", str(unknown), home=home)
    assert ran.code == 1 and ran.err.startswith(f"Error: scenario {unknown} is broken: ") and "ZZZ" in ran.err
    oneway = tmp_path / "oneway.toml"
    oneway.write_text(_scenario('["BBB"]', "[]"))
    ran = gm("game", "new", "x", "--scenario", str(oneway), home=home)
    assert ran.code == 1 and "broken" in ran.err and "AAA" in ran.err and "BBB" in ran.err
    syntax = tmp_path / "syntax.toml"
    syntax.write_text("name = [unclosed\n")
    ran = gm("game", "new", "x", "--scenario", str(syntax), home=home)
    assert ran.code == 1 and "broken" in ran.err
    missing = gm("game", "new", "x", "--scenario", str(tmp_path / "nofile.toml"), home=home)
    assert missing.code == 1 and "cannot read scenario file" in missing.err
    assert table_dump(home) == before


def _scenario(a_neighbours: str, b_neighbours: str) -> str:
    return f"""
name = "tiny"
title = "Tiny"
min_seats = 2
max_seats = 2
setup = "claim"
rounds = 30
start_units = 20
unit_limit = 100
width = 200
height = 100
[[seat]]
code = "AA"
name = "A-land"
colour = "#ff0000"
[[seat]]
code = "BB"
name = "B-land"
colour = "#0000ff"
[[territory]]
code = "AAA"
name = "Aaa"
x = 10
y = 10
neighbours = {a_neighbours}
[[territory]]
code = "BBB"
name = "Bbb"
x = 50
y = 10
neighbours = {b_neighbours}
"""


def test_join_refusals(home, gm, game):
    assert gm("game", "new", "g2", "--ruleset", "clash", home=home).code == 0
    before = table_dump(home)
    ran = gm("game", "join", "g1", "eve@example.org", "--name", "Eve", home=home)
    assert (ran.code, ran.err) == (
        1,
        "Error: game 'g1' has started (turn 1); players can join only before it starts. "
        "A standby takes a seat that drops out: gm game standby.\n",
    )
    ran = gm("game", "join", "g2", "not-an-address", "--name", "Eve", home=home)
    assert (ran.code, ran.err) == (1, "Error: 'not-an-address' is not an e-mail address.\n")
    assert table_dump(home) == before


@pytest.mark.parametrize("email", ["a\x1b[2J@x.org", "eve\u202e@example.org", "eve@exa\x85mple.org"])
def test_an_address_with_a_control_or_bidi_character_is_refused(home, gm, email):
    assert gm("game", "new", "g2", "--ruleset", "clash", home=home).code == 0
    before = table_dump(home)
    ran = gm("game", "join", "g2", email, "--name", "Eve", home=home)
    assert ran.code == 1 and ran.err.endswith("is not an e-mail address.\n"), ran.err
    assert "\x1b" not in ran.err and "\u202e" not in ran.err
    assert table_dump(home) == before


@pytest.mark.parametrize("name", ["Ev\u202eil", "Eve\u2066", "Eve\x7f", "Eve\x9b2J", "Eve\u200e"])
def test_a_name_with_a_control_or_bidi_character_is_refused(home, gm, name):
    # A bidi override in a name turned around the rest of each line that named the player, in
    # every other player's report and page: "printable" refused only C0 controls.
    assert gm("game", "new", "g2", "--ruleset", "clash", home=home).code == 0
    before = table_dump(home)
    ran = gm("game", "join", "g2", "eve@example.org", "--name", name, home=home)
    assert (ran.code, ran.err) == (1, "Error: the player's name must be 1-60 printable characters.\n")
    assert table_dump(home) == before
    assert gm("game", "join", "g2", "eve@example.org", "--name", "Ève Zoë 李 🙂", home=home).code == 0


def test_join_seat_choice_and_taken(home, gm):
    gm("game", "new", "g2", "--seed", "1", home=home)
    assert gm("game", "join", "g2", "a@example.org", "--name", "A", "--seat", "fr", home=home).out.startswith(
        "Seated A <a@example.org> as FR"
    )
    ran = gm("game", "join", "g2", "b@example.org", "--name", "B", "--seat", "FR", home=home)
    assert ran.code == 1 and ran.err == "Error: seat FR of 'g2' is taken. Free seats: BR, RU, GE.\n"
    ran = gm("game", "join", "g2", "b@example.org", "--name", "B", "--seat", "XX", home=home)
    assert ran.code == 1 and ran.err == "Error: 'XX' is not a seat of this game. Seats: BR, RU, FR, GE.\n"


@pytest.fixture
def before_the_deadline(monkeypatch):
    """gm's clock fixed on Monday 2026-11-16, so the deadlines below are ahead of it whenever the
    tests run."""
    monkeypatch.setattr(cli_common, "CLOCK", FixedClock(datetime(2026, 11, 16, 12, 0, tzinfo=UTC)))


def test_deadline_shows(home, gm, game, before_the_deadline):
    assert (
        gm("game", "deadline", "g1", "2026-11-27 18:00 UTC", home=home).out
        == "Deadline of g1: Fri 2026-11-27 18:00 UTC\n"
    )
    assert "Deadline Fri 2026-11-27 18:00 UTC" in gm("game", "show", "g1", home=home).out
    ran = gm("game", "deadline", "g1", "someday", home=home)
    assert (
        ran.code == 1
        and ran.err
        == "Error: cannot read 'someday' as a date and time; write it like '2026-11-27 18:00 Europe/London'.\n"
    )


def test_show_a_game_nobody_has_joined(home, gm):
    gm("game", "new", "empty", home=home)
    ran = gm("game", "show", "empty", home=home)
    assert ran.code == 0 and "collecting turn 1: waiting for players" in ran.out
    facts = json.loads(gm("game", "show", "empty", "--json", home=home).out)
    assert facts["state"] is None and facts["seats"] == []


def test_a_standby_seated_with_join_takes_no_second_seat(home, gm):
    # A new GM put Hal in line, then seated him while the game was open; when another seat
    # dropped, Hal (still first in line) took it too and played two seats.
    assert gm("game", "new", "g2", "--seats", "3", home=home).code == 0
    assert gm("game", "standby", "g2", "hal@example.org", "--name", "Hal", home=home).code == 0
    for email, name in [("hal@example.org", "Hal"), ("ivy@example.org", "Ivy"), ("jon@example.org", "Jon")]:
        assert gm("game", "join", "g2", email, "--name", name, home=home).code == 0
    assert gm("seat", "drop", "g2", "RU", home=home).code == 0
    ran = gm("turn", "run", "g2", "--now", "--no-render", home=home)
    assert ran.code == 0 and "standby" not in ran.out, ran.out
    seats = {s["code"]: s["email"] for s in json.loads(gm("game", "show", "g2", "--json", home=home).out)["seats"]}
    assert seats == {"BR": "hal@example.org", "RU": "ivy@example.org", "FR": "jon@example.org"}


def test_a_switch_is_shown_yes_or_no_as_it_is_typed(home, gm, game):
    # gm game set took "yes" and answered "private = True"; gm game settings showed True/False
    # beside help texts that say (yes/no), and discount-knockout pushed its row out of line.
    ran = gm("game", "set", "g1", "private", "yes", home=home)
    assert (ran.code, ran.out) == (0, "g1: private = yes\n")
    listed = gm("game", "settings", "g1", home=home).out.splitlines()
    assert "private           yes        a private game is listed nowhere" in "\n".join(listed)
    assert "early             yes        run early" in "\n".join(listed)
    assert not any(word in line.split() for line in listed for word in ("True", "False"))
    assert len({line.index(line.split()[1], len(line.split()[0])) for line in listed}) == 1  # one column
