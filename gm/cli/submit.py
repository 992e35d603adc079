"""gm submit: archive a turn file, check it, and store it for its seat."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Annotated

import typer

from gm.cli.common import HomeOption, clock, open_home
from gm.cli.orders import print_problems, read_file
from gm.services import turnfiles
from gm.services.press import PressResult


def submit(
    files: Annotated[list[Path], typer.Argument(help="Turn files to submit.")],
    home: HomeOption = None,
) -> None:
    """Submit turn files: archived first, checked, and stored; the last valid one per seat counts."""
    home_, db = open_home(home)
    bad = False
    for path in files:
        receipt = turnfiles.submit(db, home_, clock(), read_file(path), "file", str(path))
        checked = receipt.checked
        print_problems(path, checked)
        bad = print_press(path, receipt.press) or bad
        if checked.press_only and checked.seat is not None:
            continue
        if checked.refusal:
            bad = True
            continue
        assert checked.seat is not None and checked.game is not None  # a file not refused names both
        where = f"{checked.seat.code} in {checked.game.name}, turn {checked.game.turn}"
        if checked.accepted:
            note = " (replaces the earlier submission)" if receipt.replaced else ""
            note += f"; vote: {checked.vote.words()}" if checked.vote else ""
            typer.echo(f"{path}: accepted {len(checked.orders)} order(s) for {where}{note}")
        else:
            typer.echo(f"{path}: stored but NOT used for {where}: fix the problems above and submit again", err=True)
            bad = True
    if bad:
        raise typer.Exit(1)


def print_press(path: Path, results: Iterable[PressResult]) -> bool:
    """What became of each press message, FILE:LINE: ...; whether any was not sent."""
    for result in results:
        if result.sent:
            typer.echo(f"{path}:{result.line}: press sent to {result.to}")
        else:
            typer.echo(f"{path}:{result.line}: press NOT sent: {result.reason}", err=True)
    return any(not result.sent for result in results)
