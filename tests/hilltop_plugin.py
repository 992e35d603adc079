"""Hilltop, the small plug-in kept in tests/plugin_template as an outside author writes one,
installed for one test as a distribution on sys.path: gm finds it through its `gm.games` entry
point as it finds any plug-in (tests/test_plugin_proof.py installs it from a wheel instead)."""

from __future__ import annotations

import importlib
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from gm import rulesets

TEMPLATE = Path(__file__).parent / "plugin_template"
PACKAGE = "hilltop"


def install(site: Path, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """Copy the plug-in's package into `site`, put it on sys.path for this test, return it."""
    shutil.copytree(TEMPLATE / PACKAGE, site / PACKAGE, ignore=shutil.ignore_patterns("__pycache__"))
    info = site / "gm_hilltop-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: gm-hilltop\nVersion: 0.1.0\n")
    (info / "entry_points.txt").write_text(f"[gm.games]\nhilltop = {PACKAGE}:ruleset\n")
    _forget()
    monkeypatch.syspath_prepend(str(site))
    importlib.invalidate_caches()
    rulesets.found.cache_clear()
    return importlib.import_module(PACKAGE)


def _forget() -> None:
    for name in [n for n in sys.modules if n == PACKAGE or n.startswith(PACKAGE + ".")]:
        del sys.modules[name]
    rulesets.found.cache_clear()


@pytest.fixture
def hilltop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ModuleType]:
    """The hilltop plug-in, installed for one test and gone after it."""
    yield install(tmp_path / "site", monkeypatch)
    _forget()
