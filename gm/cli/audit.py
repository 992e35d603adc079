"""gm audit: the GM audit log, which GM did what and when, for one game or the whole house."""

from __future__ import annotations

from typing import Annotated

import typer

from gm.cli.common import HomeOption, JsonOption, echo_json, open_home, within_reach
from gm.cli.shown import echo
from gm.services.audit_text import detail_words
from gm.store import records

WIDTH = 120  # details longer than this are cut in the table; --json gives them whole


def audit(
    game: Annotated[str | None, typer.Argument(help="Only this game's actions (default: every action).")] = None,
    last: Annotated[int | None, typer.Option(min=1, callback=within_reach, help="Only the last N entries.")] = None,
    as_json: JsonOption = False,
    home: HomeOption = None,
) -> None:
    """Print the GM audit log: every action gm took for a GM (games created, players seated,
    turns run and re-run, deadlines, holds, credits, drop-outs), oldest first, with the GM who
    did it ('portal (a player)' for a player's own action on the portal)."""
    _, db = open_home(home)
    game_id = records.game_by_name(db, game).id if game else None
    entries = records.audit_log(db, game_id, last)
    if as_json:
        echo_json(
            [{"at": e.at, "game": e.game, "by": e.actor, "action": e.action, "detail": e.detail} for e in entries]
        )
        return
    if not entries:
        echo("The audit log is empty.")
        return
    for e in entries:
        detail = detail_words(e.detail)
        detail = detail if len(detail) <= WIDTH else detail[: WIDTH - 1] + "…"
        echo(f"{e.at:<20}  {(e.game or '-'):<16}  {e.action:<16}  {e.actor:<12}  {detail}")
