"""Shared fixtures: a fresh GM home, and the gm command run in-process with its exit code."""

from __future__ import annotations

import io
import os
import shutil
import sys
from collections.abc import Callable
from contextlib import redirect_stderr, redirect_stdout
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


def run_gm(*args: str, home: Path | None = None) -> Ran:
    """The gm command run in this process with these arguments, as a user types them."""
    argv = ["gm", *map(str, args)]
    if home is not None:
        argv += ["--home", str(home)]
    out, err = io.StringIO(), io.StringIO()
    with pytest.MonkeyPatch.context() as patch, redirect_stdout(out), redirect_stderr(err):
        patch.setattr(sys, "argv", argv)
        code = _exit_code(main)
    return Ran(code, out.getvalue(), err.getvalue())


def _exit_code(command) -> int:
    try:
        command()
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    return 0


@pytest.fixture
def gm(capsys, monkeypatch):
    """gm("game", "list", home=...) -> Ran(exit code, stdout, stderr)."""

    def run(*args: str, home: Path | None = None) -> Ran:
        argv = ["gm", *map(str, args)]
        if home is not None:
            argv += ["--home", str(home)]
        monkeypatch.setattr(sys, "argv", argv)
        capsys.readouterr()
        code = _exit_code(main)
        captured = capsys.readouterr()
        return Ran(code, captured.out, captured.err)

    return run


@dataclass(frozen=True)
class Made:
    """The homes the `home` and `game` fixtures give, made once per test process by the same gm
    commands, before any test's fixture patches anything, and copied into each test's tmp_path:
    the commands' work (four seat secrets hashed by scrypt, about 0.6 CPU-s) is done once instead
    of once for each of some 540 tests. `gm init` and `gm game new/join` are tested on their own
    (tests/cli); what a test here gets is the same folder and database those commands leave."""

    home: Path
    game: Path
    secrets: dict[str, str]


@pytest.fixture(scope="session", autouse=True)
def backup_key_apart(tmp_path_factory) -> Path:
    """The GM's config folder, where gm backup keeps the backup key: the session's own, never the
    machine user's ~/.config (processes the tests start inherit it)."""
    config = tmp_path_factory.mktemp("config")
    os.environ["XDG_CONFIG_HOME"] = str(config)
    os.environ.pop("GM_BACKUP_KEY", None)
    return config / "gm" / "backup.key"


@pytest.fixture(scope="session", autouse=True)
def made(tmp_path_factory) -> Made:
    folder = tmp_path_factory.mktemp("made")
    assert run_gm("init", home=folder / "home").code == 0
    assert run_gm("init", home=folder / "game").code == 0
    secrets = add_game(run_gm, folder / "game")
    return Made(folder / "home", folder / "game", secrets)


def add_game(gm, home: Path) -> dict[str, str]:
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


@pytest.fixture
def home(tmp_path, made, request) -> Path:
    """A fresh GM home (`gm init`); with clash game g1 in it already when the test asks for `game`."""
    where = tmp_path / "home"
    with_game = "game" in request.fixturenames
    shutil.copytree(made.game if with_game else made.home, where)
    request.node.stash[HOME_HAS_GAME] = with_game
    return where


HOME_HAS_GAME = pytest.StashKey[bool]()


def played_home(made: Made, where: Path, *steps: tuple[str, ...] | Callable[[Path], object]) -> Path:
    """A copy of the `game` fixture's home at `where`, then each step: a gm command (which must
    succeed) or a function of the home (writing gm.toml, a turn file). For a module-scoped fixture,
    so that turns many tests read are run and rendered once per test process (a Clash turn renders
    four PDFs), and each test gets its own copy (use_home)."""
    shutil.copytree(made.game, where)
    for step in steps:
        if callable(step):
            step(where)
            continue
        ran = run_gm(*step, home=where)
        assert ran.code == 0, (step, ran.out, ran.err)
    return where


def use_home(base: Path, home: Path) -> Path:
    """The test's `home` made a copy of `base` (a played_home), before the test or a fixture opens
    it: what the test finds is what the commands would have left had they run in it. A home keeps
    no absolute path (its reports are recorded relative to it), so its copy is the same home."""
    shutil.rmtree(home)
    shutil.copytree(base, home)
    return home


@pytest.fixture
def game(home, made, request) -> dict:
    """A clash game 'g1' with seed 7 and four seated players; returns their secrets by seat."""
    if request.node.stash.get(HOME_HAS_GAME, False):
        return dict(made.secrets)
    # Asked for only as the test ran (request.getfixturevalue): made here by the commands.
    return add_game(request.getfixturevalue("gm"), home)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """In CI (CI=true) every test must run: a skip there means an install step is missing."""
    outcome = yield
    report = outcome.get_result()
    if report.skipped and os.environ.get("CI") and not hasattr(report, "wasxfail"):
        report.outcome = "failed"
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        report.longrepr = f"skipped in CI, which must run every test: {reason}"
