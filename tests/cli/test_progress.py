"""The progress bar and live line draw only on a terminal: scripts, logs and tests see plain text."""

from __future__ import annotations

import io
import sys

import pytest

from gm.cli import main, progress


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


def test_working_draws_a_live_line_on_a_terminal_only(monkeypatch, capsys):
    with progress.working("gm turn run g1") as now:
        now("resolving turn 1")
    assert capsys.readouterr() == ("", "")
    out, err = Terminal(), Terminal()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    monkeypatch.setenv("TERM", "xterm")
    with progress.working("gm turn run g1") as now:
        now("resolving turn 1")
    assert out.getvalue() == "" and "gm turn run g1: resolving turn 1" in err.getvalue()


def test_gm_turn_run_is_not_silent_on_a_terminal(home, game, monkeypatch):
    """Issue 28: gm turn run said nothing for 10-16 s on a terminal while it rendered. A live line
    says what it does; the command's own lines are printed above it (rich carries them while the
    line is live), the same lines as in a log."""
    out, err = Terminal(), Terminal()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.setattr(sys, "argv", ["gm", "turn", "run", "g1", "--now", "--home", str(home)])
    with pytest.raises(SystemExit) as ended:
        main()
    assert ended.value.code == 0
    screen = out.getvalue() + err.getvalue()
    assert "gm turn run g1: rendering turn 1's reports and queueing their mails" in screen
    assert "g1: turn 1 resolved, state " in screen and "Reports: " in screen
