"""gm gm: the house's GMs, each with a name, a portal password and, if so limited, their games."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from gm.cli.common import HomeOption, JsonOption, clock, echo_json, open_home
from gm.cli.shown import echo
from gm.errors import GMError
from gm.services import staff

app = typer.Typer(
    help="The house's GMs: named accounts, each with a portal password, optionally limited to some games.",
    no_args_is_help=True,
)


@app.command("add")
def add(
    name: Annotated[str, typer.Argument(help="The GM's name (a letter, then letters, digits, '.', '-', '_').")],
    games: Annotated[
        str | None,
        typer.Option(help="Only these games, as G1,G2 (default: every game and the house).", metavar="G1,G2"),
    ] = None,
    home: HomeOption = None,
) -> None:
    """Add a GM (the owner only). They sign in to /gm once 'gm gm password NAME' has set their password."""
    _, db = open_home(home)
    made = staff.add(db, clock(), name, (games or "").split(","))
    where = f"games {', '.join(made.games)} only" if made.games else "every game"
    echo(f"Added GM {made.name}, for {where}. Next: gm gm password {made.name}")


@app.command("list")
def list_(as_json: JsonOption = False, home: HomeOption = None) -> None:
    """List the house's GMs: the owner first, their games, whether they have a password, who was removed."""
    home_, db = open_home(home)
    found = staff.accounts(db, home_)
    if as_json:
        echo_json(
            [
                {
                    "name": a.name,
                    "role": a.role,
                    "games": list(a.games) or None,
                    "password": bool(a.password_hash),
                    "added": a.added,
                    "removed": a.removed,
                }
                for a in found
            ]
        )
        return
    for a in found:
        games = ", ".join(a.games) if a.games else "every game"
        state = f"removed {a.removed}" if a.removed else ("password set" if a.password_hash else "no password yet")
        echo(f"{a.name:<20}  {a.role:<6}  {games:<30}  {state}")


@app.command("games")
def games_(
    name: Annotated[str, typer.Argument(help="The GM's name.")],
    games: Annotated[
        str, typer.Argument(help="The games they are a GM of from now on, as G1,G2; 'all' for every game.")
    ],
    home: HomeOption = None,
) -> None:
    """Change the games a GM is limited to (the owner only); their portal sessions follow at once."""
    _, db = open_home(home)
    chosen = [] if games.strip().lower() == "all" else games.split(",")
    changed = staff.limit(db, clock(), name, chosen)
    where = f"games {', '.join(changed.games)} only" if changed.games else "every game"
    echo(f"{changed.name} is now a GM of {where}.")


@app.command("remove")
def remove(name: Annotated[str, typer.Argument(help="The GM's name.")], home: HomeOption = None) -> None:
    """Remove a GM (the owner only): they can no longer sign in or act; the audit log keeps their name."""
    _, db = open_home(home)
    gone = staff.remove(db, clock(), name)
    echo(f"{gone.name} is no longer a GM of this house; their sessions on the portal have ended.")


@app.command("password")
def password(name: Annotated[str, typer.Argument(help="The GM's name.")], home: HomeOption = None) -> None:
    """Set a GM's portal password (asked twice, or one line on standard input). A GM sets their
    own; the owner anyone's. It ends their portal sessions and voids their link."""
    home_, db = open_home(home)
    chosen = read_password(f"Password for {name} ({staff.PASSWORD_LENGTH} characters or more)")
    account = staff.set_password(db, home_, clock(), name, chosen)
    echo(f"Password set for {account.name} (the database keeps its scrypt hash). Sign in at /gm.")


def read_password(prompt: str) -> str:
    """A password typed twice at a terminal, or one line piped in."""
    if sys.stdin.isatty():
        chosen: str = typer.prompt(prompt, hide_input=True, confirmation_prompt=True)
    else:
        chosen = sys.stdin.readline().rstrip("\r\n")
    if not chosen:
        raise GMError("no password given. Type it at the prompt, or pipe it in on one line.")
    return chosen
