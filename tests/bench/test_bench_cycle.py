"""bench/bench_cycle.py measures the house a GM runs: its floor is the report as sent, maps and
all, and its mid-season house is played by mail as a real one (issue 32)."""

from __future__ import annotations

import dataclasses
import json
import mailbox
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bench.bench_cycle import (
    TreeMemory,
    accounts,
    bare_pdf,
    floor_html,
    house_mix,
    make_due,
    make_house,
    turn_files,
)
from gm.clock import SystemClock
from gm.home import Home, create_home
from gm.render import stages
from gm.render.worker import Renderer
from gm.services import cycle, games, turnfiles, turns
from gm.services.reports import turn_pages
from gm.store import records
from gm.store.database import open_database

pytestmark = pytest.mark.slow  # a report of each ruleset rendered twice; a house played for two turns


def images(pdf: Path) -> list[tuple[str, ...]]:
    """The images drawn on the PDF's pages, as pdfimages lists them: (type, width, height in
    pixels), in order of size (the page each falls on may differ: gm lays out the turn's pages apart)."""
    listing = subprocess.run(["pdfimages", "-list", str(pdf)], capture_output=True, text=True, check=True).stdout
    return sorted(tuple(line.split()[2:5]) for line in listing.splitlines()[2:])


@pytest.mark.parametrize("ruleset", ["empires", "conqueror", "clash", "mcempires", "imperials"])
def test_the_floor_has_as_many_images_as_the_report_gm_sends(tmp_path, ruleset):
    home = Home(tmp_path / "home")
    create_home(home)
    db = open_database(home.database)
    clock = SystemClock()
    games.create_game(db, clock, "g", ruleset, None, 7)
    for i in range(4 if ruleset in ("clash", "imperials") else 6):
        games.join_game(db, clock, "g", f"p{i}@players.example.org", f"Player {i}")
    turns.run_turn(db, home, clock, "g")
    pages = turn_pages(db, home, "g")
    job = pages.jobs[0]
    sent = tmp_path / "sent.pdf"
    Renderer().make(dataclasses.replace(job, out_path=sent), tuple(str(d) for d in pages.asset_dirs), None)
    floor = tmp_path / "floor.pdf"
    floor.write_bytes(bare_pdf(floor_html(job), job.base_url))

    assert images(sent), "gm's report has its map"
    assert images(floor) == images(sent)


def test_a_mid_season_house_is_played_by_mail_with_press_and_refused_files(tmp_path):
    home = Home(tmp_path / "house")
    names, maildir = make_house(home, 1, seed=1, turn=3)
    db = open_database(home.database)
    running = [records.game_by_name(db, name) for name in names]
    assert {game.ruleset for game in running} == {"empires", "conqueror", "clash", "mcempires", "imperials"}
    assert all(game.turn == 3 for game in running), [(game.name, game.turn) for game in running]
    assert not any(records.unpublished_turns(db, game.id) for game in running)
    verdicts = db.execute("SELECT verdict, count(*) FROM submissions GROUP BY verdict").fetchall()
    assert dict(verdicts).keys() == {"accepted", "rejected"}
    assert db.execute("SELECT count(*) FROM press").fetchone()[0] > 0
    by = [
        entry["by"]
        for (orders,) in db.execute("SELECT orders FROM turns WHERE number = 2")
        for entry in json.loads(orders).values()
    ]
    assert "player" in by and {"robot", "hold", "repeat"} & set(
        by
    )  # a seat refused or silent is played by the NMR policy
    mailed = [message.get_payload() for message in mailbox.Maildir(maildir, create=False)]
    assert all("\nTURN 3\n" in text for text in mailed)
    assert any("PRESS TO" in text for text in mailed) and any("ATTACK THE MOON" in text for text in mailed)
    seats = sum(len(records.seats_of(db, game.id)) for game in running)
    assert len(mailed) < seats * 1.2 and len(mailed) != seats  # some never sent, some sent twice


def test_empires_games_of_32_seats_keep_their_share_of_the_house():
    sixteen = {name: (size, count) for name, size, count in house_mix(1000)}
    thirty_two = {name: (size, count) for name, size, count in house_mix(1000, 32)}

    assert thirty_two["empires"][0] == 32
    assert thirty_two["empires"][0] * thirty_two["empires"][1] == sixteen["empires"][0] * sixteen["empires"][1]
    assert {k: v for k, v in thirty_two.items() if k != "empires"} == {
        k: v for k, v in sixteen.items() if k != "empires"
    }


# A parent that starts a child, which forks a grandchild (as gm starts the fork server, which
# forks the render workers); each prints its pid and sleeps a while.
TREE = """
import os, sys, time
if os.fork() == 0:
    print(os.getpid(), flush=True)
    time.sleep(3)
    os._exit(0)
time.sleep(3)
"""


def test_the_memory_sampler_tells_the_processes_forked_below_another_apart(tmp_path):
    process = subprocess.Popen(
        [sys.executable, "-c", f"import subprocess, sys; subprocess.run([sys.executable, '-c', {TREE!r}])"],
        stdout=subprocess.PIPE,
        text=True,
    )
    memory = TreeMemory(process.pid)
    assert process.stdout is not None
    grandchild = int(process.stdout.readline())
    time.sleep(1)  # the sampler looks four times a second
    memory.stop()
    process.wait()

    below = set(memory.peaks) - {process.pid}
    assert grandchild in memory.forked
    assert len(below) == 2 and memory.forked == {grandchild}  # the child itself is not forked below another


ROOT = Path(__file__).resolve().parents[2]
TIMED = """
import json, sys
from bench.bench_cycle import subreaper, timed
subreaper()
result = timed("run-due", "--home", sys.argv[1])
json.dump({k: result[k] for k in ("cpu", "main_cpu", "stages", "jobs", "workers_started", "output")}, sys.stdout)
"""


def test_the_run_due_is_counted_stage_by_stage_within_the_workers_cpu(tmp_path):
    home = Home(tmp_path / "home")
    create_home(home)
    home.settings_file.write_text(home.settings_file.read_text().replace("workers = 0", "workers = 2", 1))
    db = open_database(home.database)
    clock = SystemClock()
    for name, ruleset in [("c", "clash"), ("e", "empires")]:  # turn pages and a region picture
        games.create_game(db, clock, name, ruleset, None, 7)
        cycle.set_schedule(db, clock, name, "weekly on Friday at 18:00 UTC")
        seated = [games.join_game(db, clock, name, f"{name}{i}@players.example.org", f"Player {i}") for i in range(4)]
        for i, (code, secret) in enumerate(seated):
            (orders,) = turn_files(db, name, code, secret, 1, False)
            turnfiles.submit(
                db, home, clock, orders.encode(), "mail", f"test:{name}:{code}", sender=f"{name}{i}@players.example.org"
            )
    db.conn.close()
    make_due(home)

    # timed as bench_cycle times it: in a process that reaps the fork server (a subreaper)
    timing = subprocess.run(
        [sys.executable, "-c", TIMED, str(home.root)], capture_output=True, text=True, check=True, cwd=ROOT
    )
    result = json.loads(timing.stdout)

    assert result["jobs"] == 8, result["output"]
    assert result["jobs"] == 8 and result["workers_started"] >= 1
    seconds = result["stages"]
    # every report's own pages laid out and drawn, its file stored, its worker's start counted
    assert {"start", "read", "pictures", "layout", "drawing", "overlay", "store", "rest"} <= set(seconds)
    assert set(seconds) <= set(stages.STAGES)
    assert all(value >= 0 for value in seconds.values())
    assert seconds["layout"] > 0 and seconds["drawing"] > 0
    assert sum(seconds.values()) <= result["cpu"] - result["main_cpu"]  # within the workers' CPU
    spent = accounts(result)
    assert spent["not in a stage"] >= 0
    assert sum(spent.values()) == pytest.approx(result["cpu"])
