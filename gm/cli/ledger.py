"""gm ledger: prove the books."""

from __future__ import annotations

import typer

from gm.cli.common import HomeOption, open_home
from gm.cli.shown import echo
from gm.core import ledger
from gm.core.words import counted
from gm.services import credits

app = typer.Typer(help="Prove the credit and discount books.", no_args_is_help=True)


@app.command("check")
def check(home: HomeOption = None) -> None:
    """Every balance is the sum of its entries, no charge without a turn, no bonus without a
    qualifying payment, no discount above 10 or below 0, no payment reference twice, no entry
    deleted or unreadable; print 'entry N: message' and exit 1 on a fault."""
    _, db = open_home(home)
    errors = credits.check_books(db)
    for error in errors:
        echo(str(error), err=True)
    if errors:
        echo(f"{len(errors)} fault(s) in the books.", err=True)
        raise typer.Exit(1)
    entries = credits.all_entries(db)
    accounts = len({ledger.account_key(e.account) for e in entries})
    echo(f"The books balance: {counted(len(entries), 'entry', 'entries')}, {counted(accounts, 'account')}.")
