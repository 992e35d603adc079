"""The modules of each game import each other without a cycle, and at the top.

A cycle is a sign that something both sides need belongs below them (STYLE.md); an import inside
a function (or under TYPE_CHECKING) hides one, so those count here too. A ruleset's modules are
pure and all loaded with the ruleset, and gm/core is loaded by every command, so neither has a
start-up reason to import inside a function: none does."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.test_service_imports import first_cycle

ROOT = Path(__file__).resolve().parents[2]
GAMES = sorted(path for path in (ROOT / "games").iterdir() if (path / "__init__.py").exists())


def package_imports(source: str, game: str, names: set[str]) -> set[str]:
    """The modules of its own game (of `names`) a module imports, anywhere in it."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            found |= {node.module.split(".")[0]} if node.module else {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith(f"gm_games.{game}."):
            found.add((node.module or "").split(".")[2])
        elif isinstance(node, ast.Import):
            found |= {a.name.split(".")[2] for a in node.names if a.name.startswith(f"gm_games.{game}.")}
    return found & names


def imports_in_functions(source: str) -> list[int]:
    """The lines of the imports made inside a function (a method too)."""
    tree = ast.parse(source)
    functions = [node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)]
    return sorted(
        inner.lineno
        for function in functions
        for inner in ast.walk(function)
        if isinstance(inner, ast.Import | ast.ImportFrom)
    )


def test_the_import_readers_see_late_imports():
    late = (
        "from typing import TYPE_CHECKING\nfrom . import board, economy\nfrom .turn import Turn\n"
        "import gm_games.hill.view\nfrom gm_games.hill.robot import plan\nfrom gm.core.model import Order\n"
        "if TYPE_CHECKING:\n    from .moves import Move\n"
        "def warned(state):\n    from .warnings import order_warnings\n    return order_warnings(state)\n"
        "class Planner:\n    def plan(self):\n        import json\n"
    )
    names = {"board", "economy", "turn", "view", "robot", "moves", "warnings", "rules"}
    assert package_imports(late, "hill", names) == names - {"rules"}
    assert imports_in_functions(late) == [10, 14]


def test_each_game_imports_without_a_cycle():
    assert {game.name for game in GAMES} >= {"clash", "conqueror", "empires", "imperials", "mcempires"}
    cycles = {}
    for game in GAMES:
        modules = {path.stem: path.read_text(encoding="utf-8") for path in game.glob("*.py")}
        graph = {name: package_imports(source, game.name, set(modules)) - {name} for name, source in modules.items()}
        assert graph["__init__"] >= {"orders", "rules"}  # the reader sees the imports it is there to check
        if first_cycle(graph):
            cycles[game.name] = first_cycle(graph)
    assert cycles == {}, f"modules of a game import each other in a cycle: {cycles}"


def test_games_and_the_core_import_at_the_top():
    paths = sorted((ROOT / "games").rglob("*.py")) + sorted((ROOT / "gm" / "core").glob("*.py"))
    late = {str(path.relative_to(ROOT)): imports_in_functions(path.read_text(encoding="utf-8")) for path in paths}
    assert {path: lines for path, lines in late.items() if lines} == {}
