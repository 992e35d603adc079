"""gm/core and the rulesets' pure modules do no I/O: held by reading their imports."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN_MODULES = {"sqlite3", "sqlite_utils", "smtplib", "imaplib", "jinja2", "weasyprint", "requests",
                     "httpx", "socket", "subprocess", "os", "pathlib", "time", "shutil", "io"}
# Date arithmetic is pure; reading the clock is not.
CLOCK_CALLS = {"now", "today", "utcnow", "time", "monotonic"}


def pure_files():
    yield from sorted((ROOT / "gm" / "core").glob("*.py"))
    for game in sorted((ROOT / "games").iterdir()):
        for name in ("rules.py", "orders.py", "robot.py", "view.py"):
            if (game / name).exists():
                yield game / name


def offences(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""]
        elif isinstance(node, ast.Call) and getattr(node.func, "id", "") == "open":
            found.append(f"{path.name}:{node.lineno}: calls open()")
            continue
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", "") in CLOCK_CALLS:
            found.append(f"{path.name}:{node.lineno}: reads the clock ({node.func.attr}())")
            continue
        else:
            continue
        for name in names:
            top = name.split(".")[0]
            if top in FORBIDDEN_MODULES:
                found.append(f"{path.name}:{node.lineno}: imports {name}")
            if top == "random" and isinstance(node, ast.Import):
                found.append(f"{path.name}:{node.lineno}: imports the module-level random")
    return found


def test_pure_modules_do_no_io():
    files = list(pure_files())
    assert any(f.parent.name == "core" for f in files) and any(f.name == "rules.py" for f in files)
    problems = [p for f in files for p in offences(f)]
    assert problems == []


def test_the_purity_check_can_fail(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import sqlite3\nimport random\nfrom os import path\nopen('x')\nimport datetime\ndatetime.datetime.now()\n")
    assert len(offences(bad)) == 5
