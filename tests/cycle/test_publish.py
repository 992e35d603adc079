"""Publishing a turn exactly once (issue 14, items 1-4): every seat's report recorded and every
report mail queued in one step, found and finished by gm run-due and gm turn run whatever
command was cut short, and named by gm status until then."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime

import pytest

from tests.cycle.test_rundue import clock, duel, eml, mail_home, turns_run  # noqa: F401 - fixtures

DUE = datetime(2026, 11, 21, 9, 0, tzinfo=UTC)  # after d1's first deadline


def sql(home, statement: str, *params) -> list:
    conn = sqlite3.connect(home / "gm.db")
    try:
        with conn:
            return conn.execute(statement, params).fetchall()
    finally:
        conn.close()


def die_when(home, trigger: str) -> None:
    """A 'kill' at an exact write: a trigger that fails that statement. gm commits what it
    committed before, as a killed process would have."""
    sql(home, f"CREATE TRIGGER killed {trigger} BEGIN SELECT RAISE(FAIL, 'killed here'); END")


def revive(home) -> None:
    sql(home, "DROP TRIGGER killed")


def crashes(gm, *args, home) -> None:
    """Run a gm command that dies at the trigger (in-process, the error escapes main)."""
    with pytest.raises(sqlite3.Error, match="killed here"):
        ran = gm(*args, home=home)
        raise AssertionError(f"did not die: {ran}")


def report_mails(home, game="d1") -> list:
    return sql(
        home,
        """SELECT o.turn, o.seat FROM outbox o JOIN games g ON g.id = o.game_id
                        WHERE g.name = ? AND o.kind = 'report' AND o.status IN ('queued', 'sent')
                        ORDER BY 1, 2""",
        game,
    )


def recorded(home, game="d1") -> list:
    return sql(
        home,
        "SELECT r.turn, r.seat FROM reports r JOIN games g ON g.id = r.game_id WHERE g.name = ? ORDER BY 1, 2",
        game,
    )


@pytest.fixture
def paid(mail_home, gm, duel):
    for player in ("ann", "bob"):
        assert gm("credits", "buy", f"{player}@example.org", "10", "--paid", "20", home=mail_home).code == 0
    return mail_home


def test_killed_before_the_mails_are_queued_the_next_run_queues_them(paid, gm, clock):
    """Item 1: the reports were recorded, the mails not: that turn is not published yet."""
    home = paid
    die_when(home, "BEFORE INSERT ON outbox WHEN NEW.kind = 'report'")
    clock.when = DUE
    crashes(gm, "run-due", home=home)
    assert turns_run(home) == [1] and report_mails(home) == []
    assert "problem: turn 1 not published" in gm("status", home=home).out
    revive(home)
    ran = gm("run-due", home=home)
    assert "d1: turn 1 was run but not published" in ran.out and "d1: 2 report mail(s) queued" in ran.out
    assert report_mails(home) == [(1, "BR"), (1, "FR")]
    assert gm("run-due", home=home).out == "Nothing is due.\n"
    assert "problem" not in gm("status", home=home).out


def test_killed_between_two_report_rows_every_seat_gets_its_report(paid, gm, clock):
    """Item 2: recording the reports is one step, not one row at a time."""
    home = paid
    die_when(home, "BEFORE INSERT ON reports WHEN (SELECT count(*) FROM reports) >= 1")
    clock.when = DUE
    crashes(gm, "run-due", home=home)
    assert len(recorded(home)) <= 1
    assert "problem: turn 1 not published" in gm("status", home=home).out
    revive(home)
    gm("run-due", home=home)
    assert recorded(home) == [(1, "BR"), (1, "FR")]
    assert report_mails(home) == [(1, "BR"), (1, "FR")]


def test_turn_run_after_a_crash_publishes_the_crashed_turn_first(paid, gm, clock, monkeypatch):
    """Item 3: killed just after the commit; the GM runs gm turn run again."""
    from gm.services import reports

    home = paid
    real = reports.start_render

    def killed(*args, **kwargs):
        raise SystemExit("killed")

    # Publishing renders through start_render: killed there.
    monkeypatch.setattr(reports, "start_render", killed)
    gm("turn", "run", "--now", "d1", home=home)
    assert turns_run(home) == [1] and recorded(home) == []
    monkeypatch.setattr(reports, "start_render", real)
    ran = gm("turn", "run", "--now", "d1", home=home)
    assert ran.code == 0, ran.err
    assert ran.out.index("turn 1") < ran.out.index("turn 2 resolved")
    assert turns_run(home) == [1, 2]
    assert recorded(home) == [(1, "BR"), (1, "FR"), (2, "BR"), (2, "FR")]
    assert report_mails(home) == recorded(home)
    assert (home / "reports" / "d1" / "1" / "FR.pdf").exists()


def test_run_due_publishes_every_unpublished_turn_of_every_game(paid, gm, clock):
    """Item 3: not only the last turn of a game, and in every game, before anything new runs."""
    home = paid
    assert gm("game", "new", "d2", "--scenario", "lowlands", "--seed", "5", home=home).code == 0
    for name in ("Cy", "Di"):
        assert gm("game", "join", "d2", f"{name.lower()}@example.org", "--name", name, home=home).code == 0
        assert gm("credits", "buy", f"{name.lower()}@example.org", "10", "--paid", "20", home=home).code == 0
    for game in ("d1", "d1", "d2"):
        assert gm("turn", "run", "--now", game, "--no-render", home=home).code == 0
    assert "problem: turn 1 not published" in gm("status", home=home).out
    rows = json.loads(gm("status", "--json", home=home).out)
    assert {r["game"]: r["unpublished"] for r in rows} == {"d1": [1, 2], "d2": [1]}
    ran = gm("run-due", home=home)
    assert ran.code == 0, ran.err
    assert recorded(home, "d1") == report_mails(home, "d1") == [(1, "BR"), (1, "FR"), (2, "BR"), (2, "FR")]
    assert recorded(home, "d2") == report_mails(home, "d2") == [(1, "BR"), (1, "FR")]
    assert all(r["unpublished"] == [] for r in json.loads(gm("status", "--json", home=home).out))


def test_one_publish_path_turn_run_then_run_due(paid, gm, clock):
    """Item 4: a turn gm turn run left half-published is finished by gm run-due, each mail once."""
    home = paid
    die_when(home, "BEFORE INSERT ON outbox WHEN NEW.kind = 'report'")
    crashes(gm, "turn", "run", "--now", "d1", home=home)
    revive(home)
    ran = gm("run-due", home=home)
    assert "d1: turn 1 was run but not published" in ran.out
    assert report_mails(home) == [(1, "BR"), (1, "FR")]
    assert "mail: sent 2" in ran.out
    gm("turn", "run", "--now", "d1", home=home)
    assert report_mails(home) == [(1, "BR"), (1, "FR"), (2, "BR"), (2, "FR")]


def test_one_publish_path_run_due_then_turn_run(paid, gm, clock):
    """Item 4, the other way round: gm turn run finishes what gm run-due left, before turn 2."""
    home = paid
    die_when(home, "BEFORE INSERT ON outbox WHEN NEW.kind = 'report'")
    clock.when = DUE
    crashes(gm, "run-due", home=home)
    revive(home)
    ran = gm("turn", "run", "--now", "d1", home=home)
    assert ran.code == 0, ran.err
    assert report_mails(home) == [(1, "BR"), (1, "FR"), (2, "BR"), (2, "FR")]


def test_a_report_mail_queued_before_a_new_rendering_still_goes_out(paid, gm, clock):
    """A GM changes the report's look and renders again before the mail is sent: the player
    gets the report as it is now, and the GM is told."""
    home = paid
    assert gm("turn", "run", "--now", "d1", home=home).code == 0
    before = (home / "reports" / "d1" / "1" / "BR.pdf").read_bytes()
    from gm.render.environment import shared_templates_dir

    css = (shared_templates_dir() / "report.css").read_text() + "\nh1 { color: #802020; }\n"
    (home / "templates" / "report.css").write_text(css)
    assert gm("report", "render", "d1", "--turn", "1", home=home).code == 0
    now = (home / "reports" / "d1" / "1" / "BR.pdf").read_bytes()
    assert now != before
    ran = gm("mail", "send", home=home)
    assert ran.code == 0, ran.err
    assert "Sent 2 mail(s)" in ran.out
    assert "report was rendered again after it was queued; the new rendering was sent" in ran.out
    [ann] = [m for m in eml(home) if m["To"] == "Ann <ann@example.org>"]
    pdf, kit, form = ann.iter_attachments()  # the report, its turn kit, and its order form as text
    assert pdf.get_content() == now and form.get_content_type() == "text/plain"
    assert kit.get_filename() == "d1-1-BR.html" and kit.get_content_type() == "text/html"


def test_a_report_mail_of_a_turn_run_again_is_never_sent(paid, gm, clock, tmp_path):
    """The guard stays: a mail queued for a turn that was re-run is cancelled, not filled with
    the new turn's report."""
    home = paid
    assert gm("turn", "run", "--now", "d1", home=home).code == 0
    assert gm("turn", "run", "--now", "d1", home=home).code == 0
    assert gm("turn", "rerun", "d1", "1", "--reason", "a fix", "--yes", home=home).code == 0
    statuses = sql(home, "SELECT turn, seat, status FROM outbox WHERE kind = 'report' ORDER BY id")
    assert statuses[:4] == [
        (1, "BR", "cancelled"),
        (1, "FR", "cancelled"),
        (2, "BR", "cancelled"),
        (2, "FR", "cancelled"),
    ]
    assert report_mails(home) == [(1, "BR"), (1, "FR")]
    ran = gm("mail", "send", home=home)
    assert (ran.code, ran.out.splitlines()[-1]) == (
        0,
        f"Sent 2 mail(s) into {home / 'outbox'}; 0 to try again; 0 failed.",
    )


def test_a_rerun_says_what_it_discards_asks_and_its_mails_say_why(paid, gm, clock, tmp_path):
    """Issue 28: gm turn rerun dropped later turns silently and mailed the re-run turn's reports,
    without a word, to players who already had the next one. It says what it discards and needs
    --yes (no terminal to ask at), and the mails say it is a re-run, why, and which turns are void;
    the notices about discarded turns that had not gone yet never go."""
    from tests.cli.test_game import table_dump

    home = paid
    assert gm("game", "set", "d1", "nmr-limit", "0", home=home).code == 0  # nobody drops out meanwhile
    for _ in range(3):
        assert gm("turn", "run", "--now", "d1", home=home).code == 0
    assert gm("mail", "send", home=home).code == 0
    # One report mail of turn 3 has not gone yet, nor a reminder for turn 4.
    sql(home, "UPDATE outbox SET status = 'queued' WHERE id = (SELECT max(id) FROM outbox WHERE turn = 3)")
    sql(
        home,
        "INSERT INTO outbox (kind, game_id, seat, turn, recipient, recipient_name, subject, body, attachments, "
        "message_id, refs, status, attempts, next_attempt, queued) SELECT 'reminder', id, 'FR', 4, 'bob@example.org', "
        "'Bob', 'd1: turn 4 is due', '', '[]', '<r@x>', '[]', 'queued', 0, 't', 't' FROM games",
    )
    before = table_dump(home)
    ran = gm("turn", "rerun", "d1", "2", "--reason", "FR's orders were lost", home=home)
    assert (ran.code, ran.err) == (
        1,
        "Error: re-running turn 2 discards turns after it; nothing was changed. Give --yes to do it.\n",
    )
    assert ran.out == (
        "d1: turn 2 is run again; its reports are made anew.\n"
        "d1: turn 3 will be discarded (kept in the audit log); their charges are given back, and they are "
        "played again when their time comes.\n"
        "d1: players already have the report mails of turns 2, 3; the new turn 2 report mails say it was "
        "run again, and why.\n"
    )
    assert table_dump(home) == before
    assert gm("turn", "rerun", "d1", "2", "--yes", home=home).code == 2  # --reason is required
    ran = gm("turn", "rerun", "d1", "2", "--reason", "FR's orders were lost", "--yes", home=home)
    assert ran.code == 0, ran.err
    stale = sql(home, "SELECT kind, turn, status FROM outbox WHERE turn >= 3 AND status != 'sent' ORDER BY id")
    assert stale == [("report", 3, "cancelled"), ("reminder", 4, "cancelled")]
    assert gm("mail", "send", home=home).code == 0
    again = [m for m in eml(home) if m["Subject"] == "d1: Set-up: placing 20 units (turn 2), run again"]
    assert sorted(m["To"] for m in again) == ["Ann <ann@example.org>", "Bob <bob@example.org>"]
    body = " ".join(again[0].get_body().get_content().split())
    assert "The game master has run turn 2 again: FR's orders were lost." in body
    assert "Turn 3 was discarded: forget that report." in body
    assert "send your orders for turn 3 again" in body
