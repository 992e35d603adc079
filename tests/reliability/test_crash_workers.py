"""The crash battery with reports rendered in worker processes ([reports] workers = 2), as a house
runs: the battery itself renders in one process, where a kill is the command's. Here a worker is
killed by SIGKILL mid-write (its PDF under its temporary name) or right after its first PDF: the
command says so in one line and exits 1, the turn stays committed; the GM runs the same command
again and it ends as the run never killed: the same reports byte for byte, each recorded once,
each mail queued and written once, no temporary copy left, the books the same."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.reliability.test_crash_battery import (
    books_of,
    command,
    copy_of,
    eml_files,
    finish,
    gm_process,
    ok,
    outbox_of,
    reports_of,
    seat_mails,
    start,  # noqa: F401 - the battery's starting home, a fixture
    whole_and_once,
)

pytestmark = pytest.mark.slow


def in_workers(home: Path) -> Path:
    settings = home / "gm.toml"
    text = settings.read_text()
    assert "workers = 1\n" in text
    settings.write_text(text.replace("workers = 1\n", "workers = 2\n", 1))
    return home


@pytest.fixture(scope="module")
def reference(start, tmp_path_factory) -> Path:  # noqa: F811 - the fixture imported above
    home = in_workers(copy_of(start, tmp_path_factory.mktemp("workers") / "reference"))
    ok(gm_process(home, *command("turn run", start)))
    finish(home, "turn run", start)
    return home


def died(ran: subprocess.CompletedProcess) -> None:
    """The command outlived its worker: one line saying what happened, exit 1, no traceback."""
    assert ran.returncode == 1, (ran.returncode, ran.stderr)
    assert "Traceback" not in ran.stderr + ran.stdout
    assert "a report worker died (killed by signal 9)" in ran.stderr
    assert "The turn stays committed and is published by the next gm run-due or gm turn run." in ran.stderr


@pytest.mark.parametrize("point", ["publish:mid-write", "publish:mid-render"])
def test_a_worker_killed_while_rendering_loses_and_doubles_nothing(point, start, reference, tmp_path, gm):  # noqa: F811
    home = in_workers(copy_of(start, tmp_path / "home"))
    died(gm_process(home, *command("turn run", start), crash_at=point))
    if point == "publish:mid-write":
        assert list((home / "reports").rglob(".*.tmp"))  # the dead worker's copy, never renamed into place
    finish(home, "turn run", start)
    whole_and_once(home, gm, reference)  # no temporary copy left behind among its checks
    assert reports_of(home) == reports_of(reference)
    assert seat_mails(home) == seat_mails(reference) and seat_mails(home)
    assert books_of(home) == books_of(reference)
    assert outbox_of(home) == outbox_of(reference)
    assert eml_files(home) == eml_files(reference)
