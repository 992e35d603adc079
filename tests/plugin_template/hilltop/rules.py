"""Hilltop's rules: a new game, one turn resolved, the scores and the end. Pure."""

from __future__ import annotations

import copy
from collections.abc import Callable

from gm.core.model import Event, JSONObject, Order, Outcome, SeatInfo, TurnResult
from gm.core.ruleset import TurnSeeds
from gm.core.scenarios import seating

from .board import clan_name, clans, held, hill_name, hills, holder, warriors

START = 3  # warriors on a clan's home hill when the game starts


def new_game(scenario: JSONObject, seats: list[SeatInfo], seeds: TurnSeeds) -> JSONObject:
    """Each clan on its home hill with START warriors; every other hill empty."""
    codes = seating(scenario, [s["code"] for s in scenario["seats"]], seats, "clans")
    players = {s.code: s.name for s in seats}
    homes = {s["code"]: s["home"] for s in scenario["seats"] if s["code"] in codes}
    by_home = {home: code for code, home in homes.items()}
    return {
        "scenario": copy.deepcopy(scenario),
        "turn": 1,
        "turns": scenario["turns"],
        "clans": codes,
        "seats": {
            s["code"]: {"name": s["name"], "colour": s["colour"], "player": players[s["code"]]}
            for s in scenario["seats"]
            if s["code"] in codes
        },
        "hills": {
            h["code"]: {"owner": by_home.get(h["code"]), "warriors": START if h["code"] in by_home else 0}
            for h in scenario["hills"]
        },
    }


def resolve(state: JSONObject, orders: dict[str, list[Order]], seeds: TurnSeeds) -> TurnResult:
    """Growth, then every clan's moves in seating order, each order in its turn."""
    state = copy.deepcopy(state)
    events = _grow(state)
    roll = seeds.rng("roll")
    for seat in clans(state):
        for order in orders.get(seat, []):
            events.append(_move(state, seat, order, roll.randint))
    state["turn"] += 1
    return TurnResult(state, tuple(events))


def _grow(state: JSONObject) -> list[Event]:
    for code in hills(state):
        if holder(state, code) is not None:
            state["hills"][code]["warriors"] += 1
    return [Event("grow", {"text": "Every hill a clan holds gains a warrior."})]


def _move(state: JSONObject, seat: str, order: Order, die: Callable[[int, int], int]) -> Event:
    source, target, count = order.args
    why = _fails(state, seat, source, target, count)
    facts = {"seat": seat, "from": source, "to": target, "warriors": count}
    if why:
        return Event("failed", {**facts, "text": f"{clan_name(state, seat)}: {order.text} fails: {why}."}, (seat,))
    state["hills"][source]["warriors"] -= count
    owner = holder(state, target)
    if owner in (None, seat):
        state["hills"][target] = {"owner": seat, "warriors": warriors(state, target) + count}
        text = f"{clan_name(state, seat)} move {count} from {hill_name(state, source)} to {hill_name(state, target)}."
        return Event("move", {**facts, "text": text})
    return _battle(state, seat, str(owner), source, target, count, die(1, 6), die(1, 6))


def _fails(state: JSONObject, seat: str, source: str, target: str, count: int) -> str:
    if holder(state, source) != seat:
        return f"{hill_name(state, source)} is no longer yours"
    if warriors(state, source) <= count:
        return f"{hill_name(state, source)} has {warriors(state, source)} warriors and one must stay"
    return ""


def _battle(state: JSONObject, seat: str, owner: str, source: str, target: str, count: int, a: int, d: int) -> Event:
    defenders = warriors(state, target)
    won = count + a > defenders + d
    left = max(count - defenders // 2, 1) if won else 0
    if won:
        state["hills"][target] = {"owner": seat, "warriors": left}
    text = (
        f"{clan_name(state, seat)} attack {hill_name(state, target)} of {clan_name(state, owner)} "
        f"from {hill_name(state, source)} with {count} ({count} + {a}) against {defenders} ({defenders} + {d}): "
        + ("the hill falls." if won else "beaten off.")
    )
    # What the shared report page draws beside the text of a battle (the guide, "Events").
    data = {
        "attacker": seat,
        "defender": owner,
        "from": source,
        "to": target,
        "attacking": count,
        "defending": defenders,
        "attacker_losses": count - left,
        "defender_losses": defenders if won else 0,
        "dice": [a, d],
    }
    return Event("battle", {**data, "captured": won, "text": text})


def scores(state: JSONObject) -> dict[str, int]:
    """Hills held."""
    return {seat: len(held(state, seat)) for seat in clans(state)}


def outcome(state: JSONObject) -> Outcome | None:
    """Over after the last turn, or when one clan alone holds hills; most hills win."""
    score = scores(state)
    alive = [seat for seat, count in score.items() if count]
    if state["turn"] <= state["turns"] and len(alive) > 1:
        return None
    best = max(score.values())
    winners = tuple(seat for seat in clans(state) if score[seat] == best)
    return Outcome(winners, f"most hills after turn {state['turn'] - 1}", score)
