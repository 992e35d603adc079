"""gm/core and every module of every installed ruleset do no I/O: held by reading their imports.

An allow-list: a pure module may import the standard library (less the parts that reach files,
the network, processes, the clock or global state), gm.core, and its own package; a ruleset's
package may also import gm.packaged, the base class that reads the ruleset's own scenario files.
Anything else, a third-party package included, is an offence.
"""

from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path

from gm.rulesets import installed

ROOT = Path(__file__).resolve().parents[2]
IMPURE_STDLIB = {
    "sqlite3",
    "smtplib",
    "imaplib",
    "poplib",
    "socket",
    "ssl",
    "subprocess",
    "os",
    "pathlib",
    "time",
    "shutil",
    "io",
    "tempfile",
    "glob",
    "urllib",
    "http",
    "email",
    "threading",
    "multiprocessing",
    "concurrent",
    "asyncio",
    "signal",
    "select",
    "selectors",
    "ctypes",
    "importlib",
    "logging",
    "sys",
    "pickle",
    "shelve",
    "dbm",
    "webbrowser",
    "platform",
    "getpass",
    "uuid",
    "secrets",
    "fileinput",
    "zipfile",
    "tarfile",
    "mmap",
    "fcntl",
    "resource",
    "builtins",
}
PURE_STDLIB = set(sys.stdlib_module_names) - IMPURE_STDLIB
# Recurrence arithmetic and date parsing from the decided stack's python-dateutil; gm.core only.
PURE_THIRD_PARTY = {"dateutil.rrule", "dateutil.relativedelta", "dateutil.parser"}
# Date arithmetic is pure; reading the clock is not.
CLOCK_CALLS = {"now", "today", "utcnow", "time", "monotonic", "perf_counter", "time_ns"}


def package_folder(module: str) -> Path:
    spec = importlib.util.find_spec(module)
    assert spec is not None and spec.submodule_search_locations, f"{module} is not a package"
    return Path(next(iter(spec.submodule_search_locations)))


def pure_modules() -> list[tuple[Path, str]]:
    """(file, the package it belongs to) for gm/core and every module of every ruleset."""
    found = [(path, "gm.core") for path in sorted((ROOT / "gm" / "core").glob("*.py"))]
    for ruleset in installed().values():
        package = type(ruleset.unguarded).__module__
        folder = package_folder(package)
        found += [(path, package) for path in sorted(folder.rglob("*.py"))]
    return found


def within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def allowed(name: str, package: str) -> bool:
    top = name.split(".")[0]
    if top == "__future__" or top in PURE_STDLIB or within(name, "gm.core") or within(name, package):
        return True
    if package == "gm.core":
        return any(within(name, pure) for pure in PURE_THIRD_PARTY)
    return within(name, "gm.packaged")


def offences(path: Path, package: str) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in sorted(ast.walk(tree), key=lambda n: getattr(n, "lineno", 0)):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
            if "random" in names:
                found.append(f"{path.name}:{node.lineno}: imports the module-level random")
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # from . import x: the module's own package
                continue
            names = [f"{node.module}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Call) and getattr(node.func, "id", "") == "open":
            found.append(f"{path.name}:{node.lineno}: calls open()")
            continue
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", "") in CLOCK_CALLS:
            found.append(f"{path.name}:{node.lineno}: reads the clock ({node.func.attr}())")
            continue
        else:
            continue
        found += [f"{path.name}:{node.lineno}: imports {name}" for name in names if not allowed(name, package)]
    return found


def test_pure_modules_do_no_io():
    modules = pure_modules()
    packages = {package for _, package in modules}
    assert {"gm.core", "gm_games.clash", "gm_games.conqueror", "gm_games.empires"} <= packages
    assert any(path.name == "make_europe.py" for path, _ in modules)  # subpackages are read too
    problems = [f"{package}: {p}" for path, package in modules for p in offences(path, package)]
    assert problems == []


def test_the_purity_check_can_fail(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text(
        "import sqlite3\nimport random\nfrom os import path\nopen('x')\nimport datetime\n"
        "datetime.datetime.now()\nimport numpy\nfrom gm.services import games\n"
        "from gm_games.other import rules\nfrom gm.packaged import PackagedRuleset\n"
        "from random import Random\nfrom . import view\nfrom gm.core.model import Order\n"
        "from dateutil.rrule import rrule\nfrom dateutil import tz\n"
    )
    assert offences(bad, "gm_games.mine") == [
        "bad.py:1: imports sqlite3",
        "bad.py:2: imports the module-level random",
        "bad.py:3: imports os.path",
        "bad.py:4: calls open()",
        "bad.py:6: reads the clock (now())",
        "bad.py:7: imports numpy",
        "bad.py:8: imports gm.services.games",
        "bad.py:9: imports gm_games.other.rules",
        "bad.py:14: imports dateutil.rrule.rrule",
        "bad.py:15: imports dateutil.tz",
    ]
    assert offences(bad, "gm.core")[-2:] == [
        "bad.py:10: imports gm.packaged.PackagedRuleset",
        "bad.py:15: imports dateutil.tz",
    ]
