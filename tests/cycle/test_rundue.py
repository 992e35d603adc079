"""gm run-due and gm status with a moving clock: deadlines, grace, early runs, holds, absences,
NMR drop-outs with standbys, the spike guard, overlapping runs, and a crash before publishing."""

from __future__ import annotations

import email
import email.policy
import json
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime, timedelta

import pytest

import gm.cli.common
from gm.clock import FixedClock
from tests.cli.test_game import table_dump
from tests.cli.test_turnfiles import turn_file

START = datetime(2026, 11, 16, 12, 0, tzinfo=UTC)  # Monday


@pytest.fixture
def clock(monkeypatch):
    fixed = FixedClock(START)
    monkeypatch.setattr(gm.cli.common, "CLOCK", fixed)
    return fixed


@pytest.fixture
def duel(home, gm, clock):
    """A 2-seat lowlands game on a weekly Friday 18:00 London schedule; returns the secrets."""
    assert gm("game", "new", "d1", "--scenario", "lowlands", "--seed", "3", home=home).code == 0
    secrets = {}
    for name in ("Ann", "Bob"):
        out = gm("game", "join", "d1", f"{name.lower()}@example.org", "--name", name, home=home).out
        code, secret = (
            next(entry for entry in out.splitlines() if entry.startswith("Secret for "))
            .removeprefix("Secret for ")
            .split(": ")
        )
        secrets[code] = secret
    ran = gm("game", "schedule", "d1", "weekly on Friday at 18:00 Europe/London", home=home)
    assert ran.code == 0 and ran.out.splitlines()[1] == "  Fri 2026-11-20 18:00 GMT (Europe/London)"
    assert len(ran.out.splitlines()) == 6
    # Most tests here let nobody send orders; the NMR-spike guard has its own test.
    gm("game", "set", "d1", "nmr-spike", "100", home=home)
    # The game started when its second seat was taken. Where the home mails (mail_home), its
    # start mails go now and are put away (tests/cycle/test_starting.py holds them), so each
    # test here reads only the mails it makes.
    if sqlite3.connect(home / "gm.db").execute("SELECT count(*) FROM outbox").fetchone()[0]:
        assert gm("mail", "send", home=home).code == 0
        for sent in (home / "outbox").glob("*.eml"):
            sent.unlink()
    return secrets


def turns_run(home, game="d1") -> list[int]:
    conn = sqlite3.connect(home / "gm.db")
    return [
        r[0]
        for r in conn.execute(
            "SELECT t.number FROM turns t JOIN games g ON g.id = t.game_id WHERE g.name = ? AND t.number >= 1 ORDER BY 1",
            [game],
        )
    ]


def show(gm, home, game="d1") -> dict:
    return json.loads(gm("game", "show", game, "--json", home=home).out)


def submit(gm, home, tmp_path, secret, seat, body, final=False):
    path = tmp_path / f"{seat}.txt"
    path.write_text(turn_file(secret, ("FINAL\n" if final else "") + body, seat=seat, game="d1", turn=""))
    ran = gm("submit", path, home=home)
    assert ran.code == 0, ran.err


def test_deadline_grace_and_idempotence(home, gm, clock, duel):
    gm("game", "set", "d1", "grace", "2h", home=home)
    clock.when = datetime(2026, 11, 20, 19, 59, tzinfo=UTC)
    assert gm("run-due", home=home).out == "d1: sent late to BR, FR\n"
    assert gm("run-due", home=home).out == "Nothing is due.\n"
    clock.when = datetime(2026, 11, 20, 20, 0, tzinfo=UTC)
    ran = gm("run-due", home=home)
    assert ran.code == 0 and "d1: turn 1 run (deadline passed)" in ran.out
    assert "d1: turn 1 reports written to" in ran.out
    assert gm("run-due", home=home).out == "Nothing is due.\n"
    assert turns_run(home) == [1]
    assert show(gm, home)["deadline"] == "Fri 2026-11-27 18:00 GMT (Europe/London)"


def test_dry_run_changes_nothing(home, gm, clock, duel):
    clock.when = datetime(2026, 11, 21, 9, 0, tzinfo=UTC)
    before = table_dump(home)
    ran = gm("run-due", "--dry-run", home=home)
    assert ran.out == "d1: would run turn 1 (deadline passed)\n"
    assert table_dump(home) == before


def test_early_processing_takes_the_next_slot_after_the_run(home, gm, clock, duel, tmp_path):
    gm("game", "set", "d1", "early-delay", "30m", home=home)
    submit(gm, home, tmp_path, duel["BR"], "BR", "CLAIM ENG", final=True)
    clock.when = START + timedelta(minutes=10)
    submit(gm, home, tmp_path, duel["FR"], "FR", "CLAIM BEL", final=True)
    clock.when = START + timedelta(minutes=39)
    assert gm("run-due", home=home).out == "Nothing is due.\n"
    clock.when = START + timedelta(minutes=40)
    ran = gm("run-due", home=home)
    assert "d1: turn 1 run (every active seat sent final orders)" in ran.out
    # Issue 28: the schedule's first slot at least half a week after the run (Monday 12:40), not
    # the slot after the old deadline (which left turns run early due further and further out).
    assert show(gm, home)["deadline"] == "Fri 2026-11-20 18:00 GMT (Europe/London)"


def test_hold_and_release(home, gm, clock, duel):
    gm("game", "hold", "d1", home=home)
    clock.when = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
    assert gm("run-due", home=home).out == "Nothing is due.\n"
    assert "HELD" in gm("status", home=home).out
    gm("game", "release", "d1", home=home)
    assert "d1: turn 1 run" in gm("run-due", home=home).out
    # Run late: the next deadline is the next slot after now, not one in the past.
    assert show(gm, home)["deadline"] == "Fri 2026-11-27 18:00 GMT (Europe/London)"


def test_push_one_deadline(home, gm, clock, duel):
    assert (
        gm("game", "deadline", "d1", "2026-11-23 09:00", home=home).out
        == "Deadline of d1: Mon 2026-11-23 09:00 GMT (Europe/London)\n"
    )
    clock.when = datetime(2026, 11, 21, 9, 0, tzinfo=UTC)
    assert gm("run-due", home=home).out == "Nothing is due.\n"
    clock.when = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
    assert "turn 1 run" in gm("run-due", home=home).out
    assert show(gm, home)["deadline"] == "Fri 2026-11-27 18:00 GMT (Europe/London)"


def test_reminders_and_late_notices_go_to_the_right_seats_once(home, gm, clock, duel, tmp_path):
    gm("game", "set", "d1", "grace", "1h", home=home)
    submit(gm, home, tmp_path, duel["BR"], "BR", "CLAIM ENG")
    clock.when = datetime(2026, 11, 19, 17, 0, tzinfo=UTC)
    assert gm("run-due", home=home).out == "Nothing is due.\n"
    clock.when = datetime(2026, 11, 19, 18, 30, tzinfo=UTC)
    assert gm("run-due", home=home).out == "d1: sent reminder to FR\n"
    clock.when = datetime(2026, 11, 19, 20, 0, tzinfo=UTC)
    assert gm("run-due", home=home).out == "Nothing is due.\n"
    clock.when = datetime(2026, 11, 20, 18, 10, tzinfo=UTC)
    assert gm("run-due", home=home).out == "d1: sent late to FR\n"
    clock.when = datetime(2026, 11, 20, 19, 0, tzinfo=UTC)
    assert "turn 1 run" in gm("run-due", home=home).out


def test_nmr_countdown_drop_out_and_standby(home, gm, clock, duel, tmp_path):
    gm("game", "set", "d1", "nmr-limit", "2", home=home)
    assert (
        gm("game", "standby", "d1", "zed@example.org", "--name", "Zed", home=home).out
        == "Zed <zed@example.org> is standby number 1 for d1.\n"
    )
    friday = datetime(2026, 11, 20, 18, 0, tzinfo=UTC)
    outputs = []
    for week in range(2):
        submit(gm, home, tmp_path, duel["BR"], "BR", "CLAIM ENG" if week == 0 else "PLACE ENG 20")
        clock.when = friday + timedelta(weeks=week)
        outputs.append(gm("run-due", home=home).out)
    assert "FR (Bob) dropped out after 2 missed turns in a row." in outputs[1]
    line = next(entry for entry in outputs[1].splitlines() if "standby Zed" in entry)
    assert line.startswith("d1: FR is now played by standby Zed <zed@example.org> from turn 3; secret for FR: ")
    new_secret = line.rsplit(": ", 1)[1]
    seats = {s["code"]: s for s in show(gm, home)["seats"]}
    assert seats["FR"]["email"] == "zed@example.org" and seats["FR"]["status"] == "active"
    report = json.loads((home / "reports" / "d1" / "2" / "FR.json").read_text())
    assert report["nmr"] == {"missed": 2, "limit": 2, "left": 0, "played_by": "robot"}
    assert json.loads((home / "reports" / "d1" / "2" / "BR.json").read_text())["nmr"]["played_by"] is None
    assert report["notices"] == ["From turn 3 this seat is played by Zed (took over from Bob after NMRs)."]
    assert json.loads((home / "reports" / "d1" / "1" / "FR.json").read_text())["nmr"]["left"] == 1
    submit(gm, home, tmp_path, new_secret, "FR", "PASS")
    path = tmp_path / "old.txt"
    path.write_text(turn_file(duel["FR"], "PASS", seat="FR", game="d1", turn=""))
    assert "wrong password for player FR" in gm("submit", path, home=home).err


def test_nmr_spike_guard(home, gm, clock, duel):
    gm("game", "set", "d1", "nmr-spike", "50", home=home)
    clock.when = datetime(2026, 11, 21, 9, 0, tzinfo=UTC)
    ran = gm("run-due", home=home)
    assert (
        ran.err
        == "Warning: d1: turn 1 not run: 2 of 2 seats sent no orders: held for the GM (is mail intake working?)\n"
    )
    assert turns_run(home) == []
    assert "problem: 2 of 2 seats sent no orders" in gm("status", home=home).out
    assert gm("turn", "run", "d1", "--no-render", home=home).code == 0  # the GM decides


def test_absent_seat_plays_standing_orders_and_is_not_missing(home, gm, clock, duel, tmp_path):
    submit(gm, home, tmp_path, duel["BR"], "BR", "CLAIM ENG")
    ran = gm("game", "absent", "d1", "fr", "2026-11-19", "2026-11-30", home=home)
    assert (
        ran.out
        == "FR of d1 is away from Thu 2026-11-19 00:00 GMT (Europe/London) to Mon 2026-11-30 00:00 GMT (Europe/London) (standing).\n"
    )
    clock.when = datetime(2026, 11, 20, 18, 0, tzinfo=UTC)
    assert "turn 1 run" in gm("run-due", home=home).out
    conn = sqlite3.connect(home / "gm.db")
    orders = json.loads(conn.execute("SELECT orders FROM turns WHERE number = 1").fetchone()[0])
    assert orders["FR"]["by"] == "absent"


def test_absence_pushes_the_deadline_once(home, gm, clock, duel, tmp_path):
    gm("game", "set", "d1", "absence-policy", "push", home=home)
    gm("game", "absent", "d1", "FR", "2026-11-19", "2026-11-22 12:00", home=home)
    clock.when = datetime(2026, 11, 20, 18, 0, tzinfo=UTC)
    ran = gm("run-due", home=home)
    assert ran.out.startswith("d1: deadline moved to Sun 2026-11-22 12:01 GMT (Europe/London) for FR's absence")
    assert turns_run(home) == []


def test_overlapping_runs(home, gm, clock, duel):
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            (
                "import fcntl, time\n"
                f"f = open({str(home / 'locks' / 'run-due.lock')!r}, 'a+')\n"
                "fcntl.flock(f, fcntl.LOCK_EX)\nprint('locked', flush=True)\ntime.sleep(30)\n"
            ),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "locked"
        clock.when = datetime(2026, 11, 21, 9, 0, tzinfo=UTC)
        ran = gm("run-due", home=home)
        assert ran.out == "another gm run-due is running; this one did nothing\n"
        assert turns_run(home) == []
    finally:
        holder.kill()
        holder.wait()


def test_crash_between_commit_and_publishing(home, gm, clock, duel, monkeypatch, tmp_path):
    from gm.services import reports

    real = reports.start_render

    def crash(*args, **kwargs):
        raise SystemExit("killed")

    monkeypatch.setattr(reports, "start_render", crash)
    clock.when = datetime(2026, 11, 21, 9, 0, tzinfo=UTC)
    gm("run-due", home=home)
    assert turns_run(home) == [1] and not (home / "reports" / "d1" / "1").exists()
    assert "turn 1 not published" in gm("status", home=home).out
    monkeypatch.setattr(reports, "start_render", real)
    ran = gm("run-due", home=home)
    assert ran.out.startswith("d1: turn 1 was run but not published\nd1: turn 1 reports written to")
    assert turns_run(home) == [1] and (home / "reports" / "d1" / "1" / "FR.pdf").exists()
    assert gm("run-due", home=home).out == "Nothing is due.\n"


def test_status_json(home, gm, clock, duel):
    rows = json.loads(gm("status", "--json", home=home).out)
    assert rows == [
        {
            "game": "d1",
            "ruleset": "clash",
            "status": "running",  # both seats taken: started
            "turn": 1,
            "deadline": "Fri 2026-11-20 18:00 GMT (Europe/London)",
            "due": "2026-11-20T18:00:00Z",
            "schedule": "weekly on Friday at 18:00 Europe/London",
            "held": False,
            "seats": 2,
            "in": [],
            "missing": ["BR", "FR"],
            "final": [],
            "dropped": [],
            "last_run": None,
            "problems": [],
            "unpublished": [],
        }
    ]


def test_settings_refusals(home, gm, clock, duel):
    ran = gm("game", "set", "d1", "grace", "soon", home=home)
    assert (ran.code, ran.err) == (
        1,
        "Error: grace takes a duration such as 90m, 2h or 1d, at most a year, not 'soon'.\n",
    )
    ran = gm("game", "set", "d1", "colour", "red", home=home)
    assert ran.code == 1 and ran.err.startswith("Error: unknown setting 'colour'. Settings: grace, ")
    ran = gm("game", "schedule", "d1", "whenever", home=home)
    assert ran.code == 1 and "needs exactly one time of day" in ran.err


@pytest.fixture
def mail_home(home):
    """The home with mail on: the GM's address, and mail written as .eml files to outbox/."""
    settings = (home / "gm.toml").read_text()
    (home / "gm.toml").write_text(settings.replace('address = ""', 'address = "gm@pbm.example.org"', 1))
    return home


def eml(home) -> list:
    """Every mail written to the outbox folder, parsed as a mail program would."""
    paths = sorted((home / "outbox").rglob("*.eml"))
    return [email.message_from_bytes(p.read_bytes(), policy=email.policy.default) for p in paths]


def test_run_due_mails_reminders_and_each_report_once(mail_home, gm, clock, duel, tmp_path, monkeypatch):
    home = mail_home
    for player in ("ann", "bob"):
        assert gm("credits", "buy", f"{player}@example.org", "10", "--paid", "20", home=home).code == 0
    submit(gm, home, tmp_path, duel["BR"], "BR", "CLAIM ENG")
    clock.when = datetime(2026, 11, 19, 18, 30, tzinfo=UTC)
    ran = gm("run-due", home=home)
    assert "d1: sent reminder to FR" in ran.out and "mail: sent 1" in ran.out
    [reminder] = eml(home)
    assert reminder["To"] == "Bob <bob@example.org>"
    assert reminder["Subject"] == "d1: reminder, orders for turn 1 are due"
    assert "They are due\nFri 2026-11-20 18:00 GMT (Europe/London)." in reminder.get_body().get_content()
    assert "GAME d1\nPLAYER FR\nPASSWORD <your secret>\nTURN 1" in reminder.get_body().get_content()

    from gm.services import reports

    real = reports.start_render
    monkeypatch.setattr(reports, "start_render", lambda *a, **k: (_ for _ in ()).throw(SystemExit("killed")))
    clock.when = datetime(2026, 11, 21, 9, 0, tzinfo=UTC)
    gm("run-due", home=home)  # the turn commits, then the process dies before any report or mail
    assert len(eml(home)) == 1
    monkeypatch.setattr(reports, "start_render", real)
    ran = gm("run-due", home=home)
    assert "d1: 2 report mail(s) queued" in ran.out and "mail: sent 2" in ran.out
    gm("run-due", home=home)
    gm("report", "render", "d1", "--turn", "1", home=home)
    gm("run-due", home=home)
    reports_sent = [m for m in eml(home) if m["Subject"].startswith("d1: ") and "(turn 1)" in m["Subject"]]
    assert sorted(m["To"] for m in reports_sent) == ["Ann <ann@example.org>", "Bob <bob@example.org>"]
    assert all(
        [a.get_content_type() for a in m.iter_attachments()] == ["application/pdf", "text/html", "text/plain"]
        for m in reports_sent
    )  # the report, its turn kit, and its order form as text


def test_unpaid_report_is_held_with_a_notice_and_released_by_payment(mail_home, gm, clock, duel):
    home = mail_home
    assert gm("credits", "buy", "ann@example.org", "10", "--paid", "20", home=home).code == 0
    clock.when = datetime(2026, 11, 21, 9, 0, tzinfo=UTC)
    assert "mail: sent 2" in gm("run-due", home=home).out
    by_recipient = {m["To"]: m for m in eml(home)}
    assert "(turn 1)" in by_recipient["Ann <ann@example.org>"]["Subject"]
    notice = by_recipient["Bob <bob@example.org>"]
    assert notice["Subject"] == "d1: turn 1 report held for credits"
    assert "your account (bob@example.org)\nis 1 credit short" in notice.get_body().get_content()
    ran = gm("credits", "buy", "bob@example.org", "10", "--paid", "20", home=home)
    assert "Released 1 held report(s)" in ran.out
    assert "mail: sent 1" in gm("run-due", home=home).out
    bob = [m for m in eml(home) if m["To"] == "Bob <bob@example.org>"]
    assert sorted(m["Subject"] for m in bob) == [
        "d1: Set-up: claiming territories (turn 1)",
        "d1: turn 1 report held for credits",
    ]


def test_absence_announced_in_a_turn_file(home, gm, clock, duel, tmp_path):
    path = tmp_path / "away.txt"
    path.write_text(turn_file(duel["FR"], "ABSENT 2026-11-19 2026-11-29\nCLAIM BEL", seat="FR", game="d1", turn=""))
    assert gm("submit", path, home=home).code == 0
    clock.when = datetime(2026, 11, 19, 18, 30, tzinfo=UTC)
    assert gm("run-due", home=home).out == "d1: sent reminder to BR\n"  # FR is away: no reminder
    conn = sqlite3.connect(home / "gm.db")
    assert conn.execute("SELECT starts, ends, source FROM absences").fetchall() == [
        ("2026-11-19T00:00:00Z", "2026-11-30T00:00:00Z", "turn file")
    ]
    bad = tmp_path / "bad.txt"
    bad.write_text(turn_file(duel["BR"], "ABSENT soon\nCLAIM ENG", seat="BR", game="d1", turn=""))
    ran = gm("submit", bad, home=home)
    assert ran.code == 1 and "refused: line 5: ABSENT needs the first and last day away" in ran.err
    bad.write_text(turn_file(duel["BR"], "ABSENT 2026-12-20 someday\nCLAIM ENG", seat="BR", game="d1", turn=""))
    ran = gm("submit", bad, home=home)
    assert ran.code == 1 and f"{bad}:5: cannot read 'someday' as a date and time" in ran.err


def test_a_rerun_keeps_the_deadline_of_the_turn_being_collected(home, gm, clock, duel):
    for week in range(2):
        clock.when = datetime(2026, 11, 20, 18, 0, tzinfo=UTC) + timedelta(weeks=week)
        assert "run" in gm("run-due", home=home).out
    assert show(gm, home)["deadline"] == "Fri 2026-12-04 18:00 GMT (Europe/London)"
    clock.when = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)  # Tuesday: the GM re-runs turn 2
    assert gm("turn", "rerun", "d1", "2", "--reason", "a fix", "--no-render", home=home).code == 0
    assert show(gm, home)["deadline"] == "Fri 2026-12-04 18:00 GMT (Europe/London)"


def test_one_render_pool_serves_every_game_of_a_run(home, gm, clock, duel, monkeypatch):
    """Two games due at once: both rendered by the same pool (started once, closed at the end),
    each published, and no worker left running."""
    import multiprocessing

    from gm.render import pool as render_pool

    assert gm("game", "new", "d2", "--scenario", "lowlands", "--seed", "4", home=home).code == 0
    for name in ("Cid", "Dee"):
        gm("game", "join", "d2", f"{name.lower()}@example.org", "--name", name, home=home)
    gm("game", "schedule", "d2", "weekly on Friday at 18:00 Europe/London", home=home)
    gm("game", "set", "d2", "nmr-spike", "100", home=home)
    pools = []
    real = render_pool.RenderPool.submit

    def counting(self, jobs, asset_dirs=None):
        pools.append(id(self))
        return real(self, jobs, asset_dirs)

    monkeypatch.setattr(render_pool.RenderPool, "submit", counting)
    clock.when = datetime(2026, 11, 21, 9, 0, tzinfo=UTC)
    ran = gm("run-due", home=home)
    assert "d1: turn 1 reports written to" in ran.out and "d2: turn 1 reports written to" in ran.out
    assert len(pools) == 2 and len(set(pools)) == 1
    assert (home / "reports" / "d2" / "1" / "FR.pdf").exists() and "not published" not in gm("status", home=home).out
    assert [p for p in multiprocessing.active_children() if p.name == "gm render worker"] == []


def test_a_dead_render_worker_fails_its_game_and_the_run_goes_on(home, gm, clock, duel, monkeypatch):
    """d1's reports fail in the pool (as when its worker is killed): run-due names the problem
    without a traceback, publishes d2, and the next run publishes d1's committed turn."""
    from concurrent.futures import Future

    from gm.render import pool as render_pool

    assert gm("game", "new", "d2", "--scenario", "lowlands", "--seed", "4", home=home).code == 0
    for name in ("Cid", "Dee"):
        gm("game", "join", "d2", f"{name.lower()}@example.org", "--name", name, home=home)
    gm("game", "schedule", "d2", "weekly on Friday at 18:00 Europe/London", home=home)
    gm("game", "set", "d2", "nmr-spike", "100", home=home)
    real = render_pool.RenderPool.submit

    def dying(self, jobs, asset_dirs=None):
        jobs = list(jobs)
        if not jobs[0].identifier.startswith("d1/"):
            return real(self, jobs, asset_dirs)
        died = Future()
        died.set_exception(RuntimeError("a report worker died (killed by signal 9) rendering d1/1/BR"))
        return render_pool.Batch([died])

    monkeypatch.setattr(render_pool.RenderPool, "submit", dying)
    clock.when = datetime(2026, 11, 21, 9, 0, tzinfo=UTC)
    ran = gm("run-due", home=home)
    assert "Traceback" not in ran.out + ran.err
    assert "reports of game 'd1' were not rendered: a report worker died (killed by signal 9)" in ran.out + ran.err
    assert "d2: turn 1 reports written to" in ran.out
    assert turns_run(home) == [1] and "problem: turn 1 not published" in gm("status", home=home).out
    monkeypatch.setattr(render_pool.RenderPool, "submit", real)
    again = gm("run-due", home=home)
    assert "d1: turn 1 reports written to" in again.out
    assert (home / "reports" / "d1" / "1" / "FR.pdf").exists() and "not published" not in gm("status", home=home).out
