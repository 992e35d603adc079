"""A human seat plays Conqueror! by turn files through the gm command, beside AI nations."""

from __future__ import annotations

import json
import sqlite3

from gm_games.conqueror import ruleset

from gm.services.demo import demo_seats


def join(gm, home, game: str, email: str, name: str) -> tuple[str, str]:
    ran = gm("game", "join", game, email, "--name", name, home=home)
    assert ran.code == 0, ran.err
    line = next(entry for entry in ran.out.splitlines() if entry.startswith("Secret for "))
    code, secret = line.removeprefix("Secret for ").split(": ")
    return code, secret


def form(gm, home, tmp_path, game: str, seat: str, secret: str, *extra: str) -> str:
    """The prefilled order form for the seat, with its secret and extra orders written in."""
    path = tmp_path / f"{seat}.txt"
    assert gm("orders", "template", game, seat, "-o", path, home=home).code == 0
    text = path.read_text().replace("<your secret>", secret)
    text = text.replace("\nEND", "".join(f"\n{line}" for line in extra) + "\nEND")
    path.write_text(text)
    return str(path)


def test_one_player_and_the_ai_fill_the_rest(gm, home, tmp_path):
    assert gm("game", "new", "cq", "--ruleset", "conqueror", "--seed", "3", home=home).code == 0
    seat, secret = join(gm, home, "cq", "ann@example.org", "Ann")
    assert seat == "EN"
    # One seated player is enough: seven AI nations take the other seats of the eight.
    orders = form(gm, home, tmp_path, "cq", seat, secret, "ATTACK WES CNW 5")
    ran = gm("submit", orders, home=home)
    assert (ran.code, ran.out.strip()) == (0, f"{orders}: accepted 2 orders for EN in cq, turn 1")
    ran = gm("turn", "run", "cq", "--now", "--no-render", home=home)
    assert ran.code == 0, ran.err
    assert ran.out.startswith("cq: turn 1 resolved") and "robot" not in ran.out

    facts = json.loads(gm("game", "show", "cq", "--json", home=home).out)
    state = facts["state"]
    assert [s["code"] for s in facts["seats"]] == ["EN"]
    assert state["seating"] == ["EN", "BY", "RU", "AS", "IT", "DK", "FR", "MO"]
    assert [c for c in state["seating"] if state["seats"][c]["ai"]] == state["seating"][1:]
    # The player's attack was fought; the AI nations moved and attacked as well.
    conn = sqlite3.connect(home / "gm.db")
    events = json.loads(conn.execute("SELECT events FROM turns WHERE number = 1").fetchone()[0])
    battles = [e["data"] for e in events if e["kind"] == "battle"]
    assert any(b["attacker"] == "EN" and b["to"] == "CNW" for b in battles)
    assert {b["attacker"] for b in battles} - {"EN"}
    stored = json.loads(conn.execute("SELECT orders FROM turns WHERE number = 1").fetchone()[0])
    assert list(stored) == ["EN"] and stored["EN"]["by"] == "player"

    # A second turn: a bad file is refused line by line, a good one accepted.
    bad = form(gm, home, tmp_path, "cq", seat, secret, *["MOVE WES WES 1"] * 6)
    ran = gm("submit", bad, home=home)
    assert ran.code == 1 and "only 5 move or attack orders a turn: line" in ran.err
    good = form(gm, home, tmp_path, "cq", seat, secret, "BUY WES 1")
    assert gm("submit", good, home=home).code == 0
    assert gm("turn", "run", "cq", "--now", home=home).code == 0
    report = json.loads((home / "reports" / "cq" / "2" / "EN.json").read_text())
    assert report["view"]["ruleset"] == "conqueror" and len(report["view"]["seats"]) == 8
    assert (home / "reports" / "cq" / "2" / "EN.pdf").read_bytes().startswith(b"%PDF")

    # The rest of the game by NMR (robot orders for the player), then verify every turn.
    while json.loads(gm("game", "show", "cq", "--json", home=home).out)["status"] != "over":
        assert gm("turn", "run", "cq", "--now", "--no-render", home=home).code == 0
    facts = json.loads(gm("game", "show", "cq", "--json", home=home).out)
    assert facts["turn_label"] == "Game over" and facts["outcome"]["winners"]
    ran = gm("turn", "verify", "cq", home=home)
    assert (ran.code, ran.out) == (0, "cq: 24 turn(s) verified, every state hash matches.\n")


def test_the_demo_seats_eight_for_conqueror_and_four_for_clash():
    assert (demo_seats("conqueror"), demo_seats("clash")) == (8, 4)


def test_the_last_turn_run_again_ends_the_game_the_same_way(gm, home, tmp_path):
    # The Vale with a game limit of 2 turns, two players sending nothing (the robot plays them).
    # Run again, the last turn ends the game once more with the same winners, scores and state;
    # a run after the end resolves nothing (rule D-CQ-9: "the game is over no matter what").
    scenario = tmp_path / "vale2.toml"
    scenario.write_text(ruleset.scenario_text("vale").replace("turns = 12", "turns = 2"))
    assert "turns = 2" in scenario.read_text()
    assert (
        gm("game", "new", "cq2", "--ruleset", "conqueror", "--scenario", scenario, "--seed", "5", home=home).code == 0
    )
    join(gm, home, "cq2", "ann@example.org", "Ann")
    join(gm, home, "cq2", "ben@example.org", "Ben")
    for _ in range(2):
        assert gm("turn", "run", "cq2", "--now", "--no-render", home=home).code == 0
    first = json.loads(gm("game", "show", "cq2", "--json", home=home).out)
    assert first["status"] == "over" and first["turn_label"] == "Game over"
    ran = gm("turn", "rerun", "cq2", "2", "--reason", "the last turn again", "--yes", "--no-render", home=home)
    assert ran.code == 0, ran.err
    again = json.loads(gm("game", "show", "cq2", "--json", home=home).out)
    assert again["status"] == "over" and again["outcome"] == first["outcome"] and again["state"] == first["state"]
    gm("turn", "run", "cq2", "--now", "--no-render", home=home)
    after = json.loads(gm("game", "show", "cq2", "--json", home=home).out)
    assert after["state"] == first["state"] and after["outcome"] == first["outcome"]
    ran = gm("turn", "verify", "cq2", home=home)
    assert (ran.code, ran.out) == (0, "cq2: 2 turn(s) verified, every state hash matches.\n")
