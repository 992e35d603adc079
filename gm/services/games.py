"""Games and seats: creating a game, seating players, the current state."""

from __future__ import annotations

import json
import re
import secrets as system_secrets
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path

import sqlite_utils

from gm.clock import Clock, iso
from gm.core.model import JSONObject, SeatInfo
from gm.core.ruleset import Ruleset, ScenarioError, TurnSeeds, choose_options, with_options
from gm.errors import GMError
from gm.rulesets import get_ruleset
from gm.seat_secrets import hash_secret, new_secret
from gm.services import gunboat
from gm.store import records
from gm.store.database import atomic, transaction
from gm.store.games import add_game, game_exists
from gm.store.records import GameRecord
from gm.store.seats import add_seat, set_secret_hash
from gm.store.turns import latest_state

RULE_OPTIONS = "rules"  # games.options[RULE_OPTIONS]: the ruleset's game options chosen at creation
SEATS = "seats"  # games.options[SEATS]: how many seats the game has (gm game new --seats, or as it started)
# A robot seat's account: one for every robot, at an .invalid address so no mail is ever queued to
# it (RFC 2606 reserves .invalid). Its seat's status is ROBOT, which no drop-out, charge, reminder
# or early-run check counts (they all look for 'active' seats).
ROBOT = "robot"
ROBOT_EMAIL, ROBOT_NAME = "robot@robots.invalid", "Robot"
ROBOT_SECRET = "robot"  # stored instead of a hash: check_secret never matches it, so no one signs in
_GAME_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")
_EMAIL = re.compile(r"^[^@\s<>\"',;]+@[^@\s<>\"',;]+\.[^@\s<>\"',;]+$")


def load_scenario(ruleset: Ruleset, scenario: str | None) -> tuple[str, str, JSONObject]:
    """(name, TOML text, parsed scenario) from a packaged name or a file path."""
    choice = scenario or ruleset.default_scenario()
    path = Path(choice)
    try:
        if choice.endswith(".toml") or path.exists():
            try:
                text = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                raise GMError(f"cannot read scenario file {choice}: {exc}.") from exc
            name = path.stem
        else:
            if choice not in ruleset.scenario_names():
                raise GMError(
                    f"unknown scenario '{choice}' for {ruleset.name}. "
                    f"Scenarios: {', '.join(ruleset.scenario_names())}, or give a .toml file."
                )
            text, name = ruleset.scenario_text(choice), choice
        return name, text, ruleset.load_scenario(text, choice)
    except ScenarioError as exc:
        raise GMError(f"scenario {choice} is broken: {exc}") from exc


def create_game(
    db: sqlite_utils.Database,
    clock: Clock,
    name: str,
    ruleset_name: str,
    scenario: str | None = None,
    seed: int | None = None,
    options: Mapping[str, object] | None = None,
    robots: int = 0,
    seats: int | None = None,
) -> GameRecord:
    """A new game, open for players to join. options: the GM's choices among the ruleset's
    game options (NAME -> value as typed); every option is stored, defaults included.
    robots: how many seats the ruleset's robot plays for the whole game, the last ones of the
    game's seats (players join the first free seats). seats: how many seats the game has, the
    first of the scenario's seating order, within the ruleset's limits (default: as many as it
    allows); the game starts when they are all taken."""
    if not _GAME_NAME.match(name):
        raise GMError(f"'{name}' is not a usable game name: use 1-40 lower-case letters, digits, '-' or '_'.")
    ruleset = get_ruleset(ruleset_name).for_game(name)
    scenario_name, text, parsed = load_scenario(ruleset, scenario)
    chosen = chosen_options(ruleset, options or {})
    try:
        codes = ruleset.seat_codes(with_options(parsed, chosen))
        low, high = ruleset.seat_limits(with_options(parsed, chosen))
    except ScenarioError as exc:
        raise GMError(f"scenario {scenario_name} cannot be played with these options: {exc}.") from exc
    most = min(high, len(codes))
    if seats is not None and not low <= seats <= most:
        raise GMError(
            f"--seats {seats}: scenario {scenario_name} of {ruleset.name} is played by {low} to {most} seats; "
            f"give a number from {low} to {most}."
        )
    count = most if seats is None else seats
    if not 0 <= robots <= count:
        raise GMError(f"--robots {robots}: the game has {count} seats; seat 0 to {count} robots.")
    if game_exists(db, name):
        raise GMError(f"a game named '{name}' already exists. Choose another name.")
    if seed is None:
        seed = system_secrets.randbelow(2**31)
    if not 0 <= seed < 2**63:
        raise GMError(f"the seed must be a whole number from 0 to {2**63 - 1}, not {seed}.")
    with transaction(db):
        game_id = add_game(
            db,
            name=name,
            ruleset=ruleset.name,
            ruleset_version=ruleset.version,
            scenario_name=scenario_name,
            scenario_text=text,
            seed=seed,
            created=iso(clock.now()),
            options={**({RULE_OPTIONS: chosen} if chosen else {}), **({SEATS: seats} if seats is not None else {})},
        )
        records.audit(
            db,
            iso(clock.now()),
            game_id,
            "game new",
            {
                "game": name,
                "seed": seed,
                **({"options": chosen} if chosen else {}),
                **({"robots": robots} if robots else {}),
                **({"seats": seats} if seats is not None else {}),
            },
        )
        seat_robots(db, game_id, codes[count - robots : count] if robots else [], iso(clock.now()))
    return records.game_by_name(db, name)


def seat_robots(db: sqlite_utils.Database, game_id: int, codes: list[str], now: str) -> None:
    """Seat the robots (inside the caller's transaction): no secret, the shared robot account."""
    if not codes:
        return
    account = records.account_id(db, ROBOT_EMAIL, ROBOT_NAME, now)
    for code in codes:
        add_seat(db, game_id, code, account, ROBOT_SECRET, ROBOT, now)
        records.audit(db, now, game_id, "seat robot", {"seat": code})


def check_player(email: str, name: str) -> tuple[str, str]:
    """A player's address and name as gm keeps them, or a GMError saying what is wrong."""
    email = email.strip()
    # Printable too: a control or bidi character in an address (the pattern refuses only white
    # space) reached every list, CSV export and mail header that names the player.
    if not _EMAIL.match(email) or not email.isprintable():
        raise GMError(f"'{email}' is not an e-mail address.")
    name = " ".join(name.split())
    # Printable as Python reads it: no control character (C0, DEL, C1) and no format character
    # such as a bidi override, which turned around the lines of every report and page naming them.
    if not name or len(name) > 60 or not name.isprintable():
        raise GMError("the player's name must be 1-60 printable characters.")
    return email, name


def join_game(
    db: sqlite_utils.Database, clock: Clock, game_name: str, email: str, name: str, seat: str | None = None
) -> tuple[str, str]:
    """Seat a player; returns (seat code, secret). The secret is shown once and stored hashed."""
    game = records.game_by_name(db, game_name)
    if game.status != "open":
        raise GMError(
            f"game '{game.name}' has started (turn {game.turn}); players can join only before it starts. "
            "A standby takes a seat that drops out: gm game standby."
        )
    email, name = check_player(email, name)
    ruleset, scenario = game_ruleset(game)
    codes = game_seat_codes(game, ruleset, scenario)
    taken = {s.code for s in records.seats_of(db, game.id)}
    if any(s.email.lower() == email.lower() for s in records.seats_of(db, game.id)):
        raise GMError(f"{email} already has a seat in '{game.name}'.")
    if seat is None:
        free = [c for c in codes if c not in taken]
        if not free:
            raise GMError(f"game '{game.name}' is full ({len(codes)} seats).")
        seat = free[0]
    seat = seat.upper()
    if seat not in codes:
        raise GMError(f"'{seat}' is not a seat of this game. Seats: {', '.join(codes)}.")
    if seat in taken:
        raise GMError(
            f"seat {seat} of '{game.name}' is taken. Free seats: "
            f"{', '.join(c for c in codes if c not in taken) or 'none'}."
        )
    secret = new_secret()
    now = iso(clock.now())
    with atomic(db):  # a savepoint when the waiting list seats players inside a transaction
        account = records.account_id(db, email, name, now)
        add_seat(db, game.id, seat, account, hash_secret(secret), "active", now)
        records.audit(db, now, game.id, "seat join", {"seat": seat, "email": email})
    return seat, secret


def game_seat_codes(game: GameRecord, ruleset: Ruleset, scenario: JSONObject) -> list[str]:
    """The codes of the game's seats, in the scenario's seating order: as many as the GM gave it
    (gm game new --seats; as many as were taken when it started), else as many as the ruleset
    allows."""
    codes = ruleset.seat_codes(scenario)
    most = min(ruleset.seat_limits(scenario)[1], len(codes))
    return codes[: min(int(game.options.get(SEATS, most)), most)]


def new_seat_secret(db: sqlite_utils.Database, clock: Clock, game_name: str, seat_code: str) -> tuple[str, str]:
    """Give a seat a new secret (the player lost theirs); the old one stops working at once.
    Returns (seat code, secret); the secret is shown once and stored hashed."""
    game = records.game_by_name(db, game_name)
    seat = records.seat_by_code(db, game, seat_code)
    if seat.status == ROBOT:
        raise GMError(f"seat {seat.code} of '{game.name}' is played by the robot and has no secret.")
    secret = new_secret()
    with transaction(db):
        set_secret_hash(db, seat.id, hash_secret(secret))
        records.audit(db, iso(clock.now()), game.id, "seat secret", {"seat": seat.code})
    return seat.code, secret


def chosen_options(ruleset: Ruleset, given: Mapping[str, object]) -> dict[str, str | int | bool]:
    """Every game option of the ruleset, the GM's choices read and checked, the rest defaults."""
    try:
        return choose_options(ruleset.game_options(), given)
    except ScenarioError as exc:
        raise GMError(f"{exc} ({ruleset.name}; see 'gm rules list').") from exc


def game_ruleset(game: GameRecord) -> tuple[Ruleset, JSONObject]:
    """The game's ruleset and its parsed scenario with the game's options in it. Parsing a large
    map takes milliseconds and every request of the portal needs it, so parsed scenarios are kept
    per (ruleset, text, options); rulesets never change their arguments, so sharing is safe."""
    ruleset = get_ruleset(game.ruleset).for_game(game.name)  # its faults name the game
    chosen = json.dumps(game.options.get(RULE_OPTIONS, {}), sort_keys=True)
    try:
        return ruleset, _parsed_scenario(game.ruleset, ruleset.version, game.scenario_text, game.scenario_name, chosen)
    except ScenarioError as exc:
        raise GMError(f"the stored scenario of '{game.name}' no longer loads: {exc}") from exc


@lru_cache(maxsize=64)
def _parsed_scenario(ruleset_name: str, version: str, text: str, source: str, chosen: str) -> JSONObject:
    ruleset = get_ruleset(ruleset_name)
    # Options a later version added take their defaults, so an older game still loads.
    options = choose_options(ruleset.game_options(), json.loads(chosen))
    return with_options(ruleset.load_scenario(text, source), options)


def seat_infos(
    db: sqlite_utils.Database, game: GameRecord, ruleset: Ruleset, scenario: JSONObject, turn: int | None = None
) -> list[SeatInfo]:
    """Seats in the scenario's seating order, as the ruleset sees them: named by who plays them
    now, or with `turn` by who played them then (gm turn verify makes the starting state again
    from the players who joined, whoever took a seat over later)."""
    order = {code: i for i, code in enumerate(ruleset.seat_codes(scenario))}
    seats = sorted(records.seats_of(db, game.id), key=lambda s: order[s.code])
    names = records.players_at(db, game.id, turn) if turn is not None else {}
    if gunboat.is_gunboat(game):  # the state never holds a player's name: no view can show it
        return [SeatInfo(s.code, gunboat.hidden_name(s.code)) for s in seats]
    return [SeatInfo(s.code, names.get(s.id, s.name)) for s in seats]


class NotSeated(GMError):
    """A game whose seats cannot start it yet (too few, say): reason is the ruleset's words."""

    def __init__(self, game: str, reason: str):
        super().__init__(f"game '{game}' cannot start as seated: {reason}. Seat players with 'gm game join'.")
        self.reason = reason


def current_state(db: sqlite_utils.Database, game: GameRecord) -> JSONObject:
    """The state the turn being collected is played against.

    Before the first turn the starting state is not stored yet: new_game makes it from the
    seats and the seed, the same every time, so orders can be checked against it.
    """
    state = latest_state(db, game.id)
    if state is not None:
        return state
    ruleset, scenario = game_ruleset(game)
    try:
        return ruleset.new_game(scenario, seat_infos(db, game, ruleset, scenario), TurnSeeds(game.seed, 0))
    except ScenarioError as exc:
        raise NotSeated(game.name, str(exc)) from exc


def score_title(ruleset: Ruleset, state: JSONObject) -> dict[str, str]:
    """What the scores table counts, from the ruleset's score_label: a table titled "Scores"
    that ranks by areas while the page speaks of VP misleads a player."""
    title, column = ruleset.score_label(state)
    return {"title": title, "column": column}
