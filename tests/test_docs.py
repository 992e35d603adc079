"""The README documents every command, and every --help runs."""
from __future__ import annotations

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
