"""The portal's modules import each other at the top and without a cycle: a reader sees each
module's place in the graph, and each imports after the ones it uses (STYLE.md). Nothing in gm/web
needs an import inside a function to save start-up time: `gm serve` imports the portal only when
it runs (gm/cli/serve.py)."""

from __future__ import annotations

import ast
from pathlib import Path

import gm.web
from tests.test_service_imports import first_cycle, imported_services

WEB = Path(gm.web.__file__).parent


def imports_inside_functions(source: str) -> list[int]:
    """The lines of the imports written inside a function."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            lines += [n.lineno for n in ast.walk(node) if isinstance(n, ast.Import | ast.ImportFrom)]
    return sorted(lines)


def test_the_portal_imports_without_a_cycle():
    names = {path.stem for path in WEB.glob("*.py")}
    graph = {path.stem: imported_services(path, names, "gm.web") for path in WEB.glob("*.py")}
    assert graph["app"] >= {"player", "gm_desk", "portal"}  # the finder sees the imports it is there to check
    assert first_cycle(graph) is None, f"gm/web's modules import each other in a cycle: {first_cycle(graph)}"


def test_the_portal_imports_at_the_top():
    assert imports_inside_functions("import os\n\ndef f():\n    from gm import web\n    return web\n") == [4]
    inside = {path.name: imports_inside_functions(path.read_text(encoding="utf-8")) for path in WEB.glob("*.py")}
    assert {name: lines for name, lines in inside.items() if lines} == {}
