"""Imperials resolution: a new game (the dealt island, decks, seats), the set-up turn, and one
round per mail turn (rule D-IM-8): each player's turn in order of play, the dice, production or
the robber, offers accepted, then that player's actions in the order written."""

from __future__ import annotations

import copy
from collections.abc import Callable

from gm.core import scenarios
from gm.core.model import JSONObject, Order, Outcome, SeatInfo, TurnResult
from gm.core.ruleset import ScenarioError, TurnSeeds

from . import actions, play, trade, warriors, wonders
from .awards import points
from .cards import new_decks
from .deal import deal_board
from .goods import BANK, IMPROVEMENTS, empty_hand
from .grammar import ACTIONS, STANDING, well_formed
from .produce import produce, roll
from .robber import discards, move_robber
from .setup import order_of_play, run_setup
from .turn import Turn, board_geometry

MODES = ("basic", "wonders")
TARGET = {"basic": 10, "wonders": 13}  # rule D-IM-1
ROUND_LIMIT = 100  # gm's choice: the default of the game option
STANDING_KEYS = {
    "DISCARD": "discard",
    "ROBBER": "robber",
    "GOLD": "gold",
    "DEMOTE": "demote",
    "DRAGON": "dragon",
    "DROP": "drop",
}


def options_of(scenario: JSONObject) -> JSONObject:
    """The game options with gm's defaults filled in."""
    given = scenario.get("options") or {}
    mode = given.get("mode", "basic")
    if mode not in MODES:
        raise ScenarioError(f"mode must be basic or wonders, not {mode!r}")
    limit = given.get("round-limit", ROUND_LIMIT)
    if not isinstance(limit, int) or isinstance(limit, bool) or limit < 0:
        raise ScenarioError(f"round-limit must be a whole number, 0 for none, not {limit!r}")
    return {"mode": mode, "round-limit": limit}


def new_game(scenario: JSONObject, seats: list[SeatInfo], seeds: TurnSeeds) -> JSONObject:
    """The state before the set-up turn: the island dealt from seeds.rng("world")."""
    listed = {s["code"]: s for s in scenario["seats"]}
    seating = scenarios.seating(scenario, list(listed), seats)
    options = options_of(scenario)
    mode = options["mode"]
    names = {s.code: s.name for s in seats}
    board = deal_board(scenario, seeds.rng("world"))
    title = scenario["title"] + (": Wonders & Warriors" if mode == "wonders" else "")
    return {
        "ruleset": "imperials",
        "title": title,
        "scenario": copy.deepcopy(scenario),
        "options": options,
        "mode": mode,
        "target": TARGET[mode],
        "round_limit": options["round-limit"],
        "phase": "setup",
        "round": 0,
        "seating": seating,
        "first": seeds.rng("start").choice(seating),
        "board": {k: board[k] for k in ("slots", "tiles", "ports")},
        "robber": board["robber"],
        "roads": {},
        "buildings": {},
        "warriors": {},
        "bank": dict(BANK),
        "decks": new_decks(mode, seeds.rng("deck")),
        "seats": {code: _seat(listed[code], names[code]) for code in seating},
        "offers": [],
        "next_offer": 1,
        "longest": {"seat": None, "length": 0},
        "army": {"seat": None, "count": 0},
        "wonders": {c: None for c in IMPROVEMENTS},
        "dragon": 0,
        "dragonslayer_left": warriors.DRAGONSLAYER_POINTS,
        "merchant": None,  # W&W: {"seat", "tile"} of the merchant the Merchant card places
        "fleet": None,  # W&W: {"seat", "goods"} the Merchant Fleet trades 2:1 for the rest of a turn
        "winner": None,
        "log": [],
    }


def _seat(listed: JSONObject, name: str) -> JSONObject:
    return {
        "name": name,
        "colour": listed["colour"],
        "colour_name": listed["name"],
        "hand": empty_hand(),
        "cards": [],
        "warriors_played": 0,
        "shown_points": 0,
        "dragonslayer": 0,
        "improvements": {c: 0 for c in IMPROVEMENTS},
        "standing": {},
    }


# ----------------------------------------------------------------------------------------------
# Resolution.


def resolve(state: JSONObject, orders_by_seat: dict[str, list[Order]], seeds: TurnSeeds) -> TurnResult:
    """One mail turn: the set-up, or one round of every player's turn."""
    state = copy.deepcopy(state)
    given = orders_by_seat if isinstance(orders_by_seat, dict) else {}
    orders = {seat: _orders_of(given, seat) for seat in state["seating"]}
    turn = Turn(state, board_geometry(state), seeds, orders=orders)
    if state["phase"] == "over":
        return TurnResult(state, ())
    _standing(turn)
    if state["phase"] == "setup":
        run_setup(turn)
    else:
        _round(turn)
    return TurnResult(state, tuple(turn.events))


def _orders_of(given: dict[str, list[Order]], seat: str) -> list[Order]:
    listed: object = given.get(seat)
    if not isinstance(listed, (list, tuple)):
        return []
    return [o for o in listed if isinstance(o, Order) and isinstance(o.args, (list, tuple)) and well_formed(o)]


def _standing(turn: Turn) -> None:
    """A seat's standing answers: each kind it gives replaces the one kept; the rest stand.
    ACCEPT counts for this round only."""
    for seat, orders in turn.orders.items():
        given: JSONObject = {}
        for order in orders:
            key = STANDING_KEYS.get(order.verb)
            if key == "robber":
                given["robber"] = list(order.args)
            elif key == "dragon":
                given["dragon"] = order.args[0]
            elif key:
                given.setdefault(key, []).extend(order.args)
            elif order.verb == "ACCEPT":
                turn.accepts.setdefault(seat, set()).update(order.args)
        turn.seats[seat]["standing"].update(given)


def _round(turn: Turn) -> None:
    state = turn.state
    state["log"] = []
    sequence = order_of_play(state)
    turn.add(
        "order_of_play",
        f"Round {state['round']}: the order of play is " + ", ".join(turn.name(s) for s in sequence) + ".",
        order=sequence,
        round=state["round"],
    )
    for seat in sequence:
        _player_turn(turn, seat)
        if state["winner"]:
            return
    state["first"] = sequence[1 % len(sequence)]  # the order of play rotates (rule D-ALL-4)
    if state["round_limit"] and state["round"] >= state["round_limit"]:
        return _limit_reached(turn)
    state["round"] += 1


def _player_turn(turn: Turn, seat: str) -> None:
    state = turn.state
    turn.mover, turn.played = seat, 0
    record = roll(turn, seat, play.alchemist_dice(turn, seat) if turn.wonders_mode else None)
    state["log"].append(record)
    # The implementation's order (rule D-IM-5 is silent): on a 7 the event die acts before the
    # discards and the robber; on any other number production comes first, then the event die.
    if record["total"] == 7:
        _event_die(turn, record)
        discards(turn, order_of_play(state))
        move_robber(turn, seat, None, None)
        record["robber"] = state["robber"]
    else:
        produce(turn, record)
        _event_die(turn, record)
    trade.settle_offers(turn, seat)
    if _won(turn, seat):
        return
    alchemist = _first_alchemist(turn.orders[seat]) if turn.wonders_mode else None
    for index, order in enumerate(turn.orders[seat]):
        if order.verb in STANDING or order.verb == "SETTLE" or index == alchemist:
            continue
        _act(turn, seat, order)
        if _won(turn, seat):
            return
    if turn.wonders_mode:
        wonders.hand_limit(turn, seat)
        state["fleet"] = None  # the Merchant Fleet lasts the turn it is played in


def _event_die(turn: Turn, record: JSONObject) -> None:
    if record["event"]:
        warriors.event_die(turn, record)


def _first_alchemist(orders: list[Order]) -> int | None:
    """Where the PLAY ALCHEMIST that was read before the roll stands among the orders."""
    return next((i for i, o in enumerate(orders) if o.verb == "PLAY" and o.args[0] == "alchemist"), None)


def _act(turn: Turn, seat: str, order: Order) -> None:
    handler = HANDLERS.get(order.verb)
    if handler is None:
        return turn.failed(seat, order, "it is not an order of a round")
    handler(turn, seat, order, *order.args)


def _buy(turn: Turn, seat: str, order: Order) -> None:
    if turn.wonders_mode:
        return turn.failed(
            seat, order, "in Wonders & Warriors action cards come from improvements and cannot be bought"
        )
    actions.buy_card(turn, seat, order)


# Each handler takes the arguments grammar.SHAPES gives its verb, which well_formed guarantees.
HANDLERS: dict[str, Callable[..., object]] = {
    "ROAD": actions.build_road,
    "VILLAGE": actions.build_village,
    "TOWN": actions.build_town,
    "BUY": _buy,
    "PLAY": play.play_card,
    "MARKET": trade.market,
    "OFFER": trade.post_offer,
    "IMPROVE": wonders.improve,
    "FENCE": wonders.fence,
    "WARRIOR": warriors.build_warrior,
    "ACTIVATE": warriors.activate,
    "UPGRADE": warriors.upgrade,
    "MOVE": warriors.move_warrior,
    "CHASE": warriors.chase,
}
assert set(HANDLERS) == set(ACTIONS)


# ----------------------------------------------------------------------------------------------
# The end.


def _won(turn: Turn, seat: str) -> bool:
    """A win only in one's own turn, after the roll."""
    state = turn.state
    total = points(state, seat, hidden=True)
    if total < state["target"]:
        return False
    state["winner"], state["phase"] = seat, "over"
    turn.add(
        "game_over",
        f"{turn.name(seat)} has {total} victory points, at least "
        f"{state['target']}, in its own turn: {turn.name(seat)} wins.",
        winners=[seat],
        scores=scores(state),
        points=total,
    )
    return True


def _limit_reached(turn: Turn) -> None:
    state = turn.state
    state["phase"] = "over"
    won = winners(state)
    best = points(state, won[0], hidden=True)
    names = " and ".join(turn.name(s) for s in won)
    turn.add(
        "game_over",
        f"Round {state['round']}, the last the game allows, is over: {names} "
        f"{'wins' if len(won) == 1 else 'share the win'} with {best} victory points.",
        winners=won,
        scores=scores(state),
        points=best,
    )


def scores(state: JSONObject) -> dict[str, int]:
    """Points everyone may see: victory point cards in a hand count only once the game is over."""
    hidden = state["phase"] == "over"
    return {seat: points(state, seat, hidden=hidden) for seat in state["seating"]}


def score_label(state: JSONObject) -> tuple[str, str]:
    """What scores counts, for the report's table: points in hand are hidden until the end."""
    return ("Victory points", "VP") if state["phase"] == "over" else ("Victory points shown", "VP shown")


def winners(state: JSONObject) -> list[str]:
    if state["winner"]:
        return [state["winner"]]
    full = {seat: points(state, seat, hidden=True) for seat in state["seating"]}
    best = max(full.values())
    return [seat for seat in state["seating"] if full[seat] == best]


def outcome(state: JSONObject) -> Outcome | None:
    if state["phase"] != "over":
        return None
    won = winners(state)
    if state["winner"]:
        reason = f"first to {state['target']} victory points in their own turn"
    elif len(won) == 1:
        reason = f"most victory points when the round limit of {state['round_limit']} was reached"
    else:
        reason = f"tied on victory points at the round limit of {state['round_limit']}: the win is shared"
    return Outcome(tuple(won), reason, scores(state))
