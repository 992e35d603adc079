"""pip install . from a clean clone brings every package, ruleset, scenario, case and template."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA = {".toml", ".html", ".css", ".md"}


def expected_files() -> set[str]:
    """Every source and data file under gm/, games/ and templates/, named as the wheel names it."""
    mapping = {"gm": "gm", "games": "gm_games", "templates": "gm_templates"}
    found = set()
    for folder, installed in mapping.items():
        for path in (ROOT / folder).rglob("*"):
            if "__pycache__" in path.parts or not path.is_file():
                continue
            if path.suffix == ".py" or path.suffix in DATA:
                found.add("/".join((installed, *path.relative_to(ROOT / folder).parts)))
    return found


@pytest.mark.slow
def test_wheel_holds_every_module_and_data_file(tmp_path):
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
        check=True,
        capture_output=True,
    )
    [wheel] = tmp_path.glob("gm-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    missing = sorted(expected_files() - names)
    assert missing == []
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    text = zipfile.ZipFile(wheel).read(entry_points).decode()
    assert "[gm.games]" in text and "clash = gm_games.clash:ruleset" in text
