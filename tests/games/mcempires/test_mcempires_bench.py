"""bench/bench_mcempires.py runs to its end: its report step builds the context report.html reads
(it once built its own, fell behind the template and stopped at 'score_title' is undefined)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.slow
def test_the_bench_renders_its_report():
    ran = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "bench_mcempires.py"), "--rounds", "3", "--games", "1", "--reports", "1"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
    )
    assert ran.returncode == 0, ran.stderr[-2000:]
    lines = ran.stdout.splitlines()
    assert [line[:3] for line in lines[1:]] == ["(a)", "(b)", "(c)"]
    assert "one seat's report of round 3" in lines[3]
