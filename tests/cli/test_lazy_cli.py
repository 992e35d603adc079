"""gm imports only the command that runs (gm.cli.PARTS), yet every help lists what it did when
every module was imported at once."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import typer.main
from typer.testing import CliRunner

import gm.cli
from gm.cli import PARTS, app_for, make_app

CLI = Path(gm.cli.__file__).parent
# What is no command of its own: shared by the commands.
NOT_COMMANDS = {"__init__", "common", "progress"}


def test_every_module_of_gm_cli_is_a_part():
    named = {p.module for p in PARTS} | {m for p in PARTS for m in p.also}
    assert named == {f.stem for f in CLI.glob("*.py")} - NOT_COMMANDS


def test_gm_help_lists_every_part_in_order(gm):
    listed = [line.split()[0] for line in gm("--help").out.split("Commands:\n")[1].splitlines() if line.strip()]
    commands_first = sorted(PARTS, key=lambda p: p.attribute == "app")  # typer lists commands, then nouns
    assert listed == [p.name for p in commands_first]
    assert list(typer.main.get_command(make_app()).commands) == listed


def test_a_part_alone_helps_as_in_the_whole_command():
    whole, runner = make_app(), CliRunner()
    for part in PARTS:
        alone = app_for([part.name])
        assert [p.name for p in alone.registered_groups] + [c.name for c in alone.registered_commands] == [part.name]
        assert runner.invoke(alone, [part.name, "--help"]).output == runner.invoke(whole, [part.name, "--help"]).output


def test_gm_game_has_the_commands_other_modules_add(gm):
    out = gm("game", "--help").out
    assert all(f"  {name} " in out for name in ("new", "schedule", "announce", "slips", "waiting")), out


def test_an_unknown_command_still_suggests_the_near_ones(gm):
    ran = gm("tur", "run")
    assert ran.code == 2 and "No such command 'tur'. Did you mean 'turn'?" in ran.err


def test_gm_turn_imports_no_other_command():
    code = (
        "import sys; sys.argv = ['gm', 'turn', '--help']\n"
        "from gm.cli import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in sys.modules if m.startswith('gm.cli.')), file=sys.stderr)\n"
    )
    ran = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = {name.strip("'") for name in ran.stderr.strip().strip("[]").split(", ")}
    assert "gm.cli.turn" in loaded and not loaded & {"gm.cli.inbox", "gm.cli.serve", "gm.cli.credits", "gm.cli.demo"}
