"""The modules of gm/services import each other without a cycle (function-level imports count too),
so each can be read, and imported, after the ones it uses; and none imports the portal or the CLI,
which call them."""

from __future__ import annotations

import ast
from pathlib import Path

import gm.services

SERVICES = Path(gm.services.__file__).parent


def imported_services(path: Path, names: set[str], package: str = "gm.services") -> set[str]:
    """The modules of `package` (gm/services, or another folder of gm's) a module of it imports,
    anywhere in it."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module == package:
            found |= {alias.name for alias in node.names if alias.name in names}
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith(package + "."):
            found.add(node.module.split(".")[2])
        elif isinstance(node, ast.Import):
            found |= {a.name.split(".")[2] for a in node.names if a.name.startswith(package + ".")}
    return found - {path.stem}


def first_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A cycle of the import graph as a list of modules (first repeated at the end), or None."""
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> list[str] | None:
        if module in path:
            return path[path.index(module) :] + [module]
        if module in done:
            return None
        for used in sorted(graph.get(module, ())):
            cycle = visit(used, path + [module])
            if cycle:
                return cycle
        done.add(module)
        return None

    for module in sorted(graph):
        cycle = visit(module, [])
        if cycle:
            return cycle
    return None


def test_the_cycle_finder_finds_one():
    assert first_cycle({"endgame": {"prizes"}, "prizes": set(), "reports": {"endgame"}}) is None
    assert first_cycle({"endgame": {"reports"}, "reports": {"endgame"}}) == ["endgame", "reports", "endgame"]


def test_services_import_without_a_cycle():
    names = {path.stem for path in SERVICES.glob("*.py")}
    graph = {path.stem: imported_services(path, names) for path in SERVICES.glob("*.py")}
    assert graph["reports"] >= {"endgame"}  # the finder sees the imports it is there to check
    assert first_cycle(graph) is None, f"gm/services import each other in a cycle: {first_cycle(graph)}"


def imported_modules(source: str) -> set[str]:
    """Every module a module's source imports, anywhere in it."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and not node.level:
            found |= {node.module or ""} | {f"{node.module}.{alias.name}" for alias in node.names}
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
    return found


def above_the_services(source: str) -> set[str]:
    """What a module imports of the layers that call the services: the portal and the CLI."""
    return {name for name in imported_modules(source) if name.split(".")[:2] in (["gm", "web"], ["gm", "cli"])}


def test_services_import_neither_the_portal_nor_the_cli():
    assert above_the_services(
        "from gm.web.turn_views import turn_view\nimport gm.cli.common\nfrom gm.store import records\n"
    ) == {"gm.web.turn_views", "gm.web.turn_views.turn_view", "gm.cli.common"}
    found = {path.name: above_the_services(path.read_text(encoding="utf-8")) for path in SERVICES.glob("*.py")}
    assert {name: names for name, names in found.items() if names} == {}
