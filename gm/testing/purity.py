"""The purity rule, held by reading imports: gm/core and every module of a ruleset's package do no
I/O (docs/writing-a-ruleset.md, "The package").

An allow-list: a pure module may import the standard library (less the parts that reach files,
the network, processes, the clock or global state), gm.core, and its own package; a ruleset's
package may also import gm.packaged, the base class that reads the ruleset's own scenario files.
Anything else, a third-party package included, is an offence; so are the module-level random,
open() and reading the clock.
"""

from __future__ import annotations

import ast
import sys
from importlib.util import find_spec
from pathlib import Path

from gm.core.ruleset import Ruleset
from gm.rulesets import Guarded

IMPURE_STDLIB = frozenset(
    {
        "sqlite3", "smtplib", "imaplib", "poplib", "socket", "ssl", "subprocess", "os", "pathlib", "time",
        "shutil", "io", "tempfile", "glob", "urllib", "http", "email", "threading", "multiprocessing",
        "concurrent", "asyncio", "signal", "select", "selectors", "ctypes", "importlib", "logging", "sys",
        "pickle", "shelve", "dbm", "webbrowser", "platform", "getpass", "uuid", "secrets", "fileinput",
        "zipfile", "tarfile", "mmap", "fcntl", "resource", "builtins",
    }
)  # fmt: skip
PURE_STDLIB = frozenset(sys.stdlib_module_names) - IMPURE_STDLIB
# Recurrence arithmetic and date parsing from the decided stack's python-dateutil; gm.core only.
PURE_THIRD_PARTY = frozenset({"dateutil.rrule", "dateutil.relativedelta", "dateutil.parser"})
# Date arithmetic is pure; reading the clock is not.
CLOCK_CALLS = frozenset({"now", "today", "utcnow", "time", "monotonic", "perf_counter", "time_ns"})


def package_folder(module: str) -> Path:
    """The folder of an installed package (a module's own folder for a module)."""
    spec = find_spec(module)
    if spec is None:
        raise ValueError(f"{module} is not installed")
    if spec.submodule_search_locations:
        return Path(next(iter(spec.submodule_search_locations)))
    if spec.origin is None:
        raise ValueError(f"{module} has no file")
    return Path(spec.origin).parent


def ruleset_package(ruleset: Ruleset) -> str:
    """The package whose module defines the ruleset's class."""
    inner = ruleset.unguarded if isinstance(ruleset, Guarded) else ruleset
    return type(inner).__module__


def ruleset_modules(ruleset: Ruleset) -> list[tuple[Path, str]]:
    """(file, package) for every module of the ruleset's package, its subpackages too."""
    package = ruleset_package(ruleset)
    return [(path, package) for path in sorted(package_folder(package).rglob("*.py"))]


def ruleset_offences(ruleset: Ruleset) -> list[str]:
    """'package: file.py:line: imports x' for each offence in the ruleset's package."""
    return [f"{package}: {p}" for path, package in ruleset_modules(ruleset) for p in offences(path, package)]


def within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def allowed(name: str, package: str) -> bool:
    top = name.split(".")[0]
    if top == "__future__" or top in PURE_STDLIB or within(name, "gm.core") or within(name, package):
        return True
    if package == "gm.core":
        return any(within(name, pure) for pure in PURE_THIRD_PARTY)
    return within(name, "gm.packaged")


def _line(node: ast.AST) -> int:
    return node.lineno if isinstance(node, ast.stmt | ast.expr) else 0


def offences(path: Path, package: str) -> list[str]:
    """'file.py:line: what' for each import, open() or clock reading that `package` may not do."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in sorted(ast.walk(tree), key=_line):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
            if "random" in names:
                found.append(f"{path.name}:{node.lineno}: imports the module-level random")
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # from . import x: the module's own package
                continue
            names = [f"{node.module}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "open":
            found.append(f"{path.name}:{node.lineno}: calls open()")
            continue
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in CLOCK_CALLS:
            found.append(f"{path.name}:{node.lineno}: reads the clock ({node.func.attr}())")
            continue
        else:
            continue
        found += [f"{path.name}:{node.lineno}: imports {name}" for name in names if not allowed(name, package)]
    return found
