"""The README documents every command, every --help runs, and the folder READMEs of gm/services
and gm/store give every module of theirs a line."""

from __future__ import annotations

import re
from pathlib import Path

import typer.main

from gm.cli import app

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")


def commands(group, prefix=("gm",)):
    click_group = typer.main.get_command(group) if not hasattr(group, "commands") else group
    for name, command in click_group.commands.items():
        if hasattr(command, "commands"):
            yield from commands(command, prefix + (name,))
        else:
            yield " ".join(prefix + (name,))


def test_every_command_is_in_the_readme():
    found = sorted(commands(app))
    assert "gm turn run" in found and "gm game new" in found
    missing = [c for c in found if c not in README]
    assert missing == []


def test_readme_opens_with_the_two_commands():
    block = README.split("```")[1]
    assert [line.split("#")[0].strip() for line in block.strip().splitlines()[1:]] == ["make demo", "make test"]


def test_every_help_runs(gm):
    for command in commands(app):
        ran = gm(*command.split()[1:], "--help")
        assert ran.code == 0 and "Usage:" in ran.out, command


ROOT = Path(__file__).resolve().parents[1]
SHARED_RULES = ROOT.parent / "shared" / "rules"
RULE_FILES = {
    "DECISIONS.md",
    "README.md",
    "clash-of-empires.txt",
    "conqueror.txt",
    "empires-pbm-winning-and-losing.txt",
    "imperials.txt",
    "minecraft-empires.txt",
}


def test_the_rule_books_are_in_the_project_and_match_the_shared_copy():
    ours = {p.name: p.read_text(encoding="utf-8") for p in (ROOT / "docs" / "rules").iterdir()}
    assert RULE_FILES <= set(ours)
    assert "D-ALL-1" in ours["DECISIONS.md"]
    if SHARED_RULES.is_dir():  # in CI and beside the house's copy: a new decision must be carried in
        behind = [
            p.name
            for p in sorted(SHARED_RULES.iterdir())
            if p.is_file() and p.name != "README.md" and ours.get(p.name) != p.read_text(encoding="utf-8")
        ]
        assert behind == [], f"docs/rules/ differs from {SHARED_RULES}: carry {behind} in"


def test_no_file_points_outside_the_project():
    """The README, the docs and the code cite docs/rules/, never ../shared/, which a clone lacks."""
    checked = [
        ROOT / "README.md",
        ROOT / "Makefile",
        *ROOT.glob("docs/*.md"),
        *ROOT.glob("games/*/README.md"),
        *ROOT.glob("gm/**/*.py"),
        *ROOT.glob("games/**/*.py"),
    ]
    pointing = [str(p.relative_to(ROOT)) for p in checked if "../shared" in p.read_text(encoding="utf-8")]
    assert pointing == []


def test_every_house_decision_cited_is_written_down():
    """A `H-n` cited in code or docs names a decision in docs/house-decisions.md (gm's own, kept
    apart from the shared DECISIONS.md so that copy stays the house's word for word)."""
    written = set(re.findall(r"\*\*(H-\d+) ", (ROOT / "docs" / "house-decisions.md").read_text(encoding="utf-8")))
    sources = [
        ROOT / "README.md",
        ROOT / "CHANGELOG.md",
        *ROOT.glob("docs/*.md"),
        *ROOT.glob("gm/**/*.py"),
        *ROOT.glob("games/**/*.py"),
        *ROOT.glob("tests/**/*.py"),
    ]
    cited = {c for p in sources for c in re.findall(r"\bH-\d+\b", p.read_text(encoding="utf-8"))}
    assert written and cited <= written, f"cited but not written: {sorted(cited - written)}"


def test_every_service_and_store_module_has_its_line():
    root = Path(__file__).resolve().parents[1] / "gm"
    for folder in ("services", "store"):
        listed = (root / folder / "README.md").read_text(encoding="utf-8")
        modules = [p.name for p in sorted((root / folder).glob("*.py")) if p.name != "__init__.py"]
        assert [m for m in modules if f"`{m}`" not in listed] == [], f"gm/{folder}/README.md lacks these"
        named = set(re.findall(r"^\| `([a-z_]+\.py)`", listed, re.MULTILINE))
        assert named - set(modules) == set(), f"gm/{folder}/README.md names modules that are gone"


TYPE_TAG = re.compile(r"<(str|int|float|bool|Path|datetime|list\[[^\]]*\]|(int|float) range)(\.\.\.)?>")


def test_no_help_shows_a_type_tag(gm):
    """Issue 28: help showed typer's type tags (`game <str>`, `--orders <list[Path]>`); every
    value is named in a word instead (GAME, FILE..., N)."""
    for command in ["gm", *commands(app)]:
        ran = gm(*command.split()[1:], "--help")
        assert TYPE_TAG.findall(ran.out) == [], command
    rerun = gm("turn", "rerun", "--help").out
    assert "  GAME    The game." in rerun and "--orders FILE..." in rerun and "--home DIR" in rerun
    assert "--seed N " in gm("game", "new", "--help").out
