"""Players coming and coming back: gm game slips (return slips) and the waiting lists."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Annotated, Any

import typer

from gm.cli.common import HomeOption, JsonOption, clock, echo_json, open_home, within_reach
from gm.cli.game import app as game_app
from gm.cli.shown import echo
from gm.clock import iso
from gm.errors import GMError
from gm.services import signups, waiting
from gm.store import records
from gm.store.slips import slips_of


@game_app.command("slips")
def slips(
    game: Annotated[str, typer.Argument(help="A game that is over.")],
    as_json: JsonOption = False,
    home: HomeOption = None,
) -> None:
    """List each seat's return slip: what the player (or the game's slip-default) chose, or none yet."""
    _, db = open_home(home)
    g = records.game_by_name(db, game)
    taken = slips_of(db, g.id)
    rows = [
        {
            "seat": s.code,
            "email": s.email,
            "status": s.status,
            "taken": taken[s.id].taken if s.id in taken else None,
            "by": taken[s.id].by if s.id in taken else None,
            "choices": taken[s.id].choices if s.id in taken else None,
        }
        for s in records.seats_of(db, g.id)
    ]
    if as_json:
        echo_json(rows)
        return
    for row in rows:
        echo(f"{row['seat']:<4} {row['email']:<28} " + (_said(row) if row["by"] else "no slip yet"))


def _said(row: Mapping[str, Any]) -> str:
    choices = row["choices"]
    parts = [
        "join " + (choices["join"] or "the next game")
        if choices["join"] is not None
        else "no new game"
        if choices["decided"]
        else ""
    ]
    if choices["transfer_to"]:
        amount = "all" if choices["transfer_credits"] is None else choices["transfer_credits"]
        parts.append(f"credits ({amount}) to {choices['transfer_to']}")
    elif choices["carry"]:
        parts.append("keep the credits")
    said = ", ".join(p for p in parts if p) or "nothing: the game ended before slips came by mail"
    return f"{said} ({row['by']}, {row['taken']})"


@game_app.command("waiting")
def waiting_list(
    game: Annotated[str, typer.Argument(help="A game open for players.")],
    clear: Annotated[
        bool, typer.Option("--clear", help="Take them off the lists instead (a flood of sign-ups); audited.")
    ] = False,
    unconfirmed: Annotated[
        bool, typer.Option("--unconfirmed", help="With --clear: only the sign-ups not confirmed.")
    ] = False,
    sender: Annotated[
        str | None,
        typer.Option("--from", help="With --clear: only addresses matching this pattern, e.g. '*@spam.example'."),
    ] = None,
    as_json: JsonOption = False,
    home: HomeOption = None,
) -> None:
    """List who waits for a seat in a game: its own list, then its ruleset's next-game list
    (sign-ups by mail not confirmed yet are marked); or clear them from those lists."""
    if (unconfirmed or sender) and not clear:
        raise GMError("--unconfirmed and --from say what --clear takes off the lists; give --clear too.")
    _, db = open_home(home)
    if clear:
        gone = waiting.clear(db, clock(), game, unconfirmed, sender)
        echo(f"{len(gone)} taken off the waiting lists of {game} (see gm audit {game}).")
        return
    found = waiting.waiting_for(db, game, unconfirmed=True)
    if as_json:
        echo_json([dataclasses.asdict(w) for w in found])
        return
    if not found:
        echo(f"Nobody waits for {game}.")
    now = iso(clock().now())
    for w in found:
        wants = " ".join(w.preferences) or "any seat"
        where = w.game or f"next {w.ruleset} game"
        pending = (
            f"; unconfirmed, {'lapses' if w.confirm_by > now else 'lapsed'} {w.confirm_by}" if w.confirm_by else ""
        )
        echo(f"{w.number:>4}  {w.email:<28} {w.name:<20} {wants:<12} {where} ({w.came}, {w.added}{pending})")


@game_app.command("seat-waiting")
def seat_waiting(
    game: Annotated[str, typer.Argument(help="A game open for players.")],
    only: Annotated[str | None, typer.Option("--only", help="Seat just this e-mail address.")] = None,
    home: HomeOption = None,
) -> None:
    """Seat the waiting players (first come, first seated; their seat wishes where free), mail
    each their secret, and start the game when every seat is taken."""
    home_, db = open_home(home)
    lines = signups.seat_waiting(db, home_, clock(), game, only)
    for line in lines or [f"Nobody to seat in {game}: see gm game waiting {game}."]:
        echo(line)


@game_app.command("remove-waiting")
def remove_waiting(
    game: Annotated[str, typer.Argument(help="The game whose list it is (gm game waiting GAME).")],
    number: Annotated[
        int,
        typer.Argument(min=1, callback=within_reach, help="The player's number on the list (gm game waiting GAME)."),
    ],
    reason: Annotated[str, typer.Option(help="Why, for the audit log.")] = "",
    home: HomeOption = None,
) -> None:
    """Take a player off a waiting list before they are seated (the audit log keeps who and why)."""
    _, db = open_home(home)
    gone = waiting.remove(db, clock(), game, number, reason)
    where = f"the list of {gone.game}" if gone.game else f"the list for the next {gone.ruleset} game"
    echo(f"{gone.name} <{gone.email}> is off {where}.")
