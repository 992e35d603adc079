"""The abuse battery, press and the archive (issue 29): a hostile player's press flood, a report
past its render budget, a stopped render worker, refused posts of megabytes, and the pruning that
keeps the archive within its budget. Each runs the real gm command (a process of its own, its
render pool of two workers) on a home of its own, as a red team would."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest

from gm.clock import FixedClock
from gm.home import Home, create_home
from gm.render.worker import WORKER_NAME
from gm.services import credits, cycle, games
from gm.services.game_settings import set_game_setting
from gm.store.database import open_database
from gm.web.app import create_app
from tests.intake.mails import configure, mail, turn_file
from tests.web.conftest import Player

pytestmark = pytest.mark.slow

SET_UP = datetime(2026, 11, 16, 12, 0, tzinfo=UTC)
RUN_AT = "2026-11-16T21:00:00+00:00"  # after the first deadline (20:00)
GM_AT = Path(__file__).with_name("gm_at.py")
PLAYERS = {"BR": "ann", "RU": "bob", "FR": "cy", "GE": "di"}
FLOOD_LINE = "\n".join("x" * 2_500)  # 4,999 characters, one a line: within press-length 5000
WAIT = 900  # seconds: a run that would hang fails instead (main took 300 s a report here)


def gm_process(home: Path | None, *args: str, timeout: float = WAIT) -> subprocess.CompletedProcess:
    where = ["--home", str(home)] if home is not None else []
    return subprocess.run(
        [sys.executable, str(GM_AT), RUN_AT, *map(str, args), *where],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def ok(ran: subprocess.CompletedProcess) -> subprocess.CompletedProcess:
    assert ran.returncode == 0, (ran.returncode, ran.stdout, ran.stderr)
    return ran


@pytest.fixture(scope="module")
def start(tmp_path_factory) -> tuple[Path, dict[str, str]]:
    """A home with mail on (.eml files into outbox/) and two render workers, and a four-seat
    Clash game due at 20:00 daily whose players are paid up (every report is mailed)."""
    root = tmp_path_factory.mktemp("abuse") / "start"
    home = Home(root)
    create_home(home)
    configure(root, {"mail.address": "gm@example.org", "reports.workers": 2})
    db = open_database(home.database)
    clock = FixedClock(SET_UP)
    games.create_game(db, clock, "g1", "clash", seed=7)
    secrets = {}
    for code, name in PLAYERS.items():
        _, secrets[code] = games.join_game(db, clock, "g1", f"{name}@example.org", name.title(), code)
        credits.buy(db, clock, f"{name}@example.org", 10, 2000, "g1", name.title())
    cycle.set_schedule(db, clock, "g1", "daily 20:00 UTC")
    set_game_setting(db, clock, "g1", "nmr-spike", "100")  # the trials run turns with seats' orders missing
    db.conn.close()
    return root, secrets


@pytest.fixture
def house(start, tmp_path) -> tuple[Path, dict[str, str]]:
    root, secrets = start
    return shutil.copytree(root, tmp_path / "home"), secrets


def rows(home: Path, sql: str, *params) -> list:
    with sqlite3.connect(home / "gm.db") as conn:
        return conn.execute(sql, params).fetchall()


def pages(pdf: Path) -> int:
    info = subprocess.run(["pdfinfo", str(pdf)], check=True, capture_output=True, text=True).stdout
    return int(info.split("Pages:")[1].split()[0])


def text_of(pdf: Path) -> str:
    return " ".join(
        subprocess.run(["pdftotext", str(pdf), "-"], check=True, capture_output=True, text=True).stdout.split()
    )


def published_whole(home: Path) -> None:
    """Turn 1 is published: every seat's report recorded and its mail queued, once."""
    assert rows(home, "SELECT number FROM turns WHERE number >= 1 AND published IS NOT NULL") == [(1,)]
    seats = sorted(PLAYERS)
    assert [s for (s,) in rows(home, "SELECT seat FROM reports WHERE turn = 1 ORDER BY seat")] == seats
    queued = rows(
        home,
        "SELECT seat FROM outbox WHERE kind = 'report' AND turn = 1 AND status IN ('queued', 'sent') ORDER BY 1",
    )
    assert [s for (s,) in queued] == seats


def submit(home: Path, secret: str, body: str, seat: str, name: str = "t.txt") -> subprocess.CompletedProcess:
    path = home.parent / name
    path.write_text(turn_file(secret, body, seat=seat))
    return gm_process(home, "submit", path)


def test_a_press_flood_prints_within_the_budget_and_everyone_gets_the_turn(house):
    """Issue 29, 1: 50 messages of 5,000 characters, one a line (the game's defaults allow it),
    made every report 2,255 pages; two gm run-due runs hit the 300 s report limit and nobody got
    the turn. Now each report prints the press within its budget and says where the rest is."""
    home, secrets = house
    flood = "".join(f"PRESS TO ALL\n{FLOOD_LINE}\nENDPRESS\n" for _ in range(50))
    sent = ok(submit(home, secrets["BR"], flood, "BR"))
    assert sent.stdout.count("press sent to everyone") == 50
    ok(submit(home, secrets["FR"], "PRESS TO RU: Shall we share Burgundy?", "FR"))
    ok(gm_process(home, "run-due"))
    published_whole(home)
    folder = home / "reports" / "g1" / "1"
    for seat in PLAYERS:
        assert pages(folder / f"{seat}.pdf") <= 12  # a Clash report is 4; its press at most about 6 more
    report = json.loads((folder / "RU.json").read_text())
    assert [(p["from"], p["cut"] is None) for p in report["press"]] == [("BR", False), ("FR", True)]
    assert report["press_left"]["from"] == {"BR": 49}
    assert "Not printed here, to keep this report short: 49 more messages from BR" in text_of(folder / "RU.pdf")
    # The rest is in the mail: every message reached every other seat's mailbox at once.
    assert rows(home, "SELECT count(*) FROM outbox WHERE kind = 'press'") == [(151,)]


def test_a_report_past_its_page_budget_goes_short_and_the_rest_of_the_game_goes_out(house):
    """Whatever makes a report long, no report takes a render worker past its budget: here
    [reports] max_pages = 5 and BR's press to RU makes theirs longer (7 pages as laid out now). Their seats get a short
    report with the order form, FR and GE theirs whole, and the GM reads which seat and why."""
    home, secrets = house
    configure(home, {"reports.max_pages": 5})
    ok(submit(home, secrets["BR"], "PRESS TO RU\n" + "\n".join("x" * 90) + "\nENDPRESS", "BR"))
    ran = ok(gm_process(home, "run-due"))
    published_whole(home)
    for seat in ("BR", "RU"):
        told = re.search(
            rf"Warning: g1: {seat}'s report of turn 1 went past its budget \(\[reports\] in gm\.toml\): it would be "
            r"(\d+) pages long, more than 5\.",
            ran.stderr,
        )
        assert told and int(told[1]) > 5, ran.stderr
    folder = home / "reports" / "g1" / "1"
    short = text_of(folder / "RU.pdf")
    assert "Turn 1: your report could not be printed" in short and "PLAYER RU" in short
    assert "could not be printed" not in text_of(folder / "FR.pdf") and pages(folder / "FR.pdf") >= 4
    audit = rows(home, "SELECT detail FROM audit WHERE action = 'report over budget' ORDER BY id")
    assert [json.loads(d)["seat"] for (d,) in audit] == ["BR", "RU"]
    assert json.loads((folder / "RU.json").read_text())["press"][0]["from"] == "BR"  # the JSON is whole


def is_render_worker(pid: int) -> bool:
    """Whether a process is a render worker by its name (False where it is gone)."""
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip() == WORKER_NAME
    except OSError:
        return False


def children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_bytes()
            except OSError:
                continue
            if int(stat.rsplit(b")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def test_a_stopped_render_worker_is_replaced_and_run_due_goes_on(house):
    """Issue 29, 10: a SIGSTOPped render worker held gm run-due and its lock for 311 s, then
    its game failed. Its CPU time standing still for stall_seconds (2 here) gives it away: it is
    killed, its report made by a new worker, and every report goes out whole."""
    home, _ = house
    configure(home, {"reports.stall_seconds": 2})
    db = open_database(home / "gm.db")
    clock = FixedClock(SET_UP)
    games.create_game(db, clock, "e1", "empires", seed=3, robots=16)  # 16 reports, time to catch a worker
    cycle.set_schedule(db, clock, "e1", "daily 20:00 UTC")
    set_game_setting(db, clock, "e1", "nmr-spike", "100")
    db.conn.close()
    run = subprocess.Popen(
        [sys.executable, str(GM_AT), RUN_AT, "run-due", "--home", str(home)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    stopped = None
    try:
        while stopped is None and run.poll() is None:
            # A render worker names itself (gm.render.worker.WORKER_NAME). Not any process below
            # the fork server: while it imports, the fork server runs /sbin/ldconfig (ctypes.util's
            # find_library), and a child stopped between its fork and its exec, still the same
            # interpreter, stops the fork server, not a worker (CI saw run-due wait 900 s so).
            workers = [w for server in children(run.pid) for w in children(server) if is_render_worker(w)]
            if workers:
                try:
                    os.kill(workers[0], signal.SIGSTOP)
                    stopped = workers[0]
                except ProcessLookupError:
                    pass  # it ended between the listing and the signal: stop the next one
            time.sleep(0.01)
        out, err = run.communicate(timeout=WAIT)
    finally:
        if run.poll() is None:
            run.kill()
    assert stopped is not None and run.returncode == 0, (out, err)
    assert not Path(f"/proc/{stopped}").exists() or b") Z" in Path(f"/proc/{stopped}/stat").read_bytes()
    assert rows(home, "SELECT count(*) FROM reports r JOIN games g ON g.id = r.game_id WHERE g.name = 'e1'") == [(16,)]
    assert rows(
        home,
        "SELECT count(*) FROM turns t JOIN games g ON g.id = t.game_id WHERE g.name = 'e1' "
        "AND t.number = 1 AND t.published IS NOT NULL",
    ) == [(1,)]
    for pdf in (home / "reports" / "e1" / "1").glob("*.pdf"):
        assert "could not be printed" not in text_of(pdf)
    assert "went past its budget" not in err


def archive_bytes(home: Path) -> int:
    return sum(p.stat().st_size for p in (home / "archive").rglob("*") if p.is_file())


def test_what_is_refused_for_its_size_is_noted_not_archived(house, gm):
    """Issue 29, 7: 30 posts of 2 MB, all refused, added 58 MB to the archive. Refused for its
    size, a post, a turn file or a mail leaves a note (its SHA-256, size, sender and first
    bytes), and the home still checks, backs up and restores whole. A post past the portal's
    form limit is refused before it is read, and leaves nothing."""
    home, secrets = house
    before = archive_bytes(home)
    player = Player(create_app(Home(home)).test_client())
    player.sign_in("BR", secrets["BR"])
    for n in range(30):  # within the portal's form limit (256 KiB), past press-length: noted
        page = player.post("/press", {"to": ["FR"], "text": f"{n} " + "x" * 200_000})
        assert page.status_code == 400 and "takes at most 5,000: shorten it" in page.text
    # Past the form limit the form is not read at all (docs/portal.md): refused at the door, so
    # nothing of it reaches the archive, not even a note.
    page = player.post("/press", {"to": ["FR"], "text": "x" * 2_000_000})
    assert page.status_code == 413 and "That form is too large" in page.text
    big = home.parent / "big.txt"
    big.write_text(turn_file(secrets["BR"], "CLAIM ENG\n" + "# padding\n" * 200_000))  # 2 MB
    ran = gm_process(home, "submit", big)
    assert ran.returncode == 1 and "the file is too large (2.0 MB); a turn file may be at most 1.0 MB" in ran.stderr
    configure(home, {"mail.max_message_bytes": 1_000_000})
    (home.parent / "big.eml").write_bytes(mail(turn_file(secrets["BR"], "CLAIM ENG") + "x" * 2_000_000))
    ran = ok(gm_process(home, "inbox", "import", home.parent / "big.eml"))
    assert "the mail is too large" in ran.stdout
    assert archive_bytes(home) - before < 64_000  # 32 notes; 64 MB before
    notes = [json.loads(p.read_text()) for p in (home / "archive").rglob("*.note")]
    assert len(notes) == 32 and all(n["reason"] == "refused for size" for n in notes)
    assert sorted(n["channel"] for n in notes) == ["file"] + ["mail"] + ["web"] * 30
    mailed = next(n for n in notes if n["channel"] == "mail")
    assert mailed["sender"] == "ann@example.org" and mailed["size"] > 2_000_000 and "From: Ann" in mailed["head"]
    assert gm("doctor", home=home).code == 0
    ok(gm_process(home, "backup", home.parent / "b.tar"))
    ok(gm_process(None, "restore", home.parent / "b.tar", home.parent / "restored"))


def test_prune_removes_what_nothing_needs_and_keeps_what_the_books_and_replays_need(house, gm):
    """Refused posts of less than the limit still land in the archive; past its budget
    ([archive] budget_mb) gm run-due says so, and gm archive prune removes what nothing kept
    needs, says what it removed, and leaves every accepted submission, the turn replaying,
    the books balancing and the home backing up."""
    home, secrets = house
    configure(home, {"archive.budget_mb": 1})
    ok(submit(home, secrets["BR"], "CLAIM ENG", "BR"))
    ok(submit(home, secrets["FR"], "CLAIM BEL", "FR"))
    accepted = {digest for (digest,) in rows(home, "SELECT archive FROM submissions WHERE verdict = 'accepted'")}
    for n in range(6):  # wrong secrets: refused before the seat is known, nothing names them
        assert submit(home, "wrong", f"CLAIM ENG\n# {n}\n" + "# padding\n" * 90_000, "BR", f"w{n}.txt").returncode == 1
    (home.parent / "junk.eml").write_bytes(mail(turn_file("wrong", "CLAIM ENG" + "\n#" * 90_000), message_id="<j@x>"))
    ok(gm_process(home, "inbox", "import", home.parent / "junk.eml"))
    ran = ok(gm_process(home, "run-due"))
    assert "Warning: the archive holds " in ran.stderr and " MB, past its budget of 1.0 MB" in ran.stderr
    published_whole(home)
    size = archive_bytes(home)
    young = ok(gm_process(home, "archive", "prune", "--older-than", "0"))
    assert young.stdout.startswith("0 file(s), 0.0 MB, removed")  # nothing an hour old yet
    hours_ago = time.time() - 7_200
    for path in (home / "archive").rglob("*"):
        os.utime(path, (hours_ago, hours_ago))
    ran = ok(gm_process(home, "archive", "prune", "--older-than", "0"))
    removed = [line for line in ran.stdout.splitlines() if line.startswith("removed ")]
    # Six refused files and the refused mail's turn file, which nothing names, and the mail.
    assert len(removed) == 8 and sum("no record names it" in line for line in removed) == 7
    assert sum("; mail 1)" in line for line in removed) == 1
    assert "8 file(s), " in ran.stdout and " MB, removed, a note of each kept; the archive holds 0.0 MB" in ran.stdout
    assert archive_bytes(home) < size // 100
    for digest in accepted:
        assert (home / "archive" / digest[:2] / digest).is_file()
    assert gm("turn", "verify", "g1", home=home).code == 0
    assert gm("ledger", "check", home=home).code == 0
    assert gm("doctor", home=home).code == 0
    ok(gm_process(home, "backup", home.parent / "after.tar"))
    assert "past its budget" not in ok(gm_process(home, "run-due")).stderr
