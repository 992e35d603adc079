"""A human takes a seat of Minecraft EMPIRES beside the robots and plays by turn file through the
gm command: the demo seats them, the prefilled form founds their capital, a bad file is refused
line by line, and the rest of the game runs to a winner and replays."""

from __future__ import annotations

import json
import re
import sqlite3

import pytest

from gm.core.statehash import state_hash
from gm.services.demo import demo_seats


def form(gm, home, tmp_path, game: str, seat: str, secret: str, *extra: str) -> str:
    path = tmp_path / f"{seat}.txt"
    assert gm("orders", "template", game, seat, "-o", path, home=home).code == 0
    text = path.read_text().replace("<your secret>", secret)
    text = text.replace("\nEND", "".join(f"\n{line}" for line in extra) + "\nEND")
    path.write_text(text)
    return str(path)


@pytest.mark.slow
def test_a_human_plays_beside_the_robots(gm, tmp_path):
    home = tmp_path / "demo"
    ran = gm("demo", "--ruleset", "mcempires", "--seats", "3", "--human", "you@example.org", "--seed", "4", home=home)
    assert ran.code == 0, ran.err
    seat, secret = re.search(r"Seated you \(you@example.org\) as (\w+), secret (\S+)", ran.out + ran.err).groups()
    assert seat == "RE" and "waiting for the first orders" in ran.out

    # The form suggests the capital's site; the player founds it there and buys land beside it.
    path = tmp_path / "first.txt"
    assert gm("orders", "template", "mcempires-demo", seat, "-o", path, home=home).code == 0
    capital = re.search(r"^CAPITAL (\d+),(\d+)$", path.read_text(), re.M)
    x, y = int(capital[1]), int(capital[2])
    orders = form(gm, home, tmp_path, "mcempires-demo", seat, secret, f"LAND {x + 2},{y} {x + 3},{y}")
    ran = gm("submit", orders, home=home)
    assert (ran.code, ran.out.strip()) == (0, f"{orders}: accepted 2 orders for RE in mcempires-demo, turn 1")
    ran = gm("turn", "run", "mcempires-demo", "--now", "--no-render", home=home)
    assert ran.code == 0, ran.err
    state = json.loads(gm("game", "show", "mcempires-demo", "--json", home=home).out)["state"]
    assert state["cities"]["RE1"]["x"] == x and state["cities"]["RE1"]["y"] == y
    assert state["territory"][y][x - 1 : x + 4] == "RRRRR"  # the 3x3 square and the two bought

    # A bad file is refused with a problem per line, and changes nothing.
    bad = form(
        gm, home, tmp_path, "mcempires-demo", seat, secret, "MOVE G2 3,3", "CITY 300,2", "TRANSPORT RE1", "RAIL RE1 RE1"
    )
    ran = gm("submit", bad, home=home)
    assert ran.code == 1
    for problem in (
        "G2 is not one of your groups",
        "300,2 is off the map",
        "transport infrastructure costs 40 E$ and you have",
        "railroads can be bought from round 31 on",
    ):
        assert problem in ran.err, ran.err

    # The rest of the game by NMR (robot orders for the player), then every turn replays.
    while json.loads(gm("game", "show", "mcempires-demo", "--json", home=home).out)["status"] != "over":
        assert gm("turn", "run", "mcempires-demo", "--now", "--no-render", home=home).code == 0
    facts = json.loads(gm("game", "show", "mcempires-demo", "--json", home=home).out)
    assert facts["turn_label"] == "Game over" and facts["outcome"]["winners"]
    ran = gm("turn", "verify", "mcempires-demo", home=home)
    assert ran.code == 0 and "every state hash matches" in ran.out
    conn = sqlite3.connect(home / "gm.db")
    stored = json.loads(conn.execute("SELECT orders FROM turns WHERE number = 1").fetchone()[0])
    assert stored["RE"]["by"] == "player" and stored["BL"]["by"] == "robot"


def test_the_demo_seats_six_empires():
    assert demo_seats("mcempires") == 6


def test_a_game_made_with_version_1_0_is_named_as_such(gm, home):
    """Version 1.1 (issue 27) changed how rounds resolve and what the state holds (and 1.2, the
    option retreat, again). A game made with 1.0 cannot run on 1.2, and gm turn verify says once that its turns were made by 1.0 and
    cannot be made again, after holding every stored state to its hash, instead of calling the
    start different from a new game's or a turn's hash wrong."""
    assert (
        gm("game", "new", "mc1", "--ruleset", "mcempires", "--scenario", "testbed", "--seed", "3", home=home).code == 0
    )
    for player in ("ann", "bob"):
        assert gm("game", "join", "mc1", f"{player}@example.org", "--name", player, home=home).code == 0
    for _ in range(2):
        assert gm("turn", "run", "mc1", "--now", "--no-render", home=home).code == 0
    conn = sqlite3.connect(home / "gm.db")
    start = json.loads(conn.execute("SELECT state FROM turns WHERE number = 0").fetchone()[0])
    for seat in start["seats"].values():  # the seats as 1.0 made them
        for key in ("routed", "fate"):
            del seat[key]
        seat["treasuries_bought"] = 0
    with conn:
        conn.execute("UPDATE games SET ruleset_version = '1.0'")
        conn.execute("UPDATE turns SET ruleset_version = '1.0'")
        conn.execute(
            "UPDATE turns SET state = ?, state_hash = ? WHERE number = 0", [json.dumps(start), state_hash(start)]
        )
    ran = gm("turn", "verify", "mc1", home=home)
    assert (ran.code, ran.err) == (
        1,
        "mc1: turns 0 to 2: made with mcempires 1.0, installed is 1.2; they cannot be made again "
        "(their stored states were checked against their hashes)\n",
    )
    ran = gm("turn", "run", "mc1", "--now", "--no-render", home=home)
    assert (ran.code, ran.err) == (
        1,
        "Error: game 'mc1' was created with mcempires 1.0, but 1.2 is installed. "
        "Install the matching gm version to run it.\n",
    )
    with conn:  # a stored state changed by hand is still found
        conn.execute("UPDATE turns SET state = replace(state, '\"round\": 2', '\"round\": 9') WHERE number = 1")
    ran = gm("turn", "verify", "mc1", home=home)
    assert ran.err.startswith("mc1: turn 1: the stored state does not match its stored hash\n")
