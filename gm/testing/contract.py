"""The generic invariants: what the contract (docs/writing-a-ruleset.md) asks of every turn of
every ruleset, each a function that returns the lines it broke, [] when all hold.

Every line starts with the name of the invariant (one of the constants below, with no ": " in
it), then ": " and what broke, as a ruleset's own invariants do; gm.testing.battery counts
findings by that name.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from random import Random
from typing import Any

import orjson

from gm.core.model import Event, JSONObject, Order
from gm.core.ruleset import Ruleset
from gm.core.seeds import rng_for
from gm.core.statehash import canonical_json

PURE = "contract, resolve leaves its input alone"
STATE = "contract, the state is plain JSON"
EVENTS = "contract, events are plain JSON"
VIEWS = "contract, views are plain JSON"
ORDERS = "contract, robot orders pass the check"
SCORES = "contract, scores are whole numbers"
OUTCOME = "contract, the outcome names seats of the scenario"
HIDDEN = "D-ALL-5 hidden information"
ENDS = "contract, the game ends"
REPLAY = "D-ALL-1 the same seed gives the same game"
RAISES = "contract, the ruleset never raises"
READERS = "contract, views, scores, robots and invariants leave the state alone"

HIDDEN_OWNERS = 4  # seats a turn whose secrets the hidden check changes (a view each)

# A ruleset with hidden information gives the state as it might be with only one seat's secrets
# changed: hidden_variant(state, seat, rng). (None: the state keeps nothing from any seat).
Variant = Callable[[JSONObject, str, Random], JSONObject | None]


class _Float(Exception):
    """Raised while reading back a state's JSON at its first float or NaN."""


def _no_float(text: str) -> float:
    raise _Float(text)


def json_read_back(value: object, allow_nan: bool = True) -> Any:
    """value written as JSON and read back, as json.loads(json.dumps(value, allow_nan=...))
    gives it, raising what that raises. orjson does it first (a big Empires view in a tenth of the
    time: the battery checks every seat's view every turn); where orjson cannot write the value
    or reads back something else (a tuple, a NaN it writes as null), Python's json does it again,
    so a finding reads the same either way."""
    try:
        back = orjson.loads(orjson.dumps(value))
    except orjson.JSONEncodeError:
        pass
    else:
        if back == value:
            return back
    return json.loads(json.dumps(value, allow_nan=allow_nan))


def state_problems(state: JSONObject, text: str) -> list[str]:
    """The state is dicts, lists, text, whole numbers, booleans and None: it hashes and stores
    as it is (docs/writing-a-ruleset.md, new_game: "no floats, no tuples"). `text` is its
    canonical JSON."""
    try:
        back = json.loads(text, parse_float=_no_float, parse_constant=_no_float)
    except _Float as exc:
        return [f"{STATE}: it holds the number {exc}, not a whole number"]
    if back != state:
        return [f"{STATE}: {first_difference(state, back)} does not read back as it was written"]
    return []


def first_difference(value: object, back: object, path: str = "state") -> str:
    """Where a value and its JSON reading first differ (a tuple, a key that is not text, ...)."""
    if isinstance(value, dict) and isinstance(back, dict):
        for key, item in value.items():
            if not isinstance(key, str) or key not in back:
                return f"{path}[{key!r}]"
            if item != back[key]:
                return first_difference(item, back[key], f"{path}.{key}")
    elif isinstance(value, list) and isinstance(back, list) and len(value) == len(back):
        for i, (item, read) in enumerate(zip(value, back)):
            if item != read:
                return first_difference(item, read, f"{path}[{i}]")
    return f"{path} ({type(value).__name__} {value!r:.60})"


def event_problems(events: tuple[Event, ...]) -> list[str]:
    """Each event is an Event whose JSON reads back as the same event (what gm stores and the
    reports read)."""
    found = []
    for n, event in enumerate(events):
        if not isinstance(event, Event):
            found.append(f"{EVENTS}: event {n} is a {type(event).__name__}, not an Event")
            continue
        try:
            back = Event.from_json(json_read_back(event.to_json(), allow_nan=False))
        except (TypeError, ValueError) as exc:
            found.append(f"{EVENTS}: event {n} ({event.kind}): {exc}")
            continue
        if back != event:
            found.append(f"{EVENTS}: event {n} ({event.kind}): {first_difference(event.data, back.data, 'data')}")
    return found


def view_problems(ruleset: Ruleset, state: JSONObject, seats: list[str]) -> tuple[dict[str, JSONObject], list[str]]:
    """Every seat's view, and the lines of views that are not plain JSON or not the seat's."""
    views, found = {}, []
    for seat in seats:
        view = views[seat] = ruleset.view(state, seat)
        try:
            back = json_read_back(view, allow_nan=False)
        except (TypeError, ValueError) as exc:
            found.append(f"{VIEWS}: {seat}'s view: {exc}")
            continue
        if back != view:
            found.append(f"{VIEWS}: {seat}'s view: {first_difference(view, back, 'view')} does not read back")
        elif view.get("seat") != seat:
            found.append(f"{VIEWS}: {seat}'s view names seat {view.get('seat')!r}")
    return views, found


def hidden_problems(
    ruleset: Ruleset, variant: Variant, state: JSONObject, views: dict[str, JSONObject], where: tuple[int, int]
) -> list[str]:
    """What only one seat may know never changes another seat's view (D-ALL-5): for a seat, the
    state with only its secrets changed (the ruleset's hidden_variant) gives another seat the
    same view. `where` is (game seed, turn): the secrets changed replay. The seats whose secrets
    change (HIDDEN_OWNERS a turn) and the seat that looks turn with the turn, so over a game
    every seat's secrets are looked at by the others, for a few views a turn, not one a pair."""
    if len(views) < 2:
        return []
    seats, (seed, turn), found = list(views), where, []
    for k in range(min(HIDDEN_OWNERS, len(seats))):
        n = (turn * HIDDEN_OWNERS + k) % len(seats)
        owner, seat = seats[n], seats[(n + 1 + turn % (len(seats) - 1)) % len(seats)]
        other = variant(state, owner, rng_for(seed, turn, f"battery:hidden:{owner}"))
        if other is not None and ruleset.view(other, seat) != views[seat]:
            found.append(f"{HIDDEN}: what only {owner} may know shows in {seat}'s view")
    return found


def order_problems(ruleset: Ruleset, state: JSONObject, seat: str, orders: list[Order]) -> list[str]:
    """The robot's orders pass check_orders (the contract's robot_orders) and read back from
    the JSON gm stores them as."""
    found = [
        f"{ORDERS}: {seat}'s robot order fails the check: {p.message}"
        for p in ruleset.check_orders(state, seat, orders)
    ]
    for order in orders:
        if Order.from_json(json_read_back(order.to_json())) != order:
            found.append(f"{ORDERS}: {seat}'s robot order {order.verb} {order.args!r:.60} does not read back from JSON")
    return found


def score_problems(ruleset: Ruleset, state: JSONObject, seats: list[str]) -> list[str]:
    """scores(state) gives every seat a whole number (the shared score table ranks by it)."""
    scores = ruleset.scores(state)
    found = [f"{SCORES}: {seat} has no score" for seat in seats if seat not in scores]
    found += [f"{SCORES}: {seat}'s score is {value!r}" for seat, value in scores.items() if type(value) is not int]
    return found


def outcome_problems(ruleset: Ruleset, state: JSONObject, seats: list[str]) -> list[str]:
    """A finished game names winners among the scenario's seats (`seats`: an AI nation may win
    Conqueror) and whole-number final scores."""
    outcome = ruleset.is_over(state)
    if outcome is None:
        return []
    found = [] if outcome.winners else [f"{OUTCOME}: the game is over with no winner"]
    found += [f"{OUTCOME}: the winner {w} is no seat of the scenario" for w in outcome.winners if w not in seats]
    found += [f"{OUTCOME}: {seat}'s final score is {v!r}" for seat, v in outcome.scores.items() if type(v) is not int]
    return found


def inputs_snapshot(state: JSONObject, orders: dict[str, list[Order]]) -> tuple[str, str]:
    """The inputs of resolve as text, to compare after it ran."""
    return canonical_json(state), canonical_json({s: [o.to_json() for o in listed] for s, listed in orders.items()})


def purity_problems(before: tuple[str, str], state: JSONObject, orders: dict[str, list[Order]]) -> list[str]:
    """resolve changed neither the state nor the orders it was given (docs/design.md)."""
    after = inputs_snapshot(state, orders)
    changed = [what for what, old, new in zip(("its state", "its orders"), before, after) if old != new]
    return [f"{PURE}: resolve changed {' and '.join(changed)}"] if changed else []
