"""gm orders: write a prefilled order form, check a turn file offline."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from gm.cli.common import HomeOption, open_home
from gm.cli.shown import echo
from gm.core.words import counted
from gm.errors import GMError
from gm.services import offline, turnfiles

app = typer.Typer(help="Order forms and offline checks of turn files.", no_args_is_help=True)


@app.command("template")
def template(
    game: Annotated[str, typer.Argument(help="The game.")],
    seat: Annotated[str, typer.Argument(help="The seat code.")],
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write to this file instead of printing ('-' prints).")
    ] = None,
    home: HomeOption = None,
) -> None:
    """Write a prefilled turn file for a seat and the turn being collected."""
    _, db = open_home(home)
    form = turnfiles.order_template(db, game, seat)
    if output and str(output) != "-":
        output.write_text(form, encoding="utf-8")
        echo(f"Wrote {output}")
    else:
        echo(form, nl=False)


# Far above any turn file (the limit is max_bytes in gm.toml), only so that a wrong path such
# as /dev/zero cannot make gm read without end.
READ_LIMIT = 64_000_000


def read_file(path: Path) -> bytes:
    try:
        with open(path, "rb") as handle:
            data = handle.read(READ_LIMIT + 1)
        if len(data) > READ_LIMIT:
            raise GMError(f"{path} is larger than {READ_LIMIT // 1_000_000} MB; it is not a turn file.")
        return data
    except FileNotFoundError:
        raise GMError(f"no file {path}.") from None
    except IsADirectoryError:
        raise GMError(f"{path} is a folder, not a turn file.") from None
    except OSError as exc:
        raise GMError(f"cannot read {path}: {exc.strerror}.") from exc


def print_problems(path: Path, checked: turnfiles.Checked | offline.OfflineCheck, press: bool = False) -> None:
    """A check's refusal, problems and warnings as FILE:LINE: message, in line order; with
    press, a warning for each press message that would not be sent as written (a submit says
    what became of each message itself)."""
    if checked.refusal:
        echo(f"{path}: refused: {checked.refusal}", err=True)
    said = [(p.line, 0, p.message) for p in checked.problems] + [
        (w.line, 1, f"warning: {w.message}") for w in checked.warnings
    ]
    # Press is checked again, against the game, when it is sent; what is wrong as written shows now.
    said += [
        (d.line, 1, f"warning: this press would not be sent: {d.problem}")
        for d in (checked.press if press else ())
        if d.problem
    ]
    for line, kind, message in sorted(said):
        echo(f"{path}: {message}" if kind and not line else f"{path}:{line}: {message}", err=True)


@app.command("check")
def check(
    files: Annotated[list[Path], typer.Argument(help="Turn files to check.")],
    report: Annotated[
        Path | None,
        typer.Option(
            "--report",
            help="A player's check, offline: against this seat's last JSON report (BR.json), "
            "without a GM home or database.",
        ),
    ] = None,
    home: HomeOption = None,
) -> None:
    """Check turn files against their games' current state; print FILE:LINE: message; exit 1 on any problem."""
    if report is not None:
        check_by_report(files, report)
        return
    home_, db = open_home(home)
    bad = False
    for path in files:
        checked = turnfiles.check_turn_file(db, home_, read_file(path), near=turnfiles.every_game(db))
        print_problems(path, checked, press=True)
        if checked.accepted:
            assert checked.seat is not None and checked.game is not None  # a file not refused names both
            echo(
                f"{path}: OK, {counted(len(checked.orders), 'order')} for {checked.seat.code} in "
                f"{checked.game.name}, turn {checked.game.turn}"
            )
        bad = bad or not checked.accepted
    if bad:
        raise typer.Exit(1)


def check_by_report(files: list[Path], report_path: Path) -> None:
    """The player's check (gm orders check --report BR.json): as far as the report can tell."""
    report = offline.read_report(report_path)
    bad = False
    for path in files:
        checked = offline.check_offline(report, read_file(path))
        print_problems(path, checked, press=True)
        if checked.accepted:
            echo(
                f"{path}: OK as far as the report can tell, {counted(len(checked.orders), 'order')} for "
                f"{report.seat} in {report.game}, turn {report.turn + 1}; left to the GM's check: "
                f"{offline.LEFT_TO_THE_GM}"
            )
        bad = bad or not checked.accepted
    if bad:
        raise typer.Exit(1)
