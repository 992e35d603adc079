"""The modules of gm/render import each other without a cycle (imports inside functions count
too); an import inside a function there is only of WeasyPrint, CairoSVG, Pillow or pikepdf (or a
module of gm/render that imports one at its top), said in its module's docstring; and `gm --help`
imports none of them (issue 31)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import gm.render
from tests.test_service_imports import first_cycle

RENDER = Path(gm.render.__file__).parent
HEAVY = {"weasyprint", "cairosvg", "PIL", "pikepdf"}


def imports(tree: ast.Module) -> tuple[set[str], set[str]]:
    """The modules a module imports at its top (inside `with` and `if` too, not `if TYPE_CHECKING:`,
    which only mypy reads), and inside functions."""
    top: set[str] = set()
    inside: set[str] = set()

    def walk(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and isinstance(child.test, ast.Name) and child.test.id == "TYPE_CHECKING":
                continue
            found = inside if in_function else top
            if isinstance(child, ast.ImportFrom) and child.module and not child.level:
                found.add(child.module)
                found.update(f"{child.module}.{a.name}" for a in child.names if child.module == "gm.render")
            elif isinstance(child, ast.Import):
                found.update(alias.name for alias in child.names)
            walk(child, in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))

    walk(tree, False)
    return top, inside


def modules() -> dict[str, ast.Module]:
    return {f"gm.render.{p.stem}": ast.parse(p.read_text(encoding="utf-8")) for p in sorted(RENDER.glob("*.py"))}


def test_render_imports_without_a_cycle():
    trees = modules()
    graph = {name: {m for m in set().union(*imports(tree)) if m in trees} - {name} for name, tree in trees.items()}
    assert graph["gm.render.worker"] >= {"gm.render.pdf", "gm.render.pictures"}  # it sees what it checks
    assert first_cycle(graph) is None, f"gm/render import each other in a cycle: {first_cycle(graph)}"


def test_an_import_inside_a_function_saves_start_up_time_and_says_so():
    trees = modules()
    tops = {name: imports(tree)[0] for name, tree in trees.items()}

    def heavy(module: str, seen: frozenset[str] = frozenset()) -> bool:
        if module.split(".")[0] in HEAVY:
            return True
        return module in tops and module not in seen and any(heavy(m, seen | {module}) for m in tops[module])

    light = {
        name: sorted(m for m in imports(tree)[1] if not heavy(m) and m != "gm.render") for name, tree in trees.items()
    }
    assert {name: found for name, found in light.items() if found} == {}
    silent = [
        name for name, tree in trees.items() if imports(tree)[1] and "inside" not in (ast.get_docstring(tree) or "")
    ]
    assert silent == []


def test_gm_help_imports_no_drawing_library():
    code = (
        "import sys; sys.argv = ['gm', '--help']\n"
        "from gm.cli import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {sorted(HEAVY)!r}), file=sys.stderr)\n"
    )
    ran = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert ran.stderr.strip() == "[]"


def test_gm_render_names_load_from_where_mypy_reads_them():
    """gm.render's names load on first use (_EXPORTS); its `if TYPE_CHECKING:` imports give mypy
    their types, and must name the same modules."""
    tree = modules()["gm.render.__init__"]
    checked = next(n for n in tree.body if isinstance(n, ast.If) and getattr(n.test, "id", "") == "TYPE_CHECKING")
    typed = {
        alias.name: node.module for node in checked.body if isinstance(node, ast.ImportFrom) for alias in node.names
    }
    assert typed == {name: f"gm.render.{module}" for name, module in gm.render._EXPORTS.items()}
    assert sorted(typed) == sorted(gm.render.__all__)
