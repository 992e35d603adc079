"""Ctrl-C in a gm command: one line that says which command stopped, at which step, and that
nothing is left half-done; exit 130, no traceback."""

from __future__ import annotations

import sqlite3

from gm.services import publish, turns
from gm.store import records


def half_done(home) -> str:
    return (
        "Nothing is left half-done: each change commits whole or not at all (a turn is resolved and stored, "
        "or not at all; one stored but not yet published is published by the next gm turn run or gm run-due). "
        f"gm status --home {home} shows where each game stands.\n"
    )


def ctrl_c(*args, **kwargs):
    raise KeyboardInterrupt


def stored_turns(home) -> list[int]:
    with sqlite3.connect(home / "gm.db") as conn:
        return [n for (n,) in conn.execute("SELECT number FROM turns ORDER BY number")]


def test_ctrl_c_while_resolving_says_so_and_stores_nothing(home, gm, game, monkeypatch):
    def ctrl_c_before_commit(point: str) -> None:
        if point == "turn:before-commit":  # resolved, charged, every row written: not committed
            raise KeyboardInterrupt

    monkeypatch.setattr(turns, "crash_point", ctrl_c_before_commit)
    ran = gm("turn", "run", "g1", "--now", "--no-render", home=home)
    assert (ran.code, ran.out) == (130, "")
    assert ran.err == f"Interrupted: gm turn run stopped while resolving turn 1. {half_done(home)}"
    assert stored_turns(home) == []  # not even the starting position (turn 0), stored with turn 1
    monkeypatch.undo()
    assert gm("turn", "run", "g1", "--now", "--no-render", home=home).code == 0  # and it runs whole
    assert stored_turns(home) == [0, 1]


def test_ctrl_c_while_publishing_leaves_the_turn_stored_for_the_next_run(home, gm, game, monkeypatch):
    real = publish.publish
    monkeypatch.setattr(publish, "publish", ctrl_c)
    ran = gm("turn", "run", "g1", "--now", home=home)
    assert ran.code == 130
    assert ran.err == (
        f"Interrupted: gm turn run stopped while rendering turn 1's reports and queueing their mails. {half_done(home)}"
    )
    assert stored_turns(home) == [0, 1]
    monkeypatch.setattr(publish, "publish", real)
    ran = gm("turn", "run", "g1", home=home)  # before the deadline: it publishes turn 1, resolves nothing
    assert ran.code == 1 and "g1: turn 1 reports written to" in ran.out
    assert stored_turns(home) == [0, 1]


def test_ctrl_c_in_a_command_without_steps_names_the_command(home, gm, game, monkeypatch):
    monkeypatch.setattr(records, "all_games", ctrl_c)
    ran = gm("game", "list", home=home)
    assert (ran.code, ran.err) == (130, f"Interrupted: gm game list stopped. {half_done(home)}")
