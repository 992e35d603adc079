"""The Conqueror! AI, for AI nations and for seats that send no orders."""

from __future__ import annotations

from random import Random
from typing import cast

from gm.core.model import JSONObject, Order

from .board import NEUTRAL, Board, control, owned
from .economy import (
    ATTACK_WEIGHT,
    COSTS,
    FIELD_WEIGHT,
    GARRISON,
    SIEGE_WEIGHT,
    WINTER_EVERY,
    productivity,
    requirement,
    support_cost,
)
from .orders import MAX_MOVES, buy_cost, make_order

# It expands into neutral land, develops its provinces, guards its capital and attacks the weak,
# and every order it gives passes check_orders (the tests hold it to that).

SAFE_CONTROL = 25  # keep a full garrison below this control (rebellion comes below 20)
CAPITAL_GUARD = 2  # armies the capital always keeps
SPREAD_CONTROL = 82  # a developed province below this sends itself diplomats (keeps its power)
RESERVE = 10  # gold kept back beyond next winter's pay
# How often a province that could use one starts the menu's dearer buildings (a fort, keep or
# castle where it is threatened or the capital; advanced culture), so that robot games (and the
# invariant battery, gm.testing.battery) reach every item of the production menu.
BUILD_CHANCE = 0.04
BUILD_TURNS = 12  # turns of a province's labour the robot puts into such a building at most


class Planner:
    """One nation's view of the board for one turn's decisions."""

    def __init__(self, state: JSONObject, seat: str, rng: Random):
        self.state, self.seat, self.rng = state, seat, rng
        self.board = Board(state["scenario"])
        self.provinces = state["provinces"]
        self.me = state["seats"][seat]
        self.mine = owned(state, seat)
        self.mine_set = set(self.mine)
        self.turns_left = state["turns"] - state["turn"] + 1
        self.threat = {c: self._threat(c) for c in self.mine}
        self.keep = {c: self._keep(c) for c in self.mine}
        self.spare = {c: max(self.provinces[c]["armies"] - self.keep[c], 0) for c in self.mine}

    def _threat(self, code: str) -> int:
        # Neutral armies never march, so only other nations' armies next door threaten.
        return sum(
            self.provinces[n]["armies"]
            for n in self.board.neighbours[code]
            if self.provinces[n]["owner"] not in (NEUTRAL, self.seat)
        )

    def _keep(self, code: str) -> int:
        province = self.provinces[code]
        keep = province["population"] if control(province) < SAFE_CONTROL else 0
        if code == self.me["capital"]:
            keep = max(keep, CAPITAL_GUARD, self.threat[code])
        elif self.threat[code]:
            keep = max(keep, self.threat[code] // 2)
        return keep

    def frontier(self, code: str) -> bool:
        return any(n not in self.mine_set for n in self.board.neighbours[code])


def robot_orders(state: JSONObject, seat: str, rng: Random) -> list[Order]:
    """Orders for one nation that check_orders accepts; the rng breaks ties between equals."""
    me = state["seats"].get(seat)
    if me is None or state["phase"] != "play" or not me["alive"]:
        return []
    plan = Planner(state, seat, rng)
    choices = _production(plan)
    buys = _buys(plan, choices)
    return _produce_orders(plan, choices) + buys + _moves(plan)


# ----------------------------------------------------------------------------------------------
# Production: one PRODUCE line for each province whose production should change.


def _production(plan: Planner) -> dict[str, tuple[str, str | None]]:
    """What each province should make this turn: (item, diplomat's target)."""
    choices = {code: _choose(plan, code) for code in plan.mine}
    _cover_winter(plan, choices)
    return choices


def _produce_orders(plan: Planner, choices: dict[str, tuple[str, str | None]]) -> list[Order]:
    # A PRODUCE line only where production changes: a new item starts from nothing.
    orders = []
    for code, (item, target) in choices.items():
        province = plan.provinces[code]
        if item != province["item"] or (item == "DIPLOMAT" and target != province["target"]):
            extra = [target] if item == "DIPLOMAT" and target not in (None, code) else []
            orders.append(make_order("PRODUCE", code, item, *extra))
    return orders


def _choose(plan: Planner, code: str) -> tuple[str, str | None]:
    province = plan.provinces[code]
    current = province["item"]
    labour = productivity(province, conquered=False)
    pop, culture = province["population"], province["culture"]
    if control(province) < SAFE_CONTROL and province["armies"] < pop:
        return ("DIPLOMAT", code) if culture >= 2 else ("SOLDIERS", None)
    if culture >= 2 and control(province) < SPREAD_CONTROL:
        return "DIPLOMAT", code
    if plan.threat[code] > province["armies"]:
        return "SOLDIERS", None
    if (
        current not in ("TAXES", "SOLDIERS", "DIPLOMAT", "FARMS")
        and province["progress"] > 0
        and not requirement(current, province)
    ):
        return current, None  # a building under way: finish it
    if (
        (pop + 1) ** 2 <= 4 * labour
        and not plan.threat[code]
        and code != plan.me["capital"]
        and (pop <= 2 or not plan.frontier(code))
    ):
        return "FARMS", None  # a population point within four turns of labour
    if culture == 1 and labour >= 4 and labour * plan.turns_left >= 60 and control(province) >= 40:
        return "DEVELOP", None  # done in time, it doubles the labour for the rest of the game
    if plan.threat[code] and province["fort"] == 0 and labour * 4 >= 50:
        return "FORT", None
    building = _building(plan, code, labour)
    if building:
        return building, None
    if code == plan.me["capital"] or (plan.frontier(code) and labour >= 4):
        return "SOLDIERS", None
    return "TAXES", None


def _building(plan: Planner, code: str, labour: int) -> str | None:
    """Sometimes the next fortification where it is threatened or the capital (a fort on any
    border), or advanced culture, when its labour finishes it within BUILD_TURNS (and before the
    game ends)."""
    province = plan.provinces[code]
    wanted = []
    if plan.threat[code] or code == plan.me["capital"] or (province["fort"] == 0 and plan.frontier(code)):
        wanted.append({0: "FORT", 1: "KEEP", 2: "CASTLE"}.get(province["fort"], ""))
    wanted.append("ADVANCE")
    for item in wanted:
        cost = COSTS.get(item)
        if cost and not requirement(item, province) and labour * min(BUILD_TURNS, plan.turns_left) >= cost:
            if plan.rng.random() < BUILD_CHANCE:
                return item
    return None


def _cover_winter(plan: Planner, choices: dict[str, tuple[str, str | None]]) -> None:
    """Switch provinces to taxes until next winter's pay is covered: recruiting ones first,
    then growing, then developing ones, the richest first in each."""
    turn = plan.state["turn"]
    until = (WINTER_EVERY - turn % WINTER_EVERY) % WINTER_EVERY + 1  # turns of labour before pay
    capital = plan.me["capital"]
    bill = sum(
        support_cost(
            plan.provinces[c]["armies"] + 2 * (c == capital),
            plan.provinces[c]["population"],
            plan.board.distance(capital, c),
        )
        for c in plan.mine
    )
    labour = {c: productivity(plan.provinces[c], conquered=False) for c in plan.mine}
    income = sum(labour[c] for c, (item, _) in choices.items() if item == "TAXES")
    short = bill - plan.me["gold"] - income * until
    order = {"SOLDIERS": 0, "FARMS": 1, "DEVELOP": 2}
    for code in sorted(plan.mine, key=lambda c: (order.get(choices[c][0], 9), -labour[c])):
        if short <= 0:
            return
        if choices[code][0] in order and code != capital:
            choices[code] = ("TAXES", None)
            short -= labour[code] * until


# ----------------------------------------------------------------------------------------------
# Rush-buying: soldiers for a threatened capital, else a building or a development.


def _buys(plan: Planner, choices: dict[str, tuple[str, str | None]]) -> list[Order]:
    """Soldiers for a threatened capital; otherwise spare gold finishes a building or a
    development under way (most advanced first)."""
    gold = plan.me["gold"]
    capital = plan.me["capital"]
    danger = plan.threat.get(capital, 0) - plan.provinces[capital]["armies"]
    if danger > 0 and choices[capital][0] == "SOLDIERS":
        item, progress = _after(plan, capital, choices)
        units = danger
        while units and buy_cost(plan.provinces[capital], item, progress, units) > gold:
            units -= 1
        if units:
            return [make_order("BUY", capital, units)]
    spare = gold - RESERVE - sum(_bill(plan).values())
    building = [c for c in plan.mine if choices[c][0] in ("DEVELOP", "FORT", "KEEP")]
    for code in sorted(building, key=lambda c: -plan.provinces[c]["progress"]):
        item, progress = _after(plan, code, choices)
        if buy_cost(plan.provinces[code], item, progress, 1) <= spare:
            return [make_order("BUY", code, 1)]
    # Primitive provinces are too poor to develop themselves in time: spare gold does it.
    candidates = [
        c
        for c in plan.mine
        if plan.provinces[c]["culture"] == 1
        and not plan.threat[c]
        and control(plan.provinces[c]) >= SAFE_CONTROL
        and plan.turns_left >= 4
    ]
    if not candidates:
        return []
    best = max(candidates, key=lambda c: plan.provinces[c]["population"] + plan.provinces[c]["resources"])
    before, choices[best] = choices[best], ("DEVELOP", None)
    item, progress = _after(plan, best, choices)
    if buy_cost(plan.provinces[best], item, progress, 1) <= spare:
        return [make_order("BUY", best, 1)]
    choices[best] = before
    return []


def _after(plan: Planner, code: str, choices: dict[str, tuple[str, str | None]]) -> tuple[str, int]:
    province = plan.provinces[code]
    item = choices[code][0]
    return item, province["progress"] if item == province["item"] else 0


def _bill(plan: Planner) -> dict[str, int]:
    capital = plan.me["capital"]
    return {
        c: support_cost(plan.provinces[c]["armies"], plan.provinces[c]["population"], plan.board.distance(capital, c))
        for c in plan.mine
    }


# ----------------------------------------------------------------------------------------------
# Moves: attacks that should win and hold, then reinforcements towards the border.


def _needed(plan: Planner, target: str) -> int:
    """Attackers to take a province and keep it from rebelling, with a margin for bad luck."""
    province = plan.provinces[target]
    fort = province["fort"]
    garrison = min(province["armies"], GARRISON[fort])
    field = province["armies"] - garrison
    expected = field * FIELD_WEIGHT / ATTACK_WEIGHT
    if garrison:
        expected += garrison * SIEGE_WEIGHT[fort] / ATTACK_WEIGHT
    after = province["influence"].get(plan.seat, 0) - 10
    hold = province["population"] if after < SAFE_CONTROL else 1
    return int(expected * 1.3) + 1 + hold


def _value(plan: Planner, target: str) -> float:
    province = plan.provinces[target]
    worth = 3 * province["population"] + 2 * province["resources"] + 5 * province["culture"] + province["fort"]
    owner = province["owner"]
    if owner != NEUTRAL:
        seat = plan.state["seats"][owner]
        worth += 20 if seat["capital"] == target else 5  # hurting a rival is worth a little more
    return cast(float, worth)


def _moves(plan: Planner) -> list[Order]:
    orders: list[Order] = []
    spare = dict(plan.spare)
    # In map order: a set's order changes from one process to the next, and the rng draws follow it.
    near = {n for c in plan.mine for n in plan.board.neighbours[c] if n not in plan.mine_set}
    targets = [code for code in plan.board.order if code in near]
    ranked = []
    for target in targets:
        need = _needed(plan, target)
        ranked.append((_value(plan, target) / need, plan.rng.random(), target, need))
    for _, _, target, need in sorted(ranked, reverse=True):
        sources = sorted(
            (c for c in plan.board.neighbours[target] if c in plan.mine_set and spare[c] > 0), key=lambda c: -spare[c]
        )
        if sum(spare[c] for c in sources) < need or len(orders) + 1 > MAX_MOVES:
            continue
        sent = 0
        for source in sources:
            if sent >= need or len(orders) >= MAX_MOVES:
                break
            count = spare[source] if sent + spare[source] <= need + 2 else need + 2 - sent
            orders.append(make_order("ATTACK", source, target, _amount(plan, source, spare[source], count)))
            spare[source] -= count
            sent += count
    return orders + _reinforce(plan, spare, MAX_MOVES - len(orders))


def _reinforce(plan: Planner, spare: dict[str, int], slots: int) -> list[Order]:
    """Spare armies in the interior walk one step towards the nearest border province."""
    if slots <= 0:
        return []
    depth = _depth(plan)
    moves: list[Order] = []
    for code in sorted(plan.mine, key=lambda c: (-spare[c], c)):
        if len(moves) >= slots or spare[code] < 2 or plan.frontier(code):
            continue
        closer = [n for n in plan.board.neighbours[code] if n in depth and depth[n] < depth[code]]
        if closer:
            step = min(closer, key=lambda n: (plan.keep[n] - plan.provinces[n]["armies"], n))
            moves.append(make_order("MOVE", code, step, _amount(plan, code, spare[code], spare[code])))
    return moves


def _amount(plan: Planner, source: str, spare: int, count: int) -> int | str:
    """The armies to send, written ALL when they are every army there (no other order of its
    own has sent any of them yet)."""
    return "ALL" if count == spare == plan.provinces[source]["armies"] else count


def _depth(plan: Planner) -> dict[str, int]:
    """Steps from each own province to the nearest own border province, inside own land."""
    depth = {c: 0 for c in plan.mine if plan.frontier(c)}
    queue = list(depth)
    for code in queue:
        for other in plan.board.neighbours[code]:
            if other in plan.mine_set and other not in depth:
                depth[other] = depth[code] + 1
                queue.append(other)
    return depth
