"""gm game: create games, seat players, list and show games.

Mail intake's service is imported only by `gm game require-from`, inside it: every other `gm
game` command would pay about 27 ms of its start for it."""

from __future__ import annotations

from typing import Annotated

import typer

from gm.cli.common import (
    GameOptionsOption,
    HomeOption,
    JsonOption,
    clock,
    echo_json,
    open_home,
    parse_options,
    shown_option,
    within_reach,
)
from gm.cli.shown import echo
from gm.services import cycle, games as service, observers, open_games, starting
from gm.services.gameview import census_lines, game_facts
from gm.store import records

app = typer.Typer(help="Create games, seat players, list and show games.", no_args_is_help=True)


@app.command("new")
def new(
    name: Annotated[str, typer.Argument(help="The game's name, as players write it on the GAME line.")],
    ruleset: Annotated[str, typer.Option(help="The ruleset, e.g. clash.")] = "clash",
    scenario: Annotated[str | None, typer.Option(help="A packaged scenario name or a .toml file.")] = None,
    seed: Annotated[int | None, typer.Option(help="The game seed (default: drawn at random and stored).")] = None,
    option: GameOptionsOption = None,
    robots: Annotated[
        int,
        typer.Option(
            callback=within_reach,
            help="Seat this many robots, in the game's last seats: the ruleset's robot plays them all game; they are never dropped, charged or mailed.",
        ),
    ] = 0,
    seats: Annotated[
        int | None,
        typer.Option(
            callback=within_reach,
            help="How many seats the game has, the first of the scenario's seating order (default: as many "
            "as the ruleset allows); it starts when they are all taken, or with 'gm game start'.",
        ),
    ] = None,
    home: HomeOption = None,
) -> None:
    """Create a game; its ruleset's options (mode, optional rules, ...) are chosen here, once."""
    home_, db = open_home(home)
    game = service.create_game(db, clock(), name, ruleset, scenario, seed, parse_options(option), robots, seats)
    echo(
        f"Created game {game.name} ({game.ruleset} {game.ruleset_version}, scenario {game.scenario_name}, seed {game.seed})."
    )
    chosen = game.options.get(service.RULE_OPTIONS, {})
    if chosen:
        echo("Options: " + ", ".join(f"{k}={shown_option(v)}" for k, v in chosen.items()))
    seated = [s.code for s in records.seats_of(db, game.id) if s.status == service.ROBOT]
    if seated:
        echo(f"Robots play {', '.join(seated)}.")
    rules, scenario_ = service.game_ruleset(game)
    echo(f"Seats: {', '.join(service.game_seat_codes(game, rules, scenario_))}.")
    echo(f"Seat players with: gm game join {game.name} EMAIL --name NAME")
    for line in _started(starting.start_if_full(db, home_, clock(), game.name)):
        echo(line)


@app.command("join")
def join(
    game: Annotated[str, typer.Argument(help="The game.")],
    email: Annotated[str, typer.Argument(help="The player's e-mail address.")],
    name: Annotated[str, typer.Option(help="The player's name as reports show it.")],
    seat: Annotated[str | None, typer.Option(help="The seat code (default: the first free seat).")] = None,
    home: HomeOption = None,
) -> None:
    """Seat a player and print their secret (shown only this once; gm stores a hash)."""
    home_, db = open_home(home)
    code, secret = service.join_game(db, clock(), game, email, name, seat)
    echo(f"Seated {name} <{email}> as {code} in {game}.")
    echo(f"Secret for {code}: {secret}")
    echo("Give it to the player now: it is stored hashed and cannot be shown again.")
    for line in _started(starting.start_if_full(db, home_, clock(), game)):
        echo(line)


@app.command("start")
def start(
    game: Annotated[str, typer.Argument(help="A game still open for players.")],
    robots: Annotated[
        bool,
        typer.Option(
            "--robots", help="The robot plays every seat of the game still free (else they are left out of it)."
        ),
    ] = False,
    home: HomeOption = None,
) -> None:
    """Start a game with the seats it has: no more players join; each gets the start mail with the
    board, the order form and the first deadline (from the schedule). The seats nobody took are
    left out of the game, or played by the robot with --robots."""
    home_, db = open_home(home)
    for line in _started(starting.start_game(db, home_, clock(), game, robots)):
        echo(line)


def _started(started: starting.Started | None) -> list[str]:
    return started.lines() if started is not None else []


@app.command("secret")
def secret(
    game: Annotated[str, typer.Argument(help="The game.")],
    seat: Annotated[str, typer.Argument(help="The seat code.")],
    home: HomeOption = None,
) -> None:
    """Give a seat a new secret and print it (the old one stops working; portal sessions and links made before end)."""
    _, db = open_home(home)
    code, new = service.new_seat_secret(db, clock(), game, seat)
    echo(f"New secret for {code} in {game}: {new}")
    echo("Give it to the player now: it is stored hashed and cannot be shown again.")


@app.command("observe")
def observe(
    game: Annotated[str, typer.Argument(help="The game.")],
    email: Annotated[str | None, typer.Argument(help="The observer's address; without it, list them.")] = None,
    stop: Annotated[bool, typer.Option("--stop", help="The address observes the game no more.")] = False,
    home: HomeOption = None,
) -> None:
    """Mail an address each turn's public pages (the scores and what every seat saw), nothing of any seat's own."""
    _, db = open_home(home)
    if email is None:
        if stop:
            raise typer.BadParameter("--stop needs the observer's address.")
        found = observers.observers_of(db, game)
        echo("\n".join(found) if found else f"Nobody observes {game}.")
        return
    if stop:
        observers.stop(db, clock(), game, email)
        echo(f"{email.strip()} observes {game} no more.")
        return
    added = observers.observe(db, clock(), game, email)
    echo(f"{added} observes {game}: the public pages of each turn published from now on go there by mail.")


def _list_open(listing: open_games.Listing, as_json: bool) -> None:
    """What a stranger reads of the open games (private games left out)."""
    if as_json:
        echo_json({"games": [g.to_json() for g in listing.games], "left_out": listing.left_out, "price": listing.price})
        return
    if not listing.games:
        echo("No game is open for sign-up (private games are never listed).")
        return
    echo(f"{'GAME':<20} {'RULESET':<10} {'FREE':>9}  DEADLINES")
    for g in listing.games:
        echo(f"{g.name:<20} {g.ruleset:<10} {f'{g.free} of {g.seats}':>9}  {g.schedule or 'not set yet'}")
    if listing.left_out:
        echo(f"... and {listing.left_out} more (at most {open_games.MOST_LISTED} are listed).")


@app.command("list")
def list_games(
    as_json: JsonOption = False,
    only_open: Annotated[
        bool,
        typer.Option("--open", help="Only the games open for sign-up, as a LIST mail and the portal list them."),
    ] = False,
    home: HomeOption = None,
) -> None:
    """List the games in this home."""
    home_, db = open_home(home)
    if only_open:
        _list_open(open_games.open_games(db, home_), as_json)
        return
    games = records.all_games(db)
    if as_json:
        echo_json(
            [
                {
                    "name": g.name,
                    "ruleset": g.ruleset,
                    "status": g.status,
                    "turn": g.turn,
                    "seats": len(records.seats_of(db, g.id)),
                }
                for g in games
            ]
        )
        return
    if not games:
        echo("No games yet. Create one with: gm game new NAME --ruleset clash")
        return
    echo(f"{'GAME':<20} {'RULESET':<10} {'STATUS':<8} {'TURN':>4}  SEATS")
    for g in games:
        seats = len(records.seats_of(db, g.id))
        echo(f"{g.name:<20} {g.ruleset:<10} {g.status:<8} {g.turn:>4}  {seats}")


@app.command("show")
def show(
    game: Annotated[str, typer.Argument(help="The game.")],
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the documented JSON (docs/game-show-json.md).")
    ] = False,
    gm_secrets: Annotated[
        bool, typer.Option("--gm-secrets", help="Also show what players may not know yet: the census schedule.")
    ] = False,
    home: HomeOption = None,
) -> None:
    """Show a game's current state as the GM sees it."""
    _, db = open_home(home)
    facts = game_facts(db, game, gm_secrets)
    if as_json:
        echo_json(facts)  # valid JSON: the controls shown.in_json escapes as \u, not \x
        return
    echo(
        f"{facts['name']}: {facts['title']} ({facts['ruleset']} {facts['ruleset_version']}, "
        f"scenario {facts['scenario']}, seed {facts['seed']})"
    )
    if facts["status"] == "over":  # its turn is the one that never comes: nothing is collected
        echo("Status over: it takes no more orders")
    else:
        echo(f"Status {facts['status']}, collecting turn {facts['turn']}: {facts['turn_label']}")
    if facts["deadline"]:
        echo(f"Deadline {facts['deadline']}")
    echo("Seats:")
    for s in facts["seats"]:
        marks = [s["status"]] if s["status"] != "active" else []
        marks += [f"standby since turn {s['since_turn']}"] if s["since_turn"] else []
        echo(
            f"  {s['code']:<4} {s['name']:<24} {s['email']:<32} orders: {s['orders']:<9} score {s['score']}"
            + (f"  ({', '.join(marks)})" if marks else "")
        )
    if facts["standbys"]:
        echo("Standbys, first in line first: " + ", ".join(f"{w['name']} <{w['email']}>" for w in facts["standbys"]))
    if facts["outcome"]:
        echo(f"Over: {', '.join(facts['outcome']['winners'])} won ({facts['outcome']['reason']}).")
    if gm_secrets:
        echo(census_lines(facts.get("census")))


@app.command("require-from")
def require_from(
    game: Annotated[str, typer.Argument(help="The game.")],
    required: Annotated[
        str,
        typer.Argument(
            help="yes: mailed turn files count only from the seat's registered address; no: from anywhere (the secret decides)."
        ),
    ],
    home: HomeOption = None,
) -> None:
    """Whether turn files by mail must come from the seat's registered address (the secret is always needed)."""
    from gm.services.intake import set_require_from

    _, db = open_home(home)
    on = set_require_from(db, clock(), game, required)
    echo(
        f"{game}: turn files by mail count only from each seat's registered address."
        if on
        else f"{game}: turn files by mail count from any address; the secret decides."
    )


@app.command("deadline")
def deadline(
    game: Annotated[str, typer.Argument(help="The game.")],
    when: Annotated[
        str,
        typer.Argument(
            help="The new deadline, e.g. '2026-11-27 18:00 Europe/London' (zone: the schedule's, else UTC)."
        ),
    ],
    past: Annotated[
        bool, typer.Option("--past", help="Accept a time that has passed (the turn is due at once).")
    ] = False,
    home: HomeOption = None,
) -> None:
    """Push (or set) the deadline of the turn being collected; the schedule goes on after it."""
    _, db = open_home(home)
    echo(f"Deadline of {game}: {cycle.push_deadline(db, clock(), game, when, past)}")
