"""gm credits: payments, balances, adjustments, transfers, the policy per game, the CSV export."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import sqlite_utils
import typer

from gm.cli.common import HomeOption, JsonOption, clock, echo_json, open_home, within_reach
from gm.cli.shown import echo
from gm.core.words import counted
from gm.errors import GMError
from gm.services import credits as service, report_mails
from gm.store import records

app = typer.Typer(help="Turn credits and discounts: payments, balances, adjustments, export.", no_args_is_help=True)


def _standing(db: sqlite_utils.Database, email: str) -> str:
    position = service.account_position(db, email)
    return f"{email} now has {counted(position.balance, 'credit')} and a discount of {position.discount}."


@app.command("buy")
def buy(
    email: Annotated[str, typer.Argument(help="The player's e-mail address (their account).")],
    credits: Annotated[int, typer.Argument(callback=within_reach, help="Turn credits bought in this one payment.")],
    paid: Annotated[str, typer.Option("--paid", help="The money received, e.g. 25 or 25.50.")],
    game: Annotated[str | None, typer.Option(help="The game the payment is for.")] = None,
    name: Annotated[str | None, typer.Option(help="Open the account with this name if it is new.")] = None,
    ref: Annotated[
        str | None,
        typer.Option(
            "--ref", help="The payment's own reference (bank or PayPal transaction id): booked once, never twice."
        ),
    ] = None,
    home: HomeOption = None,
) -> None:
    """Record a payment; 10 or more credits at once add the player's discount as bonus turns."""
    home_, db = open_home(home)
    with report_mails.releasing(db, home_, clock()) as released:
        made = service.buy(db, clock(), email, credits, service.parse_money(paid), game, name, ref)
    payment = made[0]
    reference = f", reference {payment.reference}" if payment.reference else ""
    echo(
        f"Payment recorded: {counted(payment.credits, 'credit')} for {service.format_money(payment.money)} "
        f"from {payment.account} (entry {payment.number}{reference})."
    )
    for bonus in made[1:]:
        echo(f"Bonus: {counted(bonus.credits, 'credit')} for a discount of {bonus.credits} (entry {bonus.number}).")
    echo(_standing(db, payment.account))
    _released(released)


def _released(released: list[report_mails.Released]) -> None:
    if released:
        echo(f"{report_mails.released_text(released)}; queued: send them with 'gm mail send'.")


@app.command("show")
def show(
    email: Annotated[str, typer.Argument(help="The player's e-mail address.")],
    as_json: JsonOption = False,
    home: HomeOption = None,
) -> None:
    """An account's balance, discount and every entry."""
    _, db = open_home(home)
    _, email, name = service.account(db, email)
    position = service.account_position(db, email)
    if as_json:
        echo_json(
            {
                "email": email,
                "name": name,
                "balance": position.balance,
                "discount": position.discount,
                "entries": [
                    {
                        "entry": e.number,
                        "date": e.date,
                        "game": e.game,
                        "kind": e.kind,
                        "credits": e.credits,
                        "money": service.format_money(e.money),
                        "discount": e.discount,
                        "balance": e.balance,
                        "memo": e.memo,
                        "reference": e.reference,
                    }
                    for e in service.account_entries(db, email)
                ],
            }
        )
        return
    echo(
        f"{email} ({name}): {counted(position.balance, 'credit')}, discount {counted(position.discount, 'bonus turn')}."
    )
    entries = service.account_entries(db, email)
    if not entries:
        echo("No entries yet.")
        return
    echo(
        f"{'ENTRY':>5}  {'DATE':<20}  {'GAME':<14}  {'KIND':<14}  {'CREDITS':>7}  {'MONEY':>8}  "
        f"{'DISC':>4}  {'BALANCE':>7}  MEMO"
    )
    for e in entries:
        echo(
            f"{e.number:>5}  {e.date:<20}  {(e.game or '-'):<14}  {e.kind:<14}  {e.credits:>7}  "
            f"{service.format_money(e.money):>8}  {e.discount:>4}  {e.balance:>7}  {e.memo}"
        )


@app.command("adjust")
def adjust(
    email: Annotated[str, typer.Argument(help="The player's e-mail address.")],
    reason: Annotated[str, typer.Option(help="Why: kept in the books for good.")],
    credits: Annotated[
        int,
        typer.Option(callback=within_reach, help="Credits to add, or take away with a minus sign: --credits -2."),
    ] = 0,
    discount: Annotated[
        int, typer.Option(callback=within_reach, help="Change the discount (it stays 0 to 10): --discount 3.")
    ] = 0,
    game: Annotated[str | None, typer.Option(help="The game it concerns.")] = None,
    home: HomeOption = None,
) -> None:
    """Correct an account's credits or discount; the reason is required."""
    home_, db = open_home(home)
    with report_mails.releasing(db, home_, clock()) as released:
        entry = service.adjust(db, clock(), email, credits, reason, discount, game)
    echo(
        f"Adjustment recorded (entry {entry.number}): {entry.credits:+d} credits, "
        f"{entry.discount:+d} discount: {entry.memo}"
    )
    echo(_standing(db, entry.account))
    _released(released)


@app.command("transfer")
def transfer(
    giver: Annotated[str, typer.Argument(help="The account the credits leave.")],
    taker: Annotated[str, typer.Argument(help="The account they go to.")],
    credits: Annotated[int, typer.Argument(callback=within_reach, help="How many credits.")],
    reason: Annotated[str, typer.Option(help="Why, e.g. 'return slip of empires-1'.")] = "transfer",
    home: HomeOption = None,
) -> None:
    """Move credits from one account to another (for example leftover credits on a return slip)."""
    home_, db = open_home(home)
    with report_mails.releasing(db, home_, clock()) as released:
        out, back = service.transfer(db, clock(), giver, taker, credits, reason)
    echo(
        f"Transferred {counted(back.credits, 'credit')} from {out.account} to {back.account} "
        f"(entries {out.number} and {back.number})."
    )
    _released(released)


@app.command("policy")
def policy(
    game: Annotated[str, typer.Argument(help="The game.")],
    unpaid: Annotated[
        str | None,
        typer.Option(
            help="hold (the default): charge and hold the report until "
            "paid; deliver: charge and send anyway; free: no charges."
        ),
    ] = None,
    home: HomeOption = None,
) -> None:
    """Show or set what happens to a turn a player cannot pay for, in one game."""
    home_, db = open_home(home)
    released: list[report_mails.Released] = []
    if unpaid is None:
        rules = service.policy(records.game_by_name(db, game))
    else:
        with report_mails.releasing(db, home_, clock()) as released:
            rules = service.set_policy(db, clock(), game, unpaid)
    echo(f"{game}: unpaid turns: {rules['unpaid']} ({service.POLICY_WORDS[rules['unpaid']]}).")
    _released(released)


@app.command("export")
def export(
    as_csv: Annotated[bool, typer.Option("--csv", help="CSV for the bookkeeper (the only format).")] = False,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write to FILE instead of the screen.")] = None,
    home: HomeOption = None,
) -> None:
    """Every ledger entry as CSV; text that a spreadsheet would run as a formula is defused."""
    if not as_csv:
        raise GMError("say which format: gm credits export --csv.")
    _, db = open_home(home)
    text = service.export_csv(db)
    if output is None:
        # CSV's own bytes (its rows end in CR LF, which shown() would spell out): the cells are
        # the ledger's, whose names, reasons and references are printable (an address is only
        # what gm game join lets through) and whose formulas are defused.
        typer.echo(text, nl=False)
        return
    output.write_text(text, encoding="utf-8", newline="")
    echo(f"Wrote {counted(text.count(chr(10)) - 1, 'entry', 'entries')} to {output}.")
