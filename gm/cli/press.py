"""Between players: gm game announce (the GM's note to every seat) and gm game press (the GM's log)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import sqlite_utils
import typer

from gm.cli.common import HomeOption, JsonOption, clock, echo_json, open_home, within_reach
from gm.cli.game import app as game_app
from gm.cli.orders import read_file
from gm.cli.shown import echo
from gm.core.envelope import TurnFileError, decode_turn_file
from gm.core.press import addressee_text
from gm.errors import GMError
from gm.services import press, press_withholding
from gm.store import records


@game_app.command("announce")
def announce(
    game: Annotated[str, typer.Argument(help="The game.")],
    message: Annotated[str | None, typer.Option("--message", "-m", help="The note itself.")] = None,
    file: Annotated[Path | None, typer.Option("--file", help="A text file holding the note.")] = None,
    home: HomeOption = None,
) -> None:
    """Mail a note to every seat of a game at once and put it in the next report (text from
    --message, --file or standard input); written in the audit log."""
    home_, db = open_home(home)
    done = press.announce(db, home_, clock(), game, _text(message, file))
    echo(f"Announcement {done.id} to every seat of {game}; it is in each seat's next report.")
    if done.mailed:
        echo(f"Mailed to {', '.join(done.mailed)} (gm mail send, or gm run-due, sends it).")
    if done.silent:
        why = "robots and seats that left get no mail" if done.mailing else "gm.toml has no [mail] address"
        echo(f"Not mailed to {', '.join(done.silent)} ({why}).")


def _text(message: str | None, file: Path | None) -> str:
    """The note from exactly one of --message, --file and standard input."""
    if message is not None and file is not None:
        raise GMError("give the note once: with --message or with --file, not both.")
    if message is not None:
        return message
    if file is not None:
        try:
            return decode_turn_file(read_file(file), press.ANNOUNCEMENT_LIMIT * 4)[0]
        except TurnFileError as exc:
            raise GMError(f"{file}: {exc}.") from None
    if sys.stdin is None or sys.stdin.isatty():
        raise GMError("no note given. Write it with --message TEXT, --file FILE or on standard input.")
    return sys.stdin.read()


@game_app.command("press")
def press_log(
    game: Annotated[str, typer.Argument(help="The game.")],
    turn: Annotated[int | None, typer.Option(min=1, callback=within_reach, help="Only the press of this turn.")] = None,
    withhold: Annotated[
        int | None,
        typer.Option(
            "--withhold",
            min=1,
            callback=within_reach,
            help="Withhold this message (its id in the list) from its readers.",
        ),
    ] = None,
    release: Annotated[
        int | None, typer.Option("--release", min=1, callback=within_reach, help="Let a withheld message stand again.")
    ] = None,
    reason: Annotated[str, typer.Option(help="Why it is withheld, for the audit log.")] = "",
    as_json: JsonOption = False,
    home: HomeOption = None,
) -> None:
    """List a game's press and announcements as the GM sees them: every sender, anonymous or not.
    --withhold ID: its recipients no longer read it (reports from now on, the portal; its press
    mails not sent yet are cancelled); its sender sees it marked withheld. Written in the audit log."""
    _, db = open_home(home)
    if withhold is not None and release is not None:
        raise GMError("give --withhold or --release, not both.")
    if withhold is not None:
        _withhold(db, game, withhold, reason)
        return
    if release is not None:
        _release(db, game, release)
        return
    rows: list[dict[str, Any]] = [
        {
            "id": p.id,
            "turn": p.turn,
            "sent": p.sent,
            "kind": p.kind,
            "from": p.sender or "GM",
            "signed": p.signed,
            "to": addressee_text(p.recipients, p.everyone, True, None),
            "channel": p.channel,
            "text": p.text,
            "withheld": p.withheld,
        }
        for p in press.game_press(db, records.game_by_name(db, game).id)
        if turn is None or p.turn == turn
    ]
    if as_json:
        echo_json(rows)
        return
    if not rows:
        echo(f"No press in {game}" + (f" in turn {turn}." if turn is not None else " yet."))
    for row in rows:
        sender = row["from"] + ("" if row["signed"] else " (anonymous)")
        first = row["text"].splitlines()[0] if row["text"] else ""
        more = " …" if "\n" in row["text"] or len(first) > 60 else ""
        mark = " [withheld]" if row["withheld"] else ""
        echo(f"{row['id']:>4}  turn {row['turn']:<3} {row['sent']}  {sender} to {row['to']}{mark}: {first[:60]}{more}")


def _withhold(db: sqlite_utils.Database, game: str, withhold: int, reason: str) -> None:
    """gm game press --withhold ID, and what it did in the GM's words."""
    done = press_withholding.withhold(db, clock(), game, withhold, reason)
    echo(
        f"Press message {withhold} of {game} is withheld: its recipients no longer read it, in the reports "
        f"rendered from now on or on the portal; {done.press.sender or 'the GM'} sees it marked withheld."
    )
    if done.cancelled:
        echo(f"Its press mail to {', '.join(done.cancelled)} was not sent yet and never is.")
    _rendered_before(game, done)


def _release(db: sqlite_utils.Database, game: str, release: int) -> None:
    """gm game press --release ID, and what it did in the GM's words."""
    done = press_withholding.release(db, clock(), game, release)
    echo(f"Press message {release} of {game} stands again: its recipients read it in reports and on the portal.")
    _rendered_before(game, done)


def _rendered_before(game: str, done: press_withholding.Withheld) -> None:
    """The reports of a turn already run show the message as it stood: how to render them again."""
    if done.rendered_turn is not None:
        echo(
            f"Turn {done.rendered_turn} has run, and its reports were rendered as the message stood: "
            f"'gm report render {game} --turn {done.rendered_turn}' renders them again (mails already sent stay as they were)."
        )
