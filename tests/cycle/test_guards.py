"""Guards a GM relies on (issue 16): gm turn run before the deadline with seats missing, a
deadline in the past, a manual game's deadline, and reports held for credits that are said out
loud (and whose notice never arrives after the report)."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime

from tests.cli.test_game import table_dump
from tests.cycle.test_publish import report_mails
from tests.cycle.test_rundue import clock, duel, mail_home, submit, turns_run  # noqa: F401 - fixtures

AFTER = datetime(2026, 11, 21, 9, 0, tzinfo=UTC)  # after d1's first deadline (Fri 20 Nov 18:00)


def test_turn_run_before_the_deadline_with_seats_missing_needs_now(home, gm, clock, duel, tmp_path):
    submit(gm, home, tmp_path, duel["BR"], "BR", "CLAIM ENG")
    before = table_dump(home)
    ran = gm("turn", "run", "d1", home=home)
    assert ran.code == 1
    assert ran.err == (
        "Error: the deadline of 'd1' (Fri 2026-11-20 18:00 GMT (Europe/London)) has not passed "
        "and 1 seat(s) have sent no orders: FR (Bob). Wait for them or the deadline, or run it "
        "now with --now (they play by the nmr-policy setting).\n"
    )
    assert table_dump(home) == before
    assert gm("turn", "run", "d1", "--now", home=home).code == 0
    assert turns_run(home) == [1]


def test_turn_run_needs_no_now_once_everyone_is_in_or_the_deadline_has_passed(home, gm, clock, duel, tmp_path):
    submit(gm, home, tmp_path, duel["BR"], "BR", "CLAIM ENG")
    submit(gm, home, tmp_path, duel["FR"], "FR", "CLAIM PIC")
    assert gm("turn", "run", "d1", home=home).code == 0  # everyone is in
    clock.when = datetime(2026, 11, 28, 9, 0, tzinfo=UTC)  # the second deadline has passed
    assert gm("turn", "run", "d1", home=home).code == 0
    assert turns_run(home) == [1, 2]


def test_a_deadline_in_the_past_needs_past(home, gm, clock, duel):
    ran = gm("game", "deadline", "d1", "2026-11-01 18:00", home=home)
    assert ran.code == 1 and ran.err == (
        "Error: Sun 2026-11-01 18:00 GMT (Europe/London) has passed already. Give a time to come, or --past to "
        "set it anyway (the turn is then due at once).\n"
    )
    assert gm("game", "deadline", "d1", "2026-11-01 18:00", "--past", home=home).code == 0
    assert gm("turn", "run", "d1", home=home).code == 0  # due at once: no --now needed


def test_a_manual_game_keeps_a_deadline_still_ahead_for_the_next_turn(home, gm, clock, duel, tmp_path):
    assert gm("game", "schedule", "d1", "manual", home=home).code == 0
    assert gm("game", "deadline", "d1", "2026-12-04 18:00", home=home).code == 0
    submit(gm, home, tmp_path, duel["BR"], "BR", "CLAIM ENG")
    submit(gm, home, tmp_path, duel["FR"], "FR", "CLAIM PIC")
    assert gm("turn", "run", "d1", home=home).code == 0  # early: everyone is in
    assert "Deadline Fri 2026-12-04 18:00 UTC" in gm("game", "show", "d1", home=home).out
    refused = gm("turn", "run", "d1", home=home)  # run again by mistake: nobody is in for turn 2
    assert refused.code == 1 and "FR (Bob)" in refused.err and turns_run(home) == [1]
    clock.when = datetime(2026, 12, 5, 9, 0, tzinfo=UTC)
    assert gm("turn", "run", "d1", home=home).code == 0  # the deadline has passed: it runs, and is gone
    assert "Deadline" not in gm("game", "show", "d1", home=home).out


def test_held_reports_are_named_and_a_payment_withdraws_the_waiting_notice(mail_home, gm, clock, duel):
    home = mail_home
    assert gm("credits", "buy", "ann@example.org", "10", "--paid", "20", home=home).code == 0
    clock.when = AFTER
    ran = gm("turn", "run", "d1", home=home)
    assert ran.code == 0
    assert (
        "d1: 1 report(s) held for credits: FR (turn 1); each player got a held notice saying how to pay, "
        "and credit ('gm credits buy' or 'adjust') releases the report"
    ) in ran.out
    waiting = (
        sqlite3.connect(home / "gm.db")
        .execute("SELECT status FROM outbox WHERE kind = 'notice' AND seat = 'FR' AND turn = 1")
        .fetchall()
    )
    assert waiting == [("queued",)]
    assert gm("credits", "buy", "bob@example.org", "10", "--paid", "20", home=home).code == 0
    assert report_mails(home) == [(1, "BR"), (1, "FR")]
    withdrawn = (
        sqlite3.connect(home / "gm.db")
        .execute("SELECT status FROM outbox WHERE kind = 'notice' AND seat = 'FR' AND turn = 1")
        .fetchall()
    )
    assert withdrawn == [("cancelled",)]


def test_a_manual_game_without_a_deadline_needs_now_when_nobody_is_in(home, gm, clock, duel, tmp_path):
    """Issue 29, 6: the README's advice after a crash is to run the same command again; in a
    manual game (no deadline) that second gm turn run played the next turn at once with robots
    for everyone and charged both players for it. Now it publishes what the crash left and stops."""
    assert gm("credits", "buy", "ann@example.org", "10", "--paid", "20", home=home).code == 0
    assert gm("credits", "buy", "bob@example.org", "10", "--paid", "20", home=home).code == 0
    assert gm("game", "schedule", "d1", "manual", home=home).code == 0
    assert "Deadline" not in gm("game", "show", "d1", home=home).out
    submit(gm, home, tmp_path, duel["BR"], "BR", "CLAIM ENG")
    submit(gm, home, tmp_path, duel["FR"], "FR", "CLAIM PIC")
    assert gm("turn", "run", "d1", "--no-render", home=home).code == 0  # as if killed before publishing
    books = ledger(home)
    again = gm("turn", "run", "d1", home=home)  # the same command again, as after a crash
    assert again.code == 1
    assert "d1: turn 1 reports written to" in again.out  # what the crash left is published
    assert again.err == (
        "Error: 'd1' has no deadline and none of its seats has sent orders for turn 2: BR (Ann), FR (Bob). "
        "Wait for their orders, or run it now with --now (they play by the nmr-policy setting).\n"
    )
    assert turns_run(home) == [1] and ledger(home) == books  # no robot turn, nobody charged for one
    before = table_dump(home)
    assert gm("turn", "run", "d1", home=home).code == 1  # and again: nothing at all changes
    assert table_dump(home) == before
    submit(gm, home, tmp_path, duel["BR"], "BR", "")  # no orders but a valid file: BR is in
    assert gm("turn", "run", "d1", home=home).code == 0  # one seat in: the GM's manual run goes ahead
    assert turns_run(home) == [1, 2]
    assert gm("turn", "run", "d1", "--now", home=home).code == 0  # nobody in, and the GM says so
    assert turns_run(home) == [1, 2, 3]


def ledger(home) -> list:
    return sqlite3.connect(home / "gm.db").execute("SELECT * FROM ledger ORDER BY id").fetchall()


def test_turns_run_early_on_a_friday_do_not_push_the_deadline_out(home, gm, clock, duel):
    """Issue 28: three turns run on a Friday before 18:00 left turn 4 due three Fridays out.
    The next deadline is the schedule's next slot after the run (at least the turn-gap later)."""
    clock.when = datetime(2026, 11, 20, 10, 0, tzinfo=UTC)  # Friday morning; due at 18:00
    for _ in range(3):
        assert gm("turn", "run", "d1", "--now", "--no-render", home=home).code == 0
        assert "Deadline Fri 2026-11-27 18:00 GMT (Europe/London)" in gm("game", "show", "d1", home=home).out
        clock.when = clock.when.replace(hour=clock.when.hour + 1)
    assert turns_run(home) == [1, 2, 3]
    # A GM who wants the turns to follow each other at once says so: the next slot, whatever it is.
    assert gm("game", "set", "d1", "turn-gap", "0", home=home).code == 0
    clock.when = datetime(2026, 11, 27, 17, 0, tzinfo=UTC)
    assert gm("turn", "run", "d1", "--now", "--no-render", home=home).code == 0
    assert "Deadline Fri 2026-11-27 18:00 GMT (Europe/London)" in gm("game", "show", "d1", home=home).out
    ran = gm("game", "set", "d1", "turn-gap", "soon", home=home)
    assert (ran.code, ran.err) == (
        1,
        "Error: turn-gap takes a duration such as 90m, 2h or 1d, at most a year, not 'soon'.\n",
    )
