"""Shared fixtures: a fresh GM home, and the gm command run in-process with its exit code."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from gm.cli import main

# Speed is measured in bench/, never in tests: no generated example fails for taking longer than
# hypothesis's default 200 ms, nor its data for being slow to make, when CI's cores are shared
# (an Empires parser property failed so once at load 10). What each test asserts is unchanged.
settings.register_profile("gm", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("gm")

# An outside author's plug-in kept as a template: its tests import it as installed, so they run
# only where tests/test_plugin_proof.py installs it, in a fresh venv, never in gm's own run.
collect_ignore = ["plugin_template"]


@dataclass
class Ran:
    code: int
    out: str
    err: str


@pytest.fixture
def gm(capsys, monkeypatch):
    """gm("game", "list", home=...) -> Ran(exit code, stdout, stderr)."""

    def run(*args: str, home: Path | None = None) -> Ran:
        argv = ["gm", *map(str, args)]
        if home is not None:
            argv += ["--home", str(home)]
        monkeypatch.setattr(sys, "argv", argv)
        capsys.readouterr()
        code = 0
        try:
            main()
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        captured = capsys.readouterr()
        return Ran(code, captured.out, captured.err)

    return run


@pytest.fixture
def home(tmp_path, gm) -> Path:
    where = tmp_path / "home"
    assert gm("init", home=where).code == 0
    return where


@pytest.fixture
def game(home, gm) -> dict:
    """A clash game 'g1' with seed 7 and four seated players; returns their secrets by seat."""
    assert gm("game", "new", "g1", "--ruleset", "clash", "--seed", "7", home=home).code == 0
    secrets = {}
    for name in ["Ann", "Bob", "Cy", "Di"]:
        ran = gm("game", "join", "g1", f"{name.lower()}@example.org", "--name", name, home=home)
        assert ran.code == 0, ran.err
        line = next(entry for entry in ran.out.splitlines() if entry.startswith("Secret for "))
        code, secret = line.removeprefix("Secret for ").split(": ")
        secrets[code] = secret
    return secrets


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """In CI (CI=true) every test must run: a skip there means an install step is missing."""
    outcome = yield
    report = outcome.get_result()
    if report.skipped and os.environ.get("CI") and not hasattr(report, "wasxfail"):
        report.outcome = "failed"
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        report.longrepr = f"skipped in CI, which must run every test: {reason}"
