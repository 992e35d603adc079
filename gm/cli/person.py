"""gm person: a player across games: their address, what gm holds of them, export and erasure."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from gm.cli.common import HomeOption, clock, open_home
from gm.cli.shown import echo
from gm.services import erasure, people, person_export
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
    echo(f"{moved.name}: address {old} changed to {moved.email} (every game, the books, the portal, mail).")


@app.command("show")
def show(
    email: Annotated[str, typer.Argument(help="The player's address (now or before a change).")],
    home: HomeOption = None,
) -> None:
    """The player: name, address, the seats they played and every change of address."""
    _, db = open_home(home)
    person = people.find_person(db, people.current_address(db, email))
    echo(f"{person.name} <{person.email}>, a player since {person.created[:10]}")
    for seat in people_store.tenures(db, person.id):
        until = f" to turn {seat.until_turn - 1}" if seat.until_turn is not None else ""
        echo(f"  seat {seat.code} of {seat.game}, from turn {seat.from_turn}{until}")
    for change in people_store.address_history(db, person.id):
        echo(f"  {change.at[:16].replace('T', ' ')}: {change.old_email} -> {change.new_email} (by {change.by})")


@app.command("export")
def export_(
    email: Annotated[str, typer.Argument(help="The player's address (now or before a change).")],
    out: Annotated[Path | None, typer.Option("--out", "-o", help="The zip to write (default: EMAIL.zip).")] = None,
    home: HomeOption = None,
) -> None:
    """Everything gm holds of a player as one zip: mails, turn files, orders, reports, ledger rows."""
    home_, db = open_home(home)
    made = person_export.export(db, home_, email)
    target = out or Path(f"{people.current_address(db, email)}.zip")
    target.write_bytes(made.data)
    echo(
        f"Wrote {target}: {made.mails} mail(s), {made.turn_files} turn file(s), {made.reports} report file(s), "
        f"{made.ledger_rows} ledger row(s)."
    )


@app.command("forget")
def forget(
    email: Annotated[str, typer.Argument(help="The player's address (now or before a change).")],
    home: HomeOption = None,
) -> None:
    """Replace a player's name and addresses by a pseudonym everywhere and remove their raw mails."""
    home_, db = open_home(home)
    done = erasure.forget(db, home_, clock(), email)
    echo(
        f"Forgotten: {email} is {done.name} <{done.email}> now ({done.addresses} address(es) replaced); "
        f"{done.removed} archived file(s) removed."
    )
    if done.lists:
        echo(f"Taken off {done.lists} waiting or standby list(s): forgotten, they are never seated.")
    if done.games:
        echo(f"Still replaying (gm turn verify): {', '.join(done.games)}.")
