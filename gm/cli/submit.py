"""gm submit: archive a turn file, check it, and store it for its seat."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Annotated

import sqlite_utils
import typer

from gm.cli.common import HomeOption, clock, open_home
from gm.cli.orders import print_problems, read_file
from gm.cli.shown import echo
from gm.core.words import counted
from gm.errors import GMError
from gm.home import Home
from gm.services import postal, turnfiles
from gm.services.press import PressResult


def submit(
    files: Annotated[list[Path], typer.Argument(help="Turn files to submit.")],
    for_seat: Annotated[
        tuple[str, str] | None,
        typer.Option(
            "--for",
            metavar="GAME SEAT",
            show_default=False,
            help="Orders you type in for a seat's player who sends them by post or phone: no secret "
            "needed, the file may be bare order lines; needs --reason. The acknowledgement is mailed "
            "to the player, or printed when they have no address.",
        ),
    ] = None,
    reason: Annotated[
        str | None,
        typer.Option(
            metavar="TEXT", help="Why you type in the seat's orders (the audit log keeps it, with your name)."
        ),
    ] = None,
    home: HomeOption = None,
) -> None:
    """Submit turn files: archived first, checked, and stored; the last valid one per seat counts.
    With --for GAME SEAT, orders you type in for a postal or phoned player."""
    home_, db = open_home(home)
    if for_seat is not None or reason is not None:
        _type_in(home_, db, files, for_seat, reason)
        return
    bad = False
    for path in files:
        receipt = turnfiles.submit(
            db, home_, clock(), read_file(path), "file", str(path), near=turnfiles.every_game(db)
        )
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
            echo(f"{path}: accepted {counted(len(checked.orders), 'order')} for {where}{note}")
        else:
            echo(f"{path}: stored but NOT used for {where}: fix the problems above and submit again", err=True)
            bad = True
    if bad:
        raise typer.Exit(1)


def print_press(path: Path, results: Iterable[PressResult]) -> bool:
    """What became of each press message, FILE:LINE: ...; whether any was not sent."""
    for result in results:
        if result.sent:
            echo(f"{path}:{result.line}: press sent to {result.to}")
        else:
            echo(f"{path}:{result.line}: press NOT sent: {result.reason}", err=True)
    return any(not result.sent for result in results)


def _type_in(
    home: Home, db: sqlite_utils.Database, files: list[Path], for_seat: tuple[str, str] | None, reason: str | None
) -> None:
    """gm submit FILE --for GAME SEAT --reason TEXT: one file, typed in for the seat's player."""
    if for_seat is None or reason is None:
        raise GMError("orders typed in for a player need both --for GAME SEAT and --reason TEXT.")
    if len(files) != 1:
        raise GMError(f"give one file with --for (not {len(files)}): the orders of that one seat.")
    path = files[0]
    done = postal.type_in(db, home, clock(), read_file(path), *for_seat, reason, str(path))
    result = done.result
    print_press(path, done.receipt.press)
    if result["verdict"] == "refused":
        echo(f"{path}: refused: {result['reason']}", err=True)
    for problem in result.get("problems", []):
        echo(f"{path}:{problem['line']}: {problem['message']}", err=True)
    if result["verdict"] == "accepted":
        note = " (replaces the earlier submission)" if done.receipt.replaced else ""
        where = f"{result['seat']} in {result['game']}, turn {result['turn']}"
        echo(f"{path}: accepted {counted(len(result['orders']), 'order')} for {where}, typed in{note}")
    elif result["verdict"] == "rejected":
        where = f"{result['seat']} in {result['game']}, turn {result['turn']}"
        echo(f"{path}: stored but NOT used for {where}: fix the problems above and type them in again", err=True)
    if done.outbox_id is not None:
        echo(f"The acknowledgement is queued to {done.mailed_to} (mail {done.outbox_id}); gm mail send sends it.")
    else:
        echo(f"Nothing is mailed: {done.unmailed}. Post or read them this acknowledgement.\n")
        echo(f"Subject: {done.written.subject}\n\n{done.written.body}")
    if result["verdict"] != "accepted":
        raise typer.Exit(1)
