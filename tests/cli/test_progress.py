"""The progress bar and live line draw only on a terminal: scripts, logs and tests see plain text."""

from __future__ import annotations

import io
import sys

from gm.cli import progress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_live_only_when_both_streams_are_a_terminal(monkeypatch):
    for out, err, drawn in [
        (Terminal(), Terminal(), True),
        (io.StringIO(), Terminal(), False),
        (Terminal(), io.StringIO(), False),
    ]:
        monkeypatch.setattr(sys, "stdout", out)
        monkeypatch.setattr(sys, "stderr", err)
        assert progress.live() is drawn


def test_off_a_terminal_nothing_is_drawn_and_lines_stay_plain(capsys):
    with progress.counting("Taking mail", 3) as advance:
        advance()
        advance(2)
    with progress.progress("gm demo") as step:
        step("Turn 1 resolved")
    assert capsys.readouterr() == ("Turn 1 resolved\n", "")


def test_on_a_terminal_the_bar_goes_to_standard_error(monkeypatch):
    out, err = Terminal(), Terminal()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    monkeypatch.setenv("TERM", "xterm")
    with progress.counting("Taking mail", 2) as advance:
        advance(2)
    assert out.getvalue() == "" and "Taking mail" in err.getvalue() and "2/2" in err.getvalue()
