"""The proof of issue 31: an outside author's plug-in, in its own folder, with gm installed from a
wheel into a fresh virtual environment, runs `gm rules test --contract`, its own tests through
gm's pytest plug-in, and `mypy --strict`, all from there and offline.

The plug-in is tests/plugin_template (Hilltop). Both wheels are built here with the setuptools
that `make test` installs (`pip wheel --no-build-isolation --no-index`); gm's dependencies,
pytest and mypy come from this environment's site-packages through a .pth file, so nothing is
downloaded. It prints the seconds of each stage (22 s in all on 2 busy cores, 2026-11-27).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import time
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = Path(__file__).parent / "plugin_template"
GM_SOURCE = ("gm", "games", "templates", "pyproject.toml", "setup.py", "README.md")
SKIP = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", "build")


def run(*command: str | Path, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([str(c) for c in command], cwd=cwd, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, (
        f"{' '.join(map(str, command))} exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
    )
    return done


def clean_environment() -> dict[str, str]:
    """This process's environment without what would point Python at the checkout or this venv."""
    drop = {"PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME", "GM_HOME", "GM_UPDATE_GOLDEN"}
    return {k: v for k, v in os.environ.items() if k not in drop}


def build_wheels(tmp_path: Path, env: dict[str, str]) -> tuple[Path, Path]:
    """gm's wheel, from a copy of its source, and the plug-in's folder, both built into wheels/."""
    source = tmp_path / "gm-source"
    source.mkdir()
    for name in GM_SOURCE:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, source / name, ignore=SKIP)
        else:
            shutil.copy2(path, source / name)
    plugin = tmp_path / "hilltop"
    shutil.copytree(TEMPLATE, plugin, ignore=SKIP)
    wheels = tmp_path / "wheels"
    # One pip for both: its start-up (a second of CPU) is paid once.
    run(
        sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation", "--no-index",
        "--wheel-dir", wheels, source, plugin, cwd=tmp_path, env=env,
    )  # fmt: skip
    return wheels, plugin


@pytest.mark.slow
def test_an_outside_plugin_passes_the_contract_its_tests_and_mypy_strict_from_a_fresh_venv(tmp_path, capsys):
    env = clean_environment()
    stages: list[tuple[str, float]] = []
    began = time.perf_counter()

    def stage(name: str) -> None:
        stages.append((name, time.perf_counter() - began - sum(t for _, t in stages)))

    wheels, plugin = build_wheels(tmp_path, env)
    [gm_wheel] = wheels.glob("gm-*.whl")
    with zipfile.ZipFile(gm_wheel) as wheel:
        assert "gm/py.typed" in wheel.namelist(), "gm's wheel carries py.typed, so a plug-in's mypy reads gm's types"
    stage("two wheels built")

    venv = tmp_path / "venv"
    run(sys.executable, "-m", "venv", "--without-pip", venv, cwd=tmp_path, env=env)
    python = venv / "bin" / "python"
    site = Path(
        run(
            python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])", cwd=tmp_path, env=env
        ).stdout.strip()
    )
    # gm's dependencies (and pytest, mypy) as this environment has them, after the venv's own.
    (site / "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    run(
        sys.executable, "-m", "pip", "--python", python, "install", "--quiet", "--no-deps", "--no-index", "--ignore-installed",
        "--find-links", wheels, "gm", "gm-hilltop", cwd=tmp_path, env=env,
    )  # fmt: skip
    where = run(python, "-c", "import gm, hilltop; print(gm.__file__); print(hilltop.__file__)", cwd=tmp_path, env=env)
    assert all(Path(line).is_relative_to(site) for line in where.stdout.split()), where.stdout
    stage("a fresh venv with both installed")

    contract = run(venv / "bin" / "gm", "rules", "test", "--contract", "hilltop", "--games", "2", cwd=plugin, env=env)
    assert contract.stdout.splitlines()[-1].endswith(" passed, 0 failed") and contract.stderr == ""
    assert "ok     case battle-won.toml" in contract.stdout
    stage("gm rules test --contract hilltop")

    tests = run(python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist", cwd=plugin, env=env)
    assert "3 passed" in tests.stdout
    stage("the plug-in's own tests (pytest, gm's plug-in)")

    typed = run(python, "-m", "mypy", "--strict", "--no-incremental", "hilltop", "tests", cwd=plugin, env=env)
    assert typed.stdout.startswith("Success: no issues found"), typed.stdout
    stage("mypy --strict hilltop tests")

    with capsys.disabled():
        print("\n" + "\n".join(f"  {seconds:6.1f} s  {name}" for name, seconds in stages))
