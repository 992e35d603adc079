"""gm turn run/verify/rerun and gm report render, on a real home with real PDFs."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import time

from tests.cli.test_game import table_dump
from tests.cli.test_turnfiles import every_seat_votes_draw, turn_file


def run_turns(gm, home, n: int, render: bool = False):
    for _ in range(n):
        ran = gm("turn", "run", "g1", "--now", *([] if render else ["--no-render"]), home=home)
        assert ran.code == 0, ran.err
    return ran


def test_first_turn_stores_start_and_robots_fill_nmr(home, gm, game, tmp_path):
    orders = tmp_path / "br.txt"
    orders.write_text(turn_file(game["BR"], "CLAIM ENG SCO WAL"))
    assert gm("submit", orders, home=home).code == 0
    ran = gm("turn", "run", "g1", "--no-render", home=home)
    assert ran.code == 0
    assert (
        ran.out.startswith("g1: turn 1 resolved, state ")
        and "no orders from RU, FR, GE; next: Set-up: placing 20 units" in ran.out
    )
    conn = sqlite3.connect(home / "gm.db")
    assert [r[0] for r in conn.execute("SELECT number FROM turns ORDER BY number")] == [0, 1]
    stored = json.loads(conn.execute("SELECT orders FROM turns WHERE number = 1").fetchone()[0])
    assert stored["BR"]["by"] == "player" and stored["RU"]["by"] == "robot"
    facts = json.loads(gm("game", "show", "g1", "--json", home=home).out)
    assert facts["turn"] == 2 and facts["status"] == "running" and facts["last_resolved_turn"] == 1
    # The stale turn-1 file is now refused.
    ran = gm("submit", orders, home=home)
    assert ran.code == 1 and "these orders are for turn 1, which has already been run" in ran.err
    ran = gm("game", "join", "g1", "late@example.org", "--name", "Late", home=home)
    assert ran.code == 1 and "players can join only before it starts" in ran.err


def test_same_seed_same_game_and_verify(tmp_path, gm):
    hashes = []
    for name in ("a", "b"):
        where = tmp_path / name
        gm("init", home=where)
        gm("game", "new", "g1", "--seed", "42", home=where)
        for p in ("P", "Q", "R"):
            gm("game", "join", "g1", f"{p}@example.org", "--name", p, home=where)
        run_turns(gm, where, 5)
        conn = sqlite3.connect(where / "gm.db")
        hashes.append(conn.execute("SELECT group_concat(state_hash) FROM turns ORDER BY number").fetchone()[0])
        ran = gm("turn", "verify", "g1", home=where)
        assert (ran.code, ran.out) == (0, "g1: 5 turn(s) verified, every state hash matches.\n")
    assert hashes[0] == hashes[1]


def test_verify_finds_a_tampered_turn(home, gm, game):
    run_turns(gm, home, 3)
    conn = sqlite3.connect(home / "gm.db")
    state = json.loads(conn.execute("SELECT state FROM turns WHERE number = 2").fetchone()[0])
    state["round"] = 99
    with conn:
        conn.execute("UPDATE turns SET state = ? WHERE number = 2", [json.dumps(state)])
    ran = gm("turn", "verify", "g1", home=home)
    assert ran.code == 1
    assert "g1: turn 2: the stored state does not match its stored hash" in ran.err


def test_rerun_with_corrected_orders_keeps_discarded_in_audit(home, gm, game, tmp_path):
    run_turns(gm, home, 4)
    conn = sqlite3.connect(home / "gm.db")
    old = dict(conn.execute("SELECT number, state_hash FROM turns").fetchall())
    fix = tmp_path / "fix.txt"
    body = gm("orders", "template", "g1", "BR", home=home).out  # a turn-5 form; make it turn 3
    fix.write_text(body.replace("TURN 5", "TURN 3").replace("PASSWORD <your secret>\n", ""))
    ran = gm("turn", "rerun", "g1", "3", "--orders", fix, "--reason", "BR's orders", "--yes", "--no-render", home=home)
    assert ran.code == 0, ran.err
    assert ran.out.startswith(
        "g1: turn 3 is run again; its reports are made anew.\n"
        "g1: turn 4 will be discarded (kept in the audit log); their charges are given back, and they are "
        "played again when their time comes.\n"
        "g1: turn 3 resolved"
    )
    numbers = [r[0] for r in conn.execute("SELECT number FROM turns ORDER BY number")]
    assert numbers == [0, 1, 2, 3]
    new = dict(conn.execute("SELECT number, state_hash FROM turns").fetchall())
    assert new[2] == old[2]
    detail = json.loads(conn.execute("SELECT detail FROM audit WHERE action = 'turn rerun'").fetchone()[0])
    assert [t["number"] for t in detail["discarded"]] == [3, 4]
    assert detail["discarded"][1]["state_hash"] == old[4]
    assert gm("turn", "verify", "g1", home=home).code == 0
    assert conn.execute("SELECT channel FROM submissions WHERE current = 1").fetchall() == [("gm",)]


def test_a_rerun_refusing_its_corrected_orders_says_nothing_was_run_again(home, gm, game, tmp_path):
    """The plan is printed first ("turn 2 is run again"); a correction the rules refuse must then
    say that the turn was not run again, not leave the GM believing it was."""
    run_turns(gm, home, 3)
    before = table_dump(home)
    fix = tmp_path / "fix.txt"
    fix.write_text("GAME g1\nPLAYER BR\nTURN 2\nPLACE RUS 3\nEND\n")
    ran = gm("turn", "rerun", "g1", "2", "--orders", fix, "--reason", "BR's orders", "--yes", home=home)
    assert (ran.code, ran.err) == (
        1,
        f"Error: {fix}: line 4: RUS is not a territory on this map. Turn 2 was not run again and nothing was changed: "
        "correct the file and run the command again.\n",
    )
    assert table_dump(home) == before


def test_rerun_of_a_turn_that_never_ran(home, gm, game):
    run_turns(gm, home, 1)
    ran = gm("turn", "rerun", "g1", "7", "--reason", "a fix", home=home)
    assert (ran.code, ran.err) == (1, "Error: game 'g1' has no resolved turn 7; resolved turns are 1 to 1.\n")


def test_too_few_seats(home, gm):
    gm("game", "new", "solo", home=home)
    gm("game", "join", "solo", "a@example.org", "--name", "A", home=home)
    ran = gm("turn", "run", "solo", "--now", home=home)
    assert (ran.code, ran.err) == (
        1,
        "Error: game 'solo' has 1 seat(s) taken; clash needs at least 2 to start. Seat more players "
        "(gm game join, gm game seat-waiting), or let the robot play the rest: gm game start solo --robots.\n",
    )


def test_finished_game_refuses_turns_and_orders(home, gm, game, tmp_path):
    assert gm("game", "set", "g1", "nmr-limit", "0", home=home).code == 0  # every seat plays to the end
    ran = gm("turn", "run", "g1", "--now", "--no-render", home=home)
    while "is over" not in ran.out:
        ran = gm("turn", "run", "g1", "--now", "--no-render", home=home)
        assert ran.code == 0, ran.err
    before = table_dump(home)
    # --no-render: without it gm turn run first publishes the turns left unpublished above.
    ran = gm("turn", "run", "g1", "--now", "--no-render", home=home)
    assert (ran.code, ran.err) == (1, "Error: game 'g1' is over; there are no more turns to run.\n")
    orders = tmp_path / "late.txt"
    orders.write_text(turn_file(game["BR"], "PASS", turn=""))
    ran = gm("submit", orders, home=home)
    assert ran.code == 1 and "refused: game 'g1' is over; it takes no more orders" in ran.err
    assert table_dump(home) == before
    facts = json.loads(gm("game", "show", "g1", "--json", home=home).out)
    assert facts["status"] == "over" and facts["outcome"]["winners"]
    # A game over waits for no one: gm status listed every seat as missing, and gm game show said
    # it was collecting the turn after its last.
    status = json.loads(gm("status", "--json", home=home).out)
    assert [(row["in"], row["missing"]) for row in status] == [([], [])]
    assert "\n  in: -; missing: -; final: -\n" in gm("status", home=home).out
    shown = gm("game", "show", "g1", home=home).out
    assert shown.splitlines()[1] == "Status over: it takes no more orders" and "collecting" not in shown


def test_two_turn_runs_at_once(home, gm, game):
    """A second process holding the game's lock makes gm turn run refuse, changing nothing."""
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            (
                "import fcntl, sys, time\n"
                f"f = open({str(home / 'locks' / 'g1.lock')!r}, 'a+')\n"
                "fcntl.flock(f, fcntl.LOCK_EX)\nprint('locked', flush=True)\ntime.sleep(30)\n"
            ),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "locked"
        before = table_dump(home)
        ran = gm("turn", "run", "g1", "--now", home=home)
        assert ran.code == 1
        assert ran.err == (
            "Error: another gm process is running a turn of 'g1' right now. Wait for it to finish, then try again.\n"
        )
        assert table_dump(home) == before
    finally:
        holder.kill()
        holder.wait()
    assert gm("turn", "run", "g1", "--now", "--no-render", home=home).code == 0


def test_turn_run_renders_pdf_and_json_per_seat(home, gm, game):
    ran = gm("turn", "run", "g1", "--now", home=home)
    assert ran.code == 0, ran.err
    folder = home / "reports" / "g1" / "1"
    assert sorted(p.name for p in folder.iterdir()) == [
        "BR.json",
        "BR.pdf",
        "FR.json",
        "FR.pdf",
        "GE.json",
        "GE.pdf",
        "RU.json",
        "RU.pdf",
    ]
    assert (folder / "BR.pdf").read_bytes().startswith(b"%PDF")
    report = json.loads((folder / "BR.json").read_text())
    assert report["seat"] == "BR" and report["turn"] == 1 and report["view"]["seat"] == "BR"
    assert "PASSWORD <your secret>" in report["order_form"]
    assert not any(secret in json.dumps(report) for secret in game.values())
    first = (folder / "BR.pdf").read_bytes()
    time.sleep(1.1)
    ran = gm("report", "render", "g1", "--turn", "1", home=home)
    assert ran.code == 0 and (folder / "BR.pdf").read_bytes() == first


def test_a_turn_run_without_a_mail_address_says_no_report_was_mailed(home, gm, game):
    """A new GM ran the first turns before setting [mail] address: the reports were written and
    nothing said that none went to the players, nor that they never would."""
    ran = gm("turn", "run", "g1", "--now", home=home)
    assert ran.code == 0, ran.err
    assert ran.out.splitlines()[2:] == [
        "Mail: none: gm.toml has no [mail] address, so no report was mailed; the players can read them on the "
        "portal (gm serve). Set [mail] address (docs/mail.md) and the next turn's reports go by mail; a player "
        "gets the last one by mail with a RESEND turn file."
    ]
    settings = home / "gm.toml"
    settings.write_text(settings.read_text().replace('address = ""', 'address = "gm@example.org"', 1))
    ran = gm("turn", "run", "g1", "--now", home=home)
    assert ran.code == 0 and "Mail: none" not in ran.out and "report(s) held for credits" in ran.out


def test_the_last_turn_says_the_game_is_over_not_what_comes_next(home, gm, game, tmp_path):
    """A game ended by a draw said 'next: Set-up: placing 20 units' above 'g1 is over.'"""
    every_seat_votes_draw(gm, home, game, tmp_path)
    ran = gm("turn", "run", "g1", "--no-render", home=home)
    assert ran.code == 0, ran.err
    assert ran.out.startswith("g1: turn 1 resolved, state ") and ran.out.endswith("; the game is over\ng1 is over.\n")
    assert gm("status", home=home).out.startswith("g1 (clash) over, after turn 1\n")
