"""One bad message never stops the others: a turn file of tens of thousands of mistaken lines
(well under the 1 MB a turn file may be) is answered in seconds. Each problem of the
acknowledgement used to split the whole file again to quote its line: 40,000 lines took about a
minute of CPU, a file at the size limit more than ten, and intake took nothing else meanwhile."""

from __future__ import annotations

import random
import time

import pytest

from tests.intake.mails import mail, receive, rows, turn_file

LINES = 40_000  # about 440 KB of mistakes
CPU_SECONDS = 20  # about 2 s here with the file split once; about 60 s when split for each problem


@pytest.mark.slow
def test_a_file_of_mistakes_is_answered_in_seconds(home, gm, mail_home, monkeypatch):
    rng = random.Random(7)
    junk = ("".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") for _ in range(6)) + " 1 2" for _ in range(LINES))
    raw = mail(turn_file(mail_home["BR"], "\n".join(junk)))
    started = time.process_time()
    ran = receive(gm, monkeypatch, raw, home)
    spent = time.process_time() - started
    assert (ran.code, ran.err) == (0, "")
    assert f"rejected 0 order(s) for BR in g1, turn 1; {LINES} problem(s)" in ran.out
    assert rows(home, "SELECT count(*) FROM submissions WHERE verdict = 'rejected'") == [(1,)]
    assert spent < CPU_SECONDS, f"{LINES} mistaken lines took {spent:.1f} CPU-s"
