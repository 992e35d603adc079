"""gm starts and ends quickly: it imports only the command that runs (gm.cli.PARTS), yet every help
lists what it did when every module was imported at once; gm turn run starts its render workers
first; the last garbage collections at exit are skipped."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import typer.main
from typer.testing import CliRunner

import gm.cli
from gm.cli import PARTS, app_for, make_app

CLI = Path(gm.cli.__file__).parent
# What is no command of its own: shared by the commands.
NOT_COMMANDS = {"__init__", "common", "progress", "shown"}


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


def test_gm_turn_run_starts_the_render_workers_before_it_imports_the_command(tmp_path):
    """The fork server imports WeasyPrint and CairoSVG (about a second): gm turn run starts it
    before importing anything of the command, unless it will not render in a pool."""
    code = textwrap.dedent(f"""\
        import sys
        from multiprocessing import forkserver
        from gm.cli import _start_renderers
        from gm.home import Home, create_home
        from gm.store.database import open_database

        home = Home(__import__("pathlib").Path({str(tmp_path / "home")!r}))
        create_home(home)
        open_database(home.database).conn.close()
        words = sys.argv[1:] + ["--home", str(home.root)]
        if "one-worker" in words:
            home.settings_file.write_text(home.settings_file.read_text().replace("workers = 0", "workers = 1"))
        _start_renderers([w for w in words if w != "one-worker"])
        started = forkserver._forkserver._forkserver_pid is not None
        print(started, any(m in sys.modules for m in ("gm.cli.turn", "gm.services.reports", "weasyprint")))
        """)
    runs = {
        words: subprocess.run([sys.executable, "-c", code, *words.split()], capture_output=True, text=True, timeout=60)
        for words in ("turn run g1", "turn run g1 --no-render", "turn run g1 one-worker", "turn verify g1")
    }
    assert {words: (ran.stdout.strip(), ran.stderr) for words, ran in runs.items()} == {
        "turn run g1": ("True False", ""),
        "turn run g1 --no-render": ("False False", ""),
        "turn run g1 one-worker": ("False False", ""),
        "turn verify g1": ("False False", ""),
    }


def test_the_objects_left_at_exit_are_not_walked_again():
    code = (
        "import atexit, gc\n"
        "atexit.register(lambda: print('frozen', gc.get_freeze_count() > 0))\n"  # runs after gm's own
        "import gm.cli\n"
    )
    ran = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert (ran.returncode, ran.stdout) == (0, "frozen True\n"), ran.stderr


def loaded_after(code: str) -> set[str]:
    """The modules a fresh interpreter holds once it has run code."""
    code += "\nimport sys\nprint(' '.join(sys.modules))\n"
    ran = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    return set(ran.stdout.split())


def test_what_is_imported_inside_functions_stays_out_of_a_start():
    """Each import gm/cli keeps inside a function saves a start what its module's docstring says:
    gm.cli itself, loaded before `gm turn run` starts its render workers, holds neither the
    database module nor importlib.metadata nor the fork server; the whole command (`gm --help`)
    neither rich's bar, the portal, the contract suite, the cycle's mail hooks and reminders nor
    the reader pool; `gm game` not mail intake."""
    assert loaded_after("import gm.cli") & {"gm.store.database", "importlib.metadata", "gm.render.forkserver"} == set()
    lazy = {"rich.progress", "gm.web.server", "gm.testing.suite", "gm.render.forkserver"}
    lazy |= {"gm.services.rundue_mail", "gm.services.reminders", "multiprocessing.pool"}
    assert loaded_after("from gm.cli import make_app\nmake_app()") & lazy == set()
    assert "gm.services.intake" not in loaded_after("from gm.cli import app_for\napp_for(['game'])")
    assert "gm.services.intake" in loaded_after("from gm.cli import app_for\napp_for(['inbox'])")  # it can see it
