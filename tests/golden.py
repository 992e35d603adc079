"""Golden files: what gm writes, held in tests/**/golden/ for review. GM_UPDATE_GOLDEN=1 rewrites
them (then read the diff); a missing golden fails."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gm.rulesets import installed

# The rulesets gm ships (the package gm_games): the ones whose goldens live in gm's tree. A plug-in
# installed beside gm keeps its goldens in its own tree (gm.testing.pytest_plugin's gm_golden);
# gm's tests of every installed ruleset hold no golden of it.
OWN_RULESETS = sorted(name for name, r in installed().items() if type(r.unguarded).__module__.startswith("gm_games."))


def check_golden(path: Path, text: str, what: str = "") -> None:
    """Compare `text` with the golden file at `path`; `what` says what a difference means."""
    if os.environ.get("GM_UPDATE_GOLDEN") == "1":
        path.write_text(text, encoding="utf-8")
    if not path.exists():
        pytest.fail(f"golden file {path} is missing; run with GM_UPDATE_GOLDEN=1 to create it, then review it")
    assert text == path.read_text(encoding="utf-8"), (
        f"{path.name} differs from its golden{': ' + what if what else ''} "
        "(if on purpose, rerun with GM_UPDATE_GOLDEN=1 and review the diff)"
    )
