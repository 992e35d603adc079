"""Golden files: what gm writes, held in tests/**/golden/ for review. GM_UPDATE_GOLDEN=1 rewrites
them (then read the diff); a missing golden fails."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


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
