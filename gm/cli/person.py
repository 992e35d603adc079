"""gm person: a player across games: their address, what gm holds of them, export and erasure."""

from __future__ import annotations

from typing import Annotated

import typer

from gm.cli.common import HomeOption, clock, open_home
from gm.services import people
from gm.store import people as people_store

app = typer.Typer(help="A player across games: a new address, what gm holds of them.", no_args_is_help=True)


@app.command("address")
def address(
    old: Annotated[str, typer.Argument(help="The player's address now.")],
    new: Annotated[str, typer.Argument(help="The address from now on.")],
    home: HomeOption = None,
) -> None:
    """The player's address changes: every seat, the books, the portal and mail not sent yet follow."""
    _, db = open_home(home)
    moved = people.change_address(db, clock(), old, new)
    typer.echo(f"{moved.name}: address {old} changed to {moved.email} (every game, the books, the portal, mail).")


@app.command("show")
def show(
    email: Annotated[str, typer.Argument(help="The player's address (now or before a change).")],
    home: HomeOption = None,
) -> None:
    """The player: name, address, the seats they played and every change of address."""
    _, db = open_home(home)
    person = people.find_person(db, people.current_address(db, email))
    typer.echo(f"{person.name} <{person.email}>, a player since {person.created[:10]}")
    for seat in people_store.tenures(db, person.id):
        until = f" to turn {seat.until_turn - 1}" if seat.until_turn is not None else ""
        typer.echo(f"  seat {seat.code} of {seat.game}, from turn {seat.from_turn}{until}")
    for change in people_store.address_history(db, person.id):
        typer.echo(f"  {change.at[:16].replace('T', ' ')}: {change.old_email} -> {change.new_email} (by {change.by})")
