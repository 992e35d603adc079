"""gm orders: write a prefilled order form, check a turn file offline."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from gm.cli.common import HomeOption, open_home
from gm.errors import GMError
from gm.services import turnfiles

app = typer.Typer(help="Order forms and offline checks of turn files.", no_args_is_help=True)


@app.command("template")
def template(
    game: Annotated[str, typer.Argument(help="The game.")],
    seat: Annotated[str, typer.Argument(help="The seat code.")],
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write to this file instead of printing ('-' prints).")] = None,
    home: HomeOption = None,
) -> None:
    """Write a prefilled turn file for a seat and the turn being collected."""
    _, db = open_home(home)
    form = turnfiles.order_template(db, game, seat)
    if output and str(output) != "-":
        output.write_text(form, encoding="utf-8")
        typer.echo(f"Wrote {output}")
    else:
        typer.echo(form, nl=False)


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


def print_problems(path: Path, checked: turnfiles.Checked) -> None:
    if checked.refusal:
        typer.echo(f"{path}: refused: {checked.refusal}", err=True)
    for problem in checked.problems:
        typer.echo(f"{path}:{problem.line}: {problem.message}", err=True)


@app.command("check")
def check(
    files: Annotated[list[Path], typer.Argument(help="Turn files to check.")],
    home: HomeOption = None,
) -> None:
    """Check turn files against their games' current state; print FILE:LINE: message; exit 1 on any problem."""
    home_, db = open_home(home)
    bad = False
    for path in files:
        checked = turnfiles.check_turn_file(db, home_, read_file(path))
        print_problems(path, checked)
        if checked.accepted:
            typer.echo(f"{path}: OK, {len(checked.orders)} order(s) for {checked.seat.code} in "
                       f"{checked.game.name}, turn {checked.game.turn}")
        bad = bad or not checked.accepted
    if bad:
        raise typer.Exit(1)
