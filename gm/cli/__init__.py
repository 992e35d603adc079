"""The gm command: one typer sub-app per noun; user errors print one line and exit 1.

Modules are imported inside functions here to keep gm's start short: a command imports its own
module only (make_app), and only `gm turn run` the render workers' fork server (20 ms). The
database module (55 ms) and importlib.metadata (15 ms), which every command loads soon after,
wait until `gm turn run` has started its render workers (_start_renderers)."""

from __future__ import annotations

import atexit
import errno
import gc
import importlib
import sqlite3
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, get_args

import typer
import typer._click as click
from typer.core import TyperArgument, TyperOption

from gm.cli import progress
from gm.cli.shown import echo
from gm.errors import GMError
from gm.home import render_workers, resolve_home
from gm.store.acting import act_as

# A gm command ends by exiting, and the interpreter's last garbage collections walked every object
# still alive (a turn's states, the templates): 0.2-0.3 s of a gm turn run. Frozen first, they are
# not walked and the memory goes back to the system as it would. Only cyclic garbage is left
# uncollected: every file gm writes is closed in a with block or by write_bytes, and the
# database has committed. Registered as gm starts, it runs after the exit handlers of what gm
# imports later (multiprocessing's, which stops the render workers, among them).
atexit.register(gc.freeze)

# What a command that met a full disk says after what it could not write: the transaction it was in
# is rolled back; a turn already committed is published by the next run.
DISK_FULL = "The command stopped there; what it had not saved is not stored. Free some space, then run it again."

HELP = "gm: a play-by-mail game-master toolkit. Start with 'gm demo', or 'gm init' for a GM home."


@dataclass(frozen=True)
class Part:
    """One thing typed after `gm`: its name, the gm.cli module that defines it, and what there
    it is: the function of a command, or "app" for a noun's sub-app. also: the modules that add
    commands to that sub-app (gm game's schedules, press and waiting list). renders: its commands
    that render reports in a pool of workers as soon as they start (see _start_renderers)."""

    name: str
    module: str
    attribute: str
    also: tuple[str, ...] = ()
    renders: tuple[str, ...] = ()


# In the order of `gm --help` (typer lists the commands first, then the nouns, each as added).
PARTS = (
    Part("init", "home", "init"),
    Part("submit", "submit", "submit"),
    Part("demo", "demo", "demo"),
    Part("game", "game", "app", also=("cycle", "press", "signup")),
    Part("orders", "orders", "app"),
    Part("turn", "turn", "app", renders=("run",)),
    Part("report", "report", "app"),
    Part("rules", "rules", "app"),
    Part("inbox", "inbox", "app"),
    Part("mail", "mail", "app"),
    Part("run-due", "cycle", "run_due"),
    Part("status", "cycle", "status"),
    Part("serve", "serve", "serve"),
    Part("portal", "portal", "app"),
    Part("credits", "credits", "app"),
    Part("ledger", "ledger", "app"),
    Part("seat", "seat", "app"),
    Part("person", "person", "app"),
    Part("audit", "audit", "audit"),
    Part("gm", "staff", "app"),
    Part("archive", "archive", "app"),
    Part("backup", "backup", "backup"),
    Part("restore", "backup", "restore"),
    Part("doctor", "doctor", "doctor"),
)


def _version(wanted: bool) -> None:
    if wanted:
        from importlib.metadata import version

        echo(f"gm {version('gm')}")
        raise typer.Exit()


# Who acts, as `gm --as NAME` or GM_NAME named them (None: the home's owner); every command's
# open_home checks the name against the home's GMs (gm.cli.common) and acts as that GM.
requested_gm: str | None = None
requested_noun = ""  # the command's first word (game, inbox, ...), for what a GM of some games may run


def _root(
    context: typer.Context,
    show_version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print gm's version and exit.")
    ] = False,
    as_gm: Annotated[
        str | None,
        typer.Option(
            "--as",
            envvar="GM_NAME",
            metavar="NAME",
            show_default=False,
            help="The GM who acts, as the audit log names them (default: $GM_NAME, else the home's "
            "owner); 'gm gm list' shows the house's GMs.",
        ),
    ] = None,
) -> None:
    """gm: a play-by-mail game-master toolkit. Start with 'gm demo', or 'gm init' for a GM home."""
    global requested_gm, requested_noun
    requested_gm = as_gm.strip() if as_gm and as_gm.strip() else None
    requested_noun = context.invoked_subcommand or ""
    act_as(None)  # until the command's open_home has checked the name


def make_app(parts: Iterable[Part] = PARTS) -> typer.Typer:
    """The gm command with `parts` in it, each module imported only now: a command that runs
    imports what it needs and nothing of the twenty others (about 0.3 s of each gm's start)."""
    root = typer.Typer(help=HELP, no_args_is_help=True, pretty_exceptions_enable=False, add_completion=False)
    root.callback()(_root)
    for part in parts:
        for module in (part.module, *part.also):
            importlib.import_module(f"gm.cli.{module}")
        found = getattr(sys.modules[f"gm.cli.{part.module}"], part.attribute)
        if isinstance(found, typer.Typer):
            root.add_typer(found, name=part.name)
        else:
            root.command(part.name)(found)
    _plain_help(root)
    return root


def app_for(argv: list[str]) -> typer.Typer:
    """The gm command for these arguments: only the part they name; every part for help, the
    version, no arguments or a name gm does not have (its error suggests the near ones)."""
    argv = _after_as(argv)
    named = [p for p in PARTS if argv and p.name == argv[0]]
    return make_app(named or PARTS)


def _after_as(argv: list[str]) -> list[str]:
    """The arguments after a leading `--as NAME` (or `--as=NAME`), which names who acts, not what."""
    if argv[:1] == ["--as"]:
        return argv[2:]
    return argv[1:] if argv[:1] and argv[0].startswith("--as=") else argv


def _start_renderers(argv: list[str]) -> None:
    """Start the render workers' fork server now if the command renders reports in a pool (what
    reports.prepare_render does later): it imports WeasyPrint and CairoSVG, about a second, and
    started before this process imports the command (about 0.3 s) the workers begin that much
    sooner. Anything unclear (no such home, a gm.toml gm cannot read) is left to the command."""
    argv = _after_as(argv)
    part = next((p for p in PARTS if argv and p.name == argv[0]), None)
    if part is None or argv[1:2] == [] or argv[1] not in part.renders or {"--help", "--no-render"} & set(argv):
        return
    from gm.render.forkserver import warm_up

    try:
        home = resolve_home(_home_given(argv))
        if home.database.exists() and render_workers(home) > 1:
            warm_up()
    except (GMError, OSError):
        return


def _home_given(argv: list[str]) -> str | None:
    """The --home the arguments give (the last, as typer takes it), or None."""
    given = [a.removeprefix("--home=") for a in argv if a.startswith("--home=")]
    given += [argv[i + 1] for i, a in enumerate(argv[:-1]) if a == "--home"]
    return given[-1] if given else None


def __getattr__(name: str) -> typer.Typer:
    # gm.cli.app, the whole command (the docs tests walk it), made when first asked for.
    if name == "app":
        globals()["app"] = made = make_app()
        return made
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _plain_help(typer_app: typer.Typer) -> None:
    """Help texts are plain text: rich markup would swallow '[mail]' and every other gm.toml
    section named in square brackets."""
    typer_app.rich_markup_mode = None
    for group in typer_app.registered_groups:
        if group.typer_instance is not None:  # add_typer always sets it
            _plain_help(group.typer_instance)


def command_of(typer_app: typer.Typer) -> click.Command:
    """The click command typer makes of the app, its help naming each value in a word."""
    command = typer.main.get_command(typer_app)
    _plain_values(command)
    return command


def _plain_values(command: click.Command) -> None:
    """Help names each value in a word, as a GM reads it: `--orders FILE`, `--seed N`, `GAME`,
    not typer's type tags (`--orders <list[Path]>`, `--seed <int>`, `game <str>`)."""
    for param in command.params:
        if isinstance(param, TyperArgument):
            param.metavar = param.metavar or (param.name or "value").upper()
            # An argument's help line always adds the tag after its name: it says nothing more.
            param.display_type_rich = _no_tag  # type: ignore[method-assign]
        elif isinstance(param, TyperOption) and param.metavar is None and not (param.is_flag or param.count):
            param.metavar = _value_word(param)
    for sub in getattr(command, "commands", {}).values():
        _plain_values(sub)


def _no_tag(ctx: click.Context) -> None:
    return None


def _value_word(option: TyperOption) -> str:
    """FILE for a path, N for a number, else the option's own name (`--reason REASON`); a list
    of them says it may be given again (`FILE...`)."""
    described = option.type_descriptor
    annotation = get_args(described.annotation)[0] if described.is_list else described.annotation
    if described.is_path or annotation is Path:
        word = "FILE"
    elif annotation in (int, float):
        word = "N"
    else:
        word = (option.name or "value").upper()
    return f"{word}..." if described.is_list else word


def main() -> None:
    progress.doing.clear()
    try:
        _start_renderers(sys.argv[1:])
        command_of(app_for(sys.argv[1:]))()
    except GMError as exc:
        echo(f"Error: {exc}", err=True)
        sys.exit(1)
    except sqlite3.OperationalError as exc:
        from gm.store.database import busy_words, is_busy, is_full  # loaded by the command that met it

        if is_full(exc):  # SQLite rolled back what the command had not committed
            echo(f"Error: the disk is full: SQLite could not write. {DISK_FULL}", err=True)
            sys.exit(1)
        if not is_busy(exc):
            raise  # a bug: its traceback says where
        echo(f"Error: {busy_words()}", err=True)
        sys.exit(1)
    except OSError as exc:
        # A path the GM named (an output file, a home, a certificate) that cannot be used.
        where = f" ({exc.filename})" if exc.filename else ""
        if exc.errno == errno.ENOSPC:
            echo(f"Error: the disk is full{where}. {DISK_FULL}", err=True)
            sys.exit(1)
        echo(f"Error: {exc.strerror or exc}{where}. Check the path and its permissions.", err=True)
        sys.exit(1)
    except UnicodeEncodeError:
        # A value typed in a terminal that is not UTF-8 (Python keeps its bytes as lone surrogates):
        # SQLite, a mail or a file cannot take it.
        odd = next((a for a in sys.argv[1:] if not _utf8(a)), None)
        if odd is None:
            raise  # a bug: its traceback says where
        try:  # the bytes as typed: b"g\xff" shown g\xff
            odd = repr(odd.encode("utf-8", "surrogateescape"))[2:-1]
        except UnicodeEncodeError:
            pass
        echo(
            f"Error: '{odd}' is not UTF-8 text, which gm keeps names, codes and addresses in. Type it "
            "in a UTF-8 terminal (see its locale), or check what a script passes.",
            err=True,
        )
        sys.exit(1)
    except KeyboardInterrupt:  # before the command started (typer turns one in it into exit 130)
        echo(interrupted_line(sys.argv[1:]), err=True)
        sys.exit(130)
    except SystemExit as exc:
        if exc.code == 130 and _by_ctrl_c(exc):
            echo(interrupted_line(sys.argv[1:]), err=True)
        raise


def _by_ctrl_c(exc: BaseException) -> bool:
    """Whether exc was raised while handling a KeyboardInterrupt: typer answers Ctrl-C in a
    command with a silent exit 130, raised from the interrupt."""
    seen: BaseException | None = exc
    while seen is not None and not isinstance(seen, KeyboardInterrupt):
        seen = seen.__context__
    return seen is not None


def interrupted_line(argv: list[str]) -> str:
    """The one line a command stopped by Ctrl-C prints: which command, the step it was at (when it
    named one, see gm.cli.progress.working), and what is left: never anything half-done."""
    argv = _after_as(argv)
    part = next((p for p in PARTS if argv and p.name == argv[0]), None)
    words = ["gm"]
    if part is not None:
        words.append(part.name)
        if part.attribute == "app" and argv[1:2] and not argv[1].startswith("-"):
            words.append(argv[1])
    doing = f" while {progress.doing[0]}" if progress.doing else ""
    home = _home_given(argv)
    where = f" --home {home}" if home else ""
    return (
        f"Interrupted: {' '.join(words)} stopped{doing}. Nothing is left half-done: each change commits "
        "whole or not at all (a turn is resolved and stored, or not at all; one stored but not yet published "
        f"is published by the next gm turn run or gm run-due). gm status{where} shows where each game stands."
    )


def _utf8(value: str) -> bool:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
