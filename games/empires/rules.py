"""Empires resolution: a new game, and a turn of actions interleaved by number in a rotating
order of play (D-EMP-1), then the end of the turn (endturn.py)."""

from __future__ import annotations

import copy

from gm.core import census, scenarios, victory
from gm.core.model import JSONObject, Order, Outcome, SeatInfo, TurnResult
from gm.core.ruleset import TurnSeeds

from .actions import Turn, act, describe
from .board import NEUTRAL, Board, alive, income, nation, nations
from .endturn import end_turn
from .orders import DEFENCE, MAX_ACTIONS, well_formed


def new_game(scenario: JSONObject, seats: list[SeatInfo], seeds: TurnSeeds) -> JSONObject:
    """The state before turn 1: seated countries own their areas; the others' areas are neutral.

    The census schedule is drawn now from the game seed and kept hidden (D-EMP-8); the order of
    play is a seeded draw (D-ALL-4); the points target is fixed now (D-EMP-12).
    """
    listed = {c["code"]: c for c in scenario["countries"]}
    seating = scenarios.seating(scenario, list(listed), seats, "countries")
    names = {s.code: s.name for s in seats}
    order = list(seating)
    seeds.rng("order").shuffle(order)
    state = {
        "ruleset": "empires",
        "title": scenario["title"],
        "scenario": copy.deepcopy(scenario),
        "turn": 1,
        "phase": "play",
        "seating": seating,
        "order_of_play": order,
        "countries": {
            code: {
                "name": names[code],
                "nation": listed[code]["name"],
                "colour": listed[code]["colour"],
                "capital": listed[code]["capital"],
                "bps": 0,
                "reserve": 0,
            }
            for code in seating
        },
        "areas": {
            a["code"]: {
                "owner": a["owner"] if a["owner"] in names else NEUTRAL,
                "armies": a["armies"],
                "population": a["population"],
                "fort": a["fort"],
            }
            for a in scenario["areas"]
            if a["land"]
        },
        "vp": {code: 0 for code in seating},
        "vp_changes": [],
        "last_census": None,
        "books": {code: _fresh_books(0) for code in seating},
        census.STATE_KEY: census.new_census(seeds.game_seed),
        victory.STATE_KEY: dict(victory.new_record(scenario["points_target"]), leader=None, holds=[], ended=None),
    }
    for code in seating:  # the first turn's BPs: the scenario's, else a turn of income
        start = listed[code]["bps"]
        state["countries"][code]["bps"] = income(state, code) if start is None else start
        state["books"][code]["next"] = state["countries"][code]["bps"]
    return state


def _fresh_books(start: int) -> JSONObject:
    return {
        "start": start,
        "spent": 0,
        "gifts": 0,
        "leftover": 0,
        "income": 0,
        "supply": 0,
        "dispersed": {},
        "next": start,
    }


def _working_copy(state: JSONObject) -> JSONObject:
    # Only the parts a turn changes are copied; the scenario and the census schedule are shared,
    # read-only, so a 200-area turn stays fast and the input is never touched.
    out = dict(state)
    out["countries"] = {k: dict(v) for k, v in state["countries"].items()}
    out["areas"] = {k: dict(v) for k, v in state["areas"].items()}
    out["vp"] = dict(state["vp"])
    out["order_of_play"] = list(state["order_of_play"])
    record = state[victory.STATE_KEY]
    out[victory.STATE_KEY] = dict(
        record, eliminated=dict(record["eliminated"]), discounts=dict(record["discounts"]), holds=list(record["holds"])
    )
    out["books"] = {code: _fresh_books(out["countries"][code]["bps"]) for code in state["seating"]}
    return out


def resolve(state: JSONObject, orders: dict[str, list[Order]], seeds: TurnSeeds) -> TurnResult:
    """One turn: defence orders, actions 1-16 interleaved in the order of play, then the end of
    the turn. Never raises for bad orders and never changes `state`."""
    if state.get("phase") == "over":
        return TurnResult(copy.deepcopy(state), ())
    work = _working_copy(state)
    # Past the census turns drawn at creation, the schedule goes on (11.3, D-EMP-8).
    work[census.STATE_KEY] = census.kept_ahead(work[census.STATE_KEY], seeds.game_seed, seeds.turn)
    turn = Turn(work, Board.of(work), seeds.turn)
    playing = alive(work)
    sequence = [s for s in work["order_of_play"] if s in playing]
    turn.event(
        "order_of_play",
        "Order of play this turn: " + ", ".join(nation(work, s) for s in sequence) + ".",
        None,
        order=sequence,
    )
    plans = {seat: _plan(turn, seat, orders.get(seat, [])) for seat in sequence}
    for seat in sequence:
        set_defences(turn, seat, plans[seat])
    for number in range(1, MAX_ACTIONS + 1):  # rule D-EMP-1: everyone's action 1, then 2, ...
        for seat in sequence:
            order = plans[seat].get(number)
            # A defence order took effect, or failed, at the start of the turn (set_defences);
            # its number only holds its place, so it is not carried out or reported again.
            if order is not None and order.verb not in DEFENCE and seat in alive(work):
                act(turn, seat, order)
    end_turn(turn)
    work["vp_changes"] = [c.to_json() for c in turn.vp]
    work["turn"] = seeds.turn + 1
    work["order_of_play"] = next_order(work["order_of_play"], sequence, alive(work))
    return TurnResult(work, tuple(turn.events))


def next_order(order: list[str], sequence: list[str], playing: list[str]) -> list[str]:
    """The order of play rotated by one seat among the countries still in the game (D-EMP-1,
    D-ALL-4): the next turn starts with the first of them after this turn's first. The list
    keeps every seat, eliminated ones too, in their places; only its start moves."""
    start = order.index(sequence[0]) + 1 if sequence else 1
    rotated = order[start:] + order[:start]
    skip = next((i for i, seat in enumerate(rotated) if seat in playing), 0)
    return rotated[skip:] + rotated[:skip]


def _plan(turn: Turn, seat: str, orders: list[Order]) -> dict[int, Order]:
    """A seat's actions by number; orders resolve cannot use fail here, on their own."""
    plan: dict[int, Order] = {}
    for order in orders:
        if not well_formed(order):
            turn.fail(seat, order if isinstance(order, Order) else Order("?"), "it is not an action resolve can read")
        elif order.args[0] in plan:
            turn.fail(seat, order, f"action {order.args[0]} is given twice")
        else:
            plan[order.args[0]] = order
    return plan


def set_defences(turn: Turn, seat: str, plan: dict[int, Order]) -> None:
    """Defence orders stand for the whole turn from its start, whatever their number. A later
    one on an area cancels an earlier one there (the publisher's rulebook, 7.7-7.9: "if you set
    a new one then the old one is cancelled"); one that fails cancels nothing."""
    outcome: dict[int, str | None] = {}  # action number -> why it is not carried out, or None
    standing: dict[str, int] = {}  # area -> the action number of its defence order
    for number in sorted(plan):
        order = plan[number]
        if order.verb not in DEFENCE:
            continue
        _, where, where_to, _ = order.args
        area = turn.state["areas"].get(where)
        if area is None or area["owner"] != seat:
            outcome[number] = (
                f"{turn.board.label(where)} is not {nations(turn.state, seat)} at the start of the turn, "
                "when defence orders take effect"
            )
        elif where_to is not None and where_to not in turn.board.reach[where]:
            outcome[number] = f"{turn.board.label(where_to)} is not next to {turn.board.label(where)}"
        else:
            if where in standing:
                outcome[standing[where]] = (
                    f"action {number} ({describe(order)}) cancels it: a new defence order on an area cancels the old"
                )
            standing[where], outcome[number] = number, None
    for number, why in sorted(outcome.items()):
        order = plan[number]
        if why is not None:
            turn.fail(seat, order, why)
            continue
        _, where, where_to, _ = order.args
        turn.modes[where] = {
            "mode": order.verb.lower(),
            "to": where_to,
            "owner": seat,
            "spent": False,
            "order": order,
        }
        turn.event(
            "defence",
            f"Action {number}: {nation(turn.state, seat)} orders {describe(order)} for the whole turn.",
            (seat,),
            seat=seat,
            area=where,
            mode=order.verb.lower(),
            to=where_to,
        )


# ----------------------------------------------------------------------------------------------
# Scores and the end.


def scores(state: JSONObject) -> dict[str, int]:
    """Land areas held while the game runs (VP totals are secret, 11.3); VP once it is over."""
    if state.get("phase") == "over":
        return dict(state["vp"])
    counts = {seat: 0 for seat in state["seating"]}
    for area in state["areas"].values():
        if area["owner"] in counts:
            counts[area["owner"]] += 1
    return counts


def score_label(state: JSONObject) -> tuple[str, str]:
    """What scores counts, for the report's table: areas while VP are secret (11.3), then VP."""
    return ("Victory points", "VP") if state.get("phase") == "over" else ("Land areas held", "Areas")


def outcome(state: JSONObject) -> Outcome | None:
    if state.get("phase") != "over":
        return None
    record = state[victory.STATE_KEY]
    winner = record["winner"]
    if winner is None:
        return Outcome((), "every country was eliminated", dict(state["vp"]))
    words = {
        "runaway": "at least double the next highest",
        "knockout": "at least 40% of all surviving countries' VP",
        "points": f"more than the target of {record['target']}",
    }
    reason = (
        f"{record['condition']} win at the census of turn {record['ended']}: "
        f"{state['vp'][winner]} VP, {words[record['condition']]}"
    )
    return Outcome((winner,), reason, dict(state["vp"]))
