"""The Clash of Empires robot: a simple, sensible player for seats that send no orders."""

from __future__ import annotations

from random import Random
from typing import cast

from gm.core.model import JSONObject, Order

from .board import controlled, core_of, free_to_claim, holder, places, troops_of
from .orders import TROOP_COST, make_order

RICH = 6  # money at which the robot recruits rather than saving up


def robot_orders(state: JSONObject, seat: str, rng: Random) -> list[Order]:
    """Orders for one seat that check_orders accepts; the rng breaks ties and picks a start."""
    if seat not in state["seats"]:
        return []
    if state["phase"] == "claim":
        return _claim(state, rng)
    if state["phase"] == "place":
        return _place(state, seat)
    if state["phase"] == "play":
        return [_action(state, seat, rng)]
    return []


def _claim(state: JSONObject, rng: Random) -> list[Order]:
    # A wish list that keeps together: a random start, then always a neighbour of the list so far.
    known = places(state)
    free = free_to_claim(state)
    if not free:
        return []
    wishes = [rng.choice(free)]
    remaining = set(free) - set(wishes)
    while remaining:
        frontier = sorted({n for w in wishes for n in known[w]["neighbours"]} & remaining)
        pick = rng.choice(frontier or sorted(remaining))
        wishes.append(pick)
        remaining.discard(pick)
    return [make_order("CLAIM", *wishes)]


def _place(state: JSONObject, seat: str) -> list[Order]:
    # One unit on every core territory no other troops stand on (a neutral one holds neutral
    # troops), the rest on the borders: most foreign neighbours first.
    cores = [c for c in core_of(state, seat) if holder(state, c) in (None, seat)]
    scenario = state["scenario"]
    units = min(scenario["start_units"], scenario["unit_limit"] - troops_of(state, seat))
    if not cores or units <= 0:
        return []
    known = places(state)
    foreign = {c: sum(n not in cores for n in known[c]["neighbours"]) for c in cores}
    borders = sorted((c for c in cores if foreign[c]), key=lambda c: (-foreign[c], c)) or cores
    counts = {c: 0 for c in cores}
    for c in cores[:units]:
        counts[c] += 1
    for i in range(units - min(units, len(cores))):
        counts[borders[i % len(borders)]] += 1
    return [make_order("PLACE", c, n) for c, n in counts.items() if n]


def _action(state: JSONObject, seat: str, rng: Random) -> Order:
    for choose in (_attack, _revolt, _recruit, _expand):
        order = choose(state, seat, rng)
        if order is not None:
            return order
    return make_order("PASS")


def _neighbours(state: JSONObject, code: str) -> list[str]:
    return cast(list[str], places(state)[code]["neighbours"])


def _attack(state: JSONObject, seat: str, rng: Random) -> Order | None:
    # Attack only when stronger: t-1 troops against d defenders with t-1 > d; weakest target first.
    options = []
    for source in controlled(state, seat):
        strength = state["territories"][source]["troops"] - 1
        for target in _neighbours(state, source):
            if holder(state, target) in (None, seat):
                continue
            defenders = state["territories"][target]["troops"]
            if strength > defenders:
                options.append((defenders, -strength, rng.random(), source, target))
    if not options:
        return None
    _, minus_strength, _, source, target = min(options)  # weakest target, strongest source
    return make_order("MOVE", source, target, -minus_strength)


def _revolt(state: JSONObject, seat: str, rng: Random) -> Order | None:
    # A revolt frees a core territory when a single foreign troop holds it.
    for code in core_of(state, seat):
        if holder(state, code) not in (None, seat) and state["territories"][code]["troops"] == 1:
            return make_order("REVOLT", code)
    return None


def _recruit(state: JSONObject, seat: str, rng: Random) -> Order | None:
    money = state["seats"][seat]["money"]
    room = state["scenario"]["unit_limit"] - troops_of(state, seat)
    count = min(money // TROOP_COST, room)
    held = controlled(state, seat)
    if money < RICH or count < 1 or not held:
        return None
    return make_order("RECRUIT", max(held, key=lambda c: _threat(state, seat, c, rng)), count)


def _threat(state: JSONObject, seat: str, code: str, rng: Random) -> tuple[int, int, float]:
    # Enemy troops next door first, then how many neighbours are not ours.
    others = [n for n in _neighbours(state, code) if holder(state, n) != seat]
    enemy = sum(state["territories"][n]["troops"] for n in others if holder(state, n) is not None)
    return enemy, len(others), rng.random()


def _expand(state: JSONObject, seat: str, rng: Random) -> Order | None:
    # Walk into an empty neighbour with half the troops, keeping at least one at home.
    options = []
    for source in controlled(state, seat):
        troops = state["territories"][source]["troops"]
        if troops < 2:
            continue
        for target in _neighbours(state, source):
            if holder(state, target) is None:
                options.append((troops, rng.random(), source, target))
    if not options:
        return None
    troops, _, source, target = max(options)
    return make_order("MOVE", source, target, troops // 2)
