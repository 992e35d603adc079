"""gm backup and gm restore killed (SIGKILL, gm/crash.py's points, as the crash battery does) at
each stage: a killed backup leaves nothing in the backup folder, not even a hidden copy of the
database with the seats' secret hashes; what a kill leaves in the home (the snapshot, in locks/)
or beside a restore's target (its scratch folder) is removed by the next run, which then
succeeds."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from gm.clock import FixedClock
from gm.home import Home, create_home
from gm.services import games
from gm.services.portal_access import portal_key
from gm.services.turnfiles import submit
from gm.store.database import open_database
from gm.store.scratch import scratch_file
from tests.intake.mails import turn_file
from tests.reliability.test_crash_battery import GM_AT, RUN_AT, SET_UP

pytestmark = pytest.mark.slow

BACKUP = ("backup:after-snapshot", "backup:mid-write", "backup:before-name")
RESTORE = ("restore:mid-check", "restore:mid-unpack", "restore:before-rename", "restore:after-rename")


def gm_run(*args: str, crash_at: str | None = None) -> subprocess.CompletedProcess:
    """gm ARGS in a process of its own (killed at `crash_at`, if named), at the battery's moment."""
    env = {k: v for k, v in os.environ.items() if k != "GM_CRASH_AT"}
    if crash_at:
        env["GM_CRASH_AT"] = crash_at
    return subprocess.run(
        [sys.executable, str(GM_AT), RUN_AT, *map(str, args)], env=env, capture_output=True, text=True, timeout=120
    )


def ok(ran: subprocess.CompletedProcess) -> None:
    assert ran.returncode == 0, (ran.returncode, ran.stdout, ran.stderr)


def killed(ran: subprocess.CompletedProcess) -> None:
    assert ran.returncode == -signal.SIGKILL, (ran.returncode, ran.stderr)  # the point was reached


@pytest.fixture(scope="module")
def house(tmp_path_factory) -> Path:
    """A home with a two-seat game, a turn file in the archive and the portal's key."""
    root = tmp_path_factory.mktemp("house") / "home"
    home = Home(root)
    create_home(home)
    db = open_database(home.database)
    clock = FixedClock(SET_UP)
    games.create_game(db, clock, "d1", "clash", "lowlands", 3)
    secrets = {code: games.join_game(db, clock, "d1", f"{code}@example.org", code, code)[1] for code in ("BR", "FR")}
    submit(db, home, clock, turn_file(secrets["BR"], "CLAIM ENG", seat="BR", game="d1").encode(), "web", "test")
    db.conn.close()
    portal_key(home)
    return root


def names(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def snapshots(home: Path) -> list[str]:
    return sorted(p.name for p in (home / "locks").iterdir() if p.name.startswith("backup-"))


@pytest.mark.parametrize("point", BACKUP)
def test_a_killed_backup_leaves_nothing_beside_it_and_the_next_cleans_up(point, house, tmp_path):
    home = Path(shutil.copytree(house, tmp_path / "home"))
    folder = tmp_path / "backups"
    folder.mkdir()
    # What an older gm left when it was killed: a hidden copy of the database, a backup half written.
    (folder / ".gm-backup-20261101-031500.tar.db-4242").write_bytes((home / "gm.db").read_bytes())
    (folder / ".gm-backup-20261101-031500.tar.partial-4242").write_bytes(b"half a tar")
    killed(gm_run("backup", folder / "b.tar", "--home", home, crash_at=point))
    assert names(folder) == []  # nothing there, hidden or not: what the older gm left is gone too
    # Only a kill before the snapshot is unnamed leaves it, beside the live database it copies.
    assert len(snapshots(home)) == (1 if point == "backup:after-snapshot" else 0)
    ok(gm_run("backup", folder / "b.tar", "--home", home))
    assert names(folder) == ["b.tar"] and snapshots(home) == []
    ok(gm_run("restore", folder / "b.tar", tmp_path / "restored"))
    assert (tmp_path / "restored" / "gm.db").read_bytes() != b"" and names(tmp_path) == [
        "backups",
        "home",
        "restored",
    ]


def test_a_backup_removes_only_what_nobody_holds(house, tmp_path):
    """A snapshot nobody holds is a killed backup's; one held is a backup's that runs beside."""
    home = Path(shutil.copytree(house, tmp_path / "home"))
    (home / "locks" / "backup-0123456789ab.db").write_bytes(b"a killed backup's copy")
    with scratch_file(home / "locks", "backup-", ".db") as running:
        ok(gm_run("backup", tmp_path / "b.tar", "--home", home))
        assert snapshots(home) == [running.name]
    assert snapshots(home) == []


@pytest.fixture(scope="module")
def backup(house, tmp_path_factory) -> Path:
    made = tmp_path_factory.mktemp("backup") / "b.tar"
    ok(gm_run("backup", made, "--home", house))
    return made


@pytest.mark.parametrize("point", RESTORE)
def test_a_killed_restore_is_cleaned_up_by_the_next(point, backup, tmp_path):
    places = tmp_path / "places"
    places.mkdir()
    killed(gm_run("restore", backup, places / "home", crash_at=point))
    left = names(places)
    if point == "restore:after-rename":
        assert "home" in left and len(left) == 2  # the home is whole; its empty scratch folder is left
    else:
        assert len(left) == 1 and left[0].startswith(".home.restoring-")
    ran = gm_run("restore", backup, places / "home")
    if point == "restore:after-rename":  # it was restored: the second restore refuses to write over it
        assert ran.returncode == 1 and "is not empty" in ran.stderr
        ok(gm_run("doctor", "--home", places / "home"))
    else:
        ok(ran)
    assert names(places) == ["home"]
