"""The crash battery (issue 14): a real gm process killed with SIGKILL at each named point of a
turn run, a run-due and a mail import (gm/crash.py), then the same command run again. Every
trial must end as an uninterrupted run does: the database whole, every turn replaying, the books
balancing and holding the same entries (each credit spent once), every seat's report recorded
once, every report mail queued once, and every report byte for byte the same."""

from __future__ import annotations

import mailbox
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest
import sqlite_utils

from gm.clock import FixedClock
from gm.home import Home, create_home
from gm.services import credits, cycle, games
from gm.services.game_settings import set_game_setting
from gm.store.database import open_database
from tests.intake.mails import mail, turn_file

pytestmark = pytest.mark.slow

SET_UP = datetime(2026, 11, 16, 12, 0, tzinfo=UTC)
RUN_AT = "2026-11-16T21:00:00+00:00"  # after the first deadline (20:00), before the next
GM_AT = Path(__file__).with_name("gm_at.py")
PLAYERS = {"BR": ("Ann", "ann@example.org"), "FR": ("Bob", "bob@example.org")}
TURN_RUN = (
    "turn:mid-charge",
    "turn:before-commit",
    "turn:after-commit",
    "publish:mid-write",
    "publish:mid-render",
    "publish:after-render",
    "publish:mid-queue",
)
RUN_DUE = TURN_RUN + ("publish:after-commit", "send:mid-send", "send:after-mark")
SEND = ("send:mid-send", "send:after-mark")  # gm mail send of a published turn's mails
IMPORT = ("intake:before-sync", "intake:before-commit", "intake:after-commit", "send:mid-send")


def gm_process(home: Path, *args: str, crash_at: str | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "GM_CRASH_AT"}
    if crash_at:
        env["GM_CRASH_AT"] = crash_at
    return subprocess.run(
        [sys.executable, str(GM_AT), RUN_AT, *args, "--home", str(home)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def ok(ran: subprocess.CompletedProcess) -> None:
    assert ran.returncode == 0, (ran.returncode, ran.stdout, ran.stderr)


def mailing_home(root: Path) -> sqlite_utils.Database:
    """A new home at root that mails (.eml files into outbox/) and renders in one process; its database."""
    home = Home(root)
    create_home(home)
    text = home.settings_file.read_text()
    home.settings_file.write_text(
        text.replace('address = ""', 'address = "gm@example.org"', 1).replace("workers = 0", "workers = 1", 1)
    )
    return open_database(home.database)


@pytest.fixture(scope="module")
def start(tmp_path_factory) -> Path:
    """A home with mail on (.eml files into outbox/), rendering in one process, a two-seat game
    due at 20:00 daily with paid-up players, and a Maildir holding both seats' orders and a question."""
    root = tmp_path_factory.mktemp("battery") / "start"
    db = mailing_home(root)
    clock = FixedClock(SET_UP)
    games.create_game(db, clock, "d1", "clash", "lowlands", 3)
    box = mailbox.Maildir(root.parent / "Maildir", create=True)
    for code, (name, address) in PLAYERS.items():
        _, secret = games.join_game(db, clock, "d1", address, name, code)
        credits.buy(db, clock, address, 10, 2000, "d1", name)
        box.add(
            mail(
                turn_file(secret, "CLAIM " + ("ENG" if code == "BR" else "BEL"), seat=code, game="d1"),
                sender=f"{name} <{address}>",
                message_id=f"<{code}@x>",
            )
        )
    box.add(mail("Can I join the next game?", sender="Zed <zed@example.org>", message_id="<q@x>"))
    cycle.set_schedule(db, clock, "d1", "daily 20:00 UTC")
    set_game_setting(db, clock, "d1", "nmr-spike", "100")  # the run-due trials run a turn without orders
    set_game_setting(db, clock, "d1", "nmr-limit", "1")  # ... so seats drop out and a standby takes one,
    cycle.add_standby(db, clock, "d1", "zed@example.org", "Zed")  # mailed inside the turn's transaction
    credits.buy(db, clock, "zed@example.org", 10, 2000, "d1", "Zed")  # paid up too: every report is mailed
    db.conn.close()
    return root


def copy_of(start: Path, where: Path) -> Path:
    shutil.copytree(start, where)
    return where


@pytest.fixture(scope="module")
def played(start) -> Path:
    """The start with turn 1 run and published: both seats missed it, so both dropped out and
    standby Zed took BR; the home the GM re-runs turn 1 in."""
    home = copy_of(start, start.parent / "played")
    ok(gm_process(home, *command("turn run", start)))
    return home


@pytest.fixture(scope="module")
def bases(start, played) -> dict[str, Path]:
    return {kind: played if kind in ("rerun", "mail send") else start for kind in PLAN}


# What the GM asks for; after a kill, the GM runs the very same command again.
PLAN = {
    "turn run": ("turn", "run", "d1", "--now"),
    "run-due": ("run-due",),
    "import": ("inbox", "import", "{maildir}", "--send"),
    "rerun": ("turn", "rerun", "d1", "1", "--reason", "a fix", "--yes"),
    "mail send": ("mail", "send"),
}
RERUN = ("turn:mid-charge", "turn:before-commit", "turn:after-commit")  # its publishing is gm turn run's, tried above


def command(kind: str, start: Path) -> list[str]:
    return [a.replace("{maildir}", str(start.parent / "Maildir")) for a in PLAN[kind]]


def finish(home: Path, kind: str, start: Path) -> None:
    """After the command (and any recovery), the rest of the GM's week: the same in every trial."""
    if kind == "turn run":
        while resolved(home) != [1, 2]:
            ok(gm_process(home, *command(kind, start)))
        ok(gm_process(home, "mail", "send"))  # what the turns queued goes out
    elif kind == "import":  # the orders taken are the orders the turn is played with
        ok(gm_process(home, "turn", "run", "d1", "--now"))
    elif kind == "run-due":  # the next pass: a run killed after the turn's commit and run again
        ok(gm_process(home, "run-due"))  # finds the next turn's reminder due one pass early


def resolved(home: Path) -> list[int]:
    with sqlite3.connect(home / "gm.db") as conn:
        return [n for (n,) in conn.execute("SELECT number FROM turns WHERE number >= 1 ORDER BY number")]


@pytest.fixture(scope="module")
def references(start, bases, tmp_path_factory) -> dict[str, Path]:
    """Each command run without a kill: what every trial must come to."""
    done = {}
    for kind in PLAN:
        home = copy_of(bases[kind], tmp_path_factory.mktemp("reference") / "home")
        ok(gm_process(home, *command(kind, start)))
        finish(home, kind, start)
        done[kind] = home
    assert seat_mails(done["turn run"]) and seat_mails(done["run-due"])  # the trials cover seat changes
    return done


TRIALS = (
    [("turn run", p) for p in TURN_RUN]
    + [("run-due", p) for p in RUN_DUE]
    + [("import", p) for p in IMPORT]
    + [("rerun", p) for p in RERUN]
    + [("mail send", p) for p in SEND]
)


@pytest.mark.parametrize("kind, point", TRIALS, ids=[f"{k}@{p}" for k, p in TRIALS])
def test_killed_and_run_again_loses_and_doubles_nothing(kind, point, start, bases, references, tmp_path, gm):
    home = copy_of(bases[kind], tmp_path / "home")
    killed = gm_process(home, *command(kind, start), crash_at=point)
    assert killed.returncode == -signal.SIGKILL, (point, killed.returncode, killed.stderr)  # the point was reached
    ok(gm_process(home, *command(kind, start)))
    finish(home, kind, start)
    whole_and_once(home, gm, references[kind])
    assert reports_of(home) == reports_of(references[kind])
    assert seat_mails(home) == seat_mails(references[kind])
    if (kind, point) == ("rerun", "turn:after-commit"):
        # The rerun had committed when it was killed, so running the same command again reruns the
        # turn once more: one more reversal and charge, each turn still charged once in all.
        assert net_books(home) == net_books(references[kind])
    else:
        assert books_of(home) == books_of(references[kind])  # each credit spent once, none given back and taken again
    if kind == "import":
        with sqlite3.connect(home / "gm.db") as conn:
            assert sorted(conn.execute("SELECT outcome FROM mail_taken")) == [
                ("accepted",),
                ("accepted",),
                ("question",),
            ]
            assert conn.execute("SELECT count(*) FROM submissions WHERE current = 1").fetchone() == (2,)
    if kind == "rerun":
        same_turn_again(home, bases[kind])
    else:
        # Every mail sent (by the command, or gm mail send after gm turn run) went out once, as in the run never
        # killed: none left queued (a kill after the server took it, or after it was marked sent), none written twice.
        assert outbox_of(home) == outbox_of(references[kind])
        assert eml_files(home) == eml_files(references[kind])


def test_a_rerun_killed_after_its_commit_keeps_the_discarded_reports_for_gm_turn_run(
    start, bases, references, tmp_path
):
    """Killed between its commit and moving the discarded turn's reports aside, a re-run left them
    where gm turn run then wrote the new turn's over them: the old reports were lost, not kept
    under discarded/ as a re-run never killed keeps them. The note it leaves makes the move."""
    home = copy_of(bases["rerun"], tmp_path / "home")
    killed = gm_process(home, *command("rerun", start), crash_at="turn:after-commit")
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    assert list((home / "reports" / "d1").glob(".rerun-*"))  # the move not made yet, and noted
    ok(gm_process(home, "turn", "run", "d1", "--now"))
    reference = copy_of(references["rerun"], tmp_path / "reference")
    ok(gm_process(reference, "turn", "run", "d1", "--now"))
    kept = reports_of(home)
    assert kept == reports_of(reference)
    first = {k: v for k, v in reports_of(bases["rerun"]).items() if k.startswith("d1/1/")}
    assert first and {k.split("/", 3)[-1]: v for k, v in kept.items() if k.startswith("d1/discarded/")} == {
        k.removeprefix("d1/"): v for k, v in first.items()
    }
    assert not list((home / "reports" / "d1").glob(".rerun-*"))


def same_turn_again(home: Path, played: Path) -> None:
    """Turn 1 re-run with nothing corrected is the turn first played: the same states; every
    report byte for byte (Ann played BR in turn 1 and pays for it again, standby Zed takes it
    from turn 2, pays nothing for turn 1 and is not dropped for it; FR dropped out in turn 1 and
    stays dropped, README "Seats that dropped out in a discarded turn stay dropped", and Bob, who
    played it in turn 1, pays for it again, as its report says); each seat's report mailed once
    more, to the same person as before."""
    live = {k: v for k, v in reports_of(home).items() if k.startswith("d1/1/")}
    assert live == {k: v for k, v in reports_of(played).items() if k.startswith("d1/1/")} and live

    def mailed(where: Path, status: str) -> list[tuple]:
        with sqlite3.connect(where / "gm.db") as conn:
            return conn.execute(
                "SELECT turn, seat, recipient FROM outbox WHERE kind = 'report' AND status = ? ORDER BY 1, 2, 3",
                [status],
            ).fetchall()

    with sqlite3.connect(home / "gm.db") as conn, sqlite3.connect(played / "gm.db") as first:
        hashes = "SELECT number, state_hash FROM turns ORDER BY 1"
        assert conn.execute(hashes).fetchall() == first.execute(hashes).fetchall()
        dropped = "SELECT recipient FROM outbox WHERE subject LIKE '%dropped out%' ORDER BY 1"
        assert conn.execute(dropped).fetchall() == first.execute(dropped).fetchall()
    assert (
        mailed(home, "queued")
        == mailed(played, "queued")
        == [(1, "BR", "zed@example.org")]  # Bob, who left FR, gets no further report of it (docs/mail.md)
    )
    assert mailed(home, "cancelled") == mailed(played, "queued")  # the first run's, unsent, never sent now


def whole_and_once(home: Path, gm, reference: Path) -> None:
    conn = sqlite3.connect(home / "gm.db")
    try:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert gm("turn", "verify", "d1", home=home).code == 0  # in this process: the checks need no clock
        assert gm("ledger", "check", home=home).code == 0
        seats = [code for (code,) in conn.execute("SELECT code FROM seats ORDER BY code")]
        turns = [n for (n,) in conn.execute("SELECT number FROM turns WHERE number >= 1 ORDER BY number")]
        expected = [(t, s) for t in turns for s in seats]
        assert turns and conn.execute("SELECT count(*) FROM turns WHERE published IS NULL").fetchone() == (0,)
        assert conn.execute("SELECT turn, seat FROM reports ORDER BY 1, 2").fetchall() == expected
        # Each report mailed at most once, and the same ones as the run never killed: none of a seat
        # whose player left it and no one took it (docs/mail.md: "no further report of the seat").
        mailed = "SELECT turn, seat FROM outbox WHERE kind = 'report' AND status IN ('queued', 'sent') ORDER BY 1, 2"
        reports_mailed = conn.execute(mailed).fetchall()
        assert len(reports_mailed) == len(set(reports_mailed)) and set(reports_mailed) <= set(expected)
        with sqlite3.connect(reference / "gm.db") as first:
            assert reports_mailed == first.execute(mailed).fetchall()
        changes = conn.execute(
            "SELECT count(*), count(DISTINCT recipient || subject) FROM outbox WHERE kind = 'notice' AND seat IS NULL"
        ).fetchone()
        assert changes[0] == changes[1]  # no welcome or drop-out notice twice
        taken = conn.execute("SELECT count(*), count(DISTINCT digest) FROM mail_taken").fetchone()
        assert taken[0] == taken[1]
        answers = conn.execute("SELECT count(*) FROM outbox WHERE kind = 'acknowledgement'").fetchone()[0]
        assert answers == taken[0]  # one answer per message taken, never two
        # A report file killed mid-write is written again whole; its temporary copy is not left behind.
        assert not [p.name for p in (home / "reports").rglob("*.tmp")]
        sent = conn.execute("SELECT count(*) FROM outbox WHERE status = 'sent'").fetchone()[0]
        assert len(list((home / "outbox").glob("*.eml"))) == sent  # a mail sent twice has one name
    finally:
        conn.close()


def outbox_of(home: Path) -> list[tuple]:
    """Each outbox mail by kind, turn, seat and recipient, and its status."""
    return rows_of(home, "SELECT kind, turn, seat, recipient, subject, status FROM outbox ORDER BY 1, 2, 3, 4, 5, 6")


def eml_files(home: Path) -> list[str]:
    """The names of the mails the folder transport wrote (outbox/*.eml): one per mail sent."""
    return sorted(p.name for p in (home / "outbox").glob("*.eml"))


def seat_mails(home: Path) -> list[tuple[str, str]]:
    """The welcome and drop-out mails (gm/services/seat_mail.py): each queued once, as in the reference."""
    return rows_of(
        home,
        "SELECT recipient, subject FROM outbox WHERE kind = 'notice' AND seat IS NULL "
        "AND status IN ('queued', 'sent') ORDER BY 1, 2",
    )


def books_of(home: Path) -> list[tuple]:
    """Every ledger entry but its date: `gm ledger check` finds a charge booked twice, this also a
    charge missing, or a charge reversed and booked again by a run that was started over."""
    return rows_of(
        home,
        "SELECT a.email, g.name, l.kind, l.credits, l.money, l.discount, l.turn, l.seat, l.ref, l.balance "
        "FROM ledger l JOIN accounts a ON a.id = l.account_id LEFT JOIN games g ON g.id = l.game_id ORDER BY l.id",
    )


def net_books(home: Path) -> list[tuple]:
    """What each account holds, and was charged for each turn of each game, all entries summed."""
    return rows_of(
        home,
        "SELECT a.email, g.name, l.turn, l.seat, sum(l.credits), sum(l.money), sum(l.discount) "
        "FROM ledger l JOIN accounts a ON a.id = l.account_id LEFT JOIN games g ON g.id = l.game_id "
        "GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4",
    )


def rows_of(home: Path, sql: str) -> list[tuple]:
    with sqlite3.connect(home / "gm.db") as conn:
        return conn.execute(sql).fetchall()


def reports_of(home: Path) -> dict[str, bytes]:
    folder = home / "reports"
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.suffix in (".pdf", ".json") and not p.name.startswith(".")
    }
