"""bench/bench_intake.py counts what intake spends: the scrypt checks its threads run, and the CPU
of this process and of its reader processes, and the kernel's part of each (issue 32)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.bench_intake import intake, make_house, make_mailbox
from gm.home import Home

pytestmark = pytest.mark.slow  # ten games set up and a turn run in each


def test_the_stopwatch_sees_every_secret_check_and_the_readers_cpu(tmp_path):
    home = Home(tmp_path / "house")
    house = make_house(home)
    maildir = tmp_path / "Maildir"
    made = make_mailbox(maildir, 450, house, seed=1)  # three batches: the readers start on the second

    _, outcomes, run, _ = intake(home, Path(maildir), profile=False, readers=2)

    assert sum(outcomes.values()) == sum(made.values())
    assert run.scrypts >= 1 and run.times["scrypt cpu"] > 0  # was "0 checks": the stopwatch saw none
    assert run.batches_read["by workers"] >= 1
    assert run.cpu["readers"] > 0 and run.cpu["here"] > 0
    # The kernel's share (system time) is part of each, not all of it: the readers parse in user space.
    assert 0 <= run.kernel["readers"] < run.cpu["readers"] and 0 <= run.kernel["here"] < run.cpu["here"]
