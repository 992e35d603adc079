"""The Imperials robot: a plain, sensible player for seats that send no orders. It settles on the
richest free corners, builds what its hand pays for now (towns, villages, roads towards free
corners, cards or improvements), trades with the market for what one card short of a build,
posts and accepts fair one-for-one offers, and gives standing answers for others' turns.
Every order it writes passes check_orders (it checks each one against its own plan first)."""

from __future__ import annotations

from collections import deque
from random import Random

from gm.core.model import JSONObject, Order

from .awards import points
from .board import Geometry
from .goods import COMMODITY_FOR, COSTS, IMPROVEMENTS, RESOURCES, Cards, has
from .grammar import make_order
from .orders import Plan, order_problem
from .places import building_at, free_edges_from, owner_at, vertex_worth, yields_at
from .robber import default_tile, default_victim
from .setup import default_road
from .trade import market_rate
from .turn import board_geometry

WISHES = 8  # corners on a set-up wish list


def robot_orders(state: JSONObject, seat: str, rng: Random) -> list[Order]:
    """Orders for one seat that check_orders accepts; the rng breaks ties."""
    if seat not in state["seats"] or state["phase"] == "over":
        return []
    if state["phase"] == "setup":
        return _settle(state, seat, rng) + _answers(state, seat)
    return _answers(state, seat) + _accepts(state, seat) + Builder(state, seat, rng).orders()


# ----------------------------------------------------------------------------------------------
# Set-up: a wish list of the richest corners, each with a road towards a good next corner.


def _settle(state: JSONObject, seat: str, rng: Random) -> list[Order]:
    geo = board_geometry(state)
    ranked = sorted(range(1, geo.vertex_count + 1), key=lambda v: (-_corner_value(state, geo, v), rng.random()))
    wishes = []
    for vertex in ranked[:WISHES]:
        road = default_road(state, geo, vertex)
        wishes.append(make_order("SETTLE", vertex, road))
    return wishes


def _corner_value(state: JSONObject, geo: Geometry, vertex: int) -> int:
    # Dots, plus a little for variety of resources (three different ones beat three of one).
    kinds = yields_at(state, geo, vertex)
    return vertex_worth(state, geo, vertex) * 2 + len(set(kinds))


# ----------------------------------------------------------------------------------------------
# Standing answers and accepting offers.


def _answers(state: JSONObject, seat: str) -> list[Order]:
    geo = board_geometry(state)
    want = _wanted(state, seat)
    keep = set(want[:2])
    order = [g for g in RESOURCES if g not in keep] + [g for g in RESOURCES if g in keep]
    answers = [make_order("DISCARD", *order[:3]), make_order("GOLD", *want[:2])]
    tile = default_tile(state, geo, seat)
    if tile:
        victim = default_victim(state, geo, seat, tile)
        answers.append(make_order("ROBBER", tile, victim))
    if state["mode"] == "wonders":
        best = max(IMPROVEMENTS, key=lambda c: (state["seats"][seat]["improvements"][c], -IMPROVEMENTS.index(c)))
        answers.append(make_order("DRAGON", best))
    return answers


def _wanted(state: JSONObject, seat: str) -> list[str]:
    """Resources the seat needs most for its next town or village, scarcest first."""
    hand = state["seats"][seat]["hand"]
    need = {g: 0 for g in RESOURCES}
    for kind in ("town", "village", "road"):
        for good, n in COSTS[kind].items():
            need[good] += max(0, n - hand[good])
    return sorted(RESOURCES, key=lambda g: (-need[g], hand[g], RESOURCES.index(g)))


def _accepts(state: JSONObject, seat: str) -> list[Order]:
    # A one-for-one offer to us is fine if it gives what we want for what we have two of, and
    # the offering player is not about to win.
    hand = state["seats"][seat]["hand"]
    want = set(_wanted(state, seat)[:2])
    chosen = []
    for offer in state["offers"]:
        if offer["from"] == seat or offer["to"] not in ("ALL", seat):
            continue
        if points(state, offer["from"], hidden=False) >= state["target"] - 2:
            continue
        gives_us = set(offer["give"]) & want
        costs_us = all(hand[g] >= n + 1 for g, n in offer["get"].items())
        if gives_us and costs_us and sum(offer["give"].values()) >= sum(offer["get"].values()):
            chosen.append(offer["id"])
    return [make_order("ACCEPT", *chosen)] if chosen else []


# ----------------------------------------------------------------------------------------------
# A turn's actions, planned against the hand held now.


class Builder:
    """Plans a turn: each order checked against the plan so far and paid from a copy of the hand."""

    def __init__(self, state: JSONObject, seat: str, rng: Random):
        self.state, self.seat, self.rng = state, seat, rng
        self.geo = board_geometry(state)
        self.hand = dict(state["seats"][seat]["hand"])
        self.plan = Plan(state, seat)
        self.out: list[Order] = []
        self.wonders = state["mode"] == "wonders"

    def add(self, verb: str, *args: object, cost: Cards | None = None) -> bool:
        order = make_order(verb, *args)
        if cost and not has(self.hand, cost):
            return False
        if order_problem(self.plan, order) is not None:
            return False
        for good, n in (cost or {}).items():
            self.hand[good] -= n
        self.out.append(order)
        return True

    def orders(self) -> list[Order]:
        self._play_card()
        for _ in range(6):  # a few builds a turn at most
            if not self._build_one():
                break
        self._offer()
        return self.out

    def _build_one(self) -> bool:
        if self.wonders and self._wonders_step():
            return True
        town = self._best(self._my_villages())
        if town and self._afford("town") and self.add("TOWN", town, cost=COSTS["town"]):
            return True
        spot = self._best(self._village_spots())
        if spot and self._afford("village") and self.add("VILLAGE", spot, cost=COSTS["village"]):
            return True
        road = self._road_towards_spot()
        if road and (spot is None or not self._can_soon("village")) and self._afford("road"):
            if self.add("ROAD", road, cost=COSTS["road"]):
                return True
        if not self.wonders and self._afford("card") and self.state["decks"]["basic"]:
            return self.add("BUY", cost=COSTS["card"])
        return False

    def _afford(self, kind: str) -> bool:
        """Whether the hand pays for a thing, after at most one market trade to make it so."""
        cost = COSTS[kind]
        if has(self.hand, cost):
            return True
        short = [g for g, n in cost.items() if self.hand[g] < n]
        if len(short) != 1 or cost[short[0]] - self.hand[short[0]] != 1:
            return False
        for give in sorted(RESOURCES, key=lambda g: -self.hand[g]):
            rate = market_rate(self.plan.state, self.geo, self.seat, give)
            spare = self.hand[give] - cost.get(give, 0)
            if give != short[0] and rate and spare >= rate and self.state["bank"][short[0]] > 0:
                if self.add("MARKET", give, short[0], cost={give: rate}):
                    self.hand[short[0]] += 1
                    return True
        return False

    def _can_soon(self, kind: str) -> bool:
        return bool(sum(max(0, n - self.hand[g]) for g, n in COSTS[kind].items()) <= 1)

    def _my_villages(self) -> list[int]:
        return [
            int(v)
            for v, b in self.plan.state["buildings"].items()
            if b["owner"] == self.seat and b["kind"] == "village"
        ]

    def _village_spots(self) -> list[int]:
        state = self.plan.state
        ends = {v for e, o in state["roads"].items() if o == self.seat for v in self.geo.edge_ends[e]}
        return [
            v
            for v in ends
            if building_at(state, v) is None
            and str(v) not in state["warriors"]
            and all(building_at(state, n) is None for n in self.geo.vertex_neighbours[v])
        ]

    def _best(self, vertices: list[int]) -> int | None:
        if not vertices:
            return None
        return max(vertices, key=lambda v: (vertex_worth(self.plan.state, self.geo, v), -v))

    def _road_towards_spot(self) -> str | None:
        """The first road of the shortest way from the network to the best free corner within
        three roads."""
        state, geo = self.plan.state, self.geo
        starts = {v for e, o in state["roads"].items() if o == self.seat for v in geo.edge_ends[e]}
        starts |= {int(v) for v, b in state["buildings"].items() if b["owner"] == self.seat}
        starts = {v for v in starts if state["buildings"].get(str(v), {}).get("owner", self.seat) == self.seat}
        first_edge: dict[int, str | None] = {v: None for v in starts}
        depth = {v: 0 for v in starts}
        queue = deque(sorted(starts))
        best, best_key = None, None
        while queue:
            at = queue.popleft()
            if depth[at] >= 3:
                continue
            for edge in free_edges_from(state, geo, at):
                a, b = geo.edge_ends[edge]
                nxt = b if a == at else a
                if nxt in depth or owner_at(state, nxt) not in (None, self.seat):
                    continue
                depth[nxt] = depth[at] + 1
                first_edge[nxt] = first_edge[at] or edge
                queue.append(nxt)
                if self._free_corner(nxt):
                    key = (vertex_worth(state, geo, nxt) - 3 * depth[nxt], -nxt)
                    if best_key is None or key > best_key:
                        best, best_key = first_edge[nxt], key
        return best

    def _free_corner(self, vertex: int) -> bool:
        state = self.plan.state
        return building_at(state, vertex) is None and all(
            building_at(state, n) is None for n in self.geo.vertex_neighbours[vertex]
        )

    def _play_card(self) -> None:
        state = self.state
        cards = [c["card"] for c in state["seats"][self.seat]["cards"]]
        if self.wonders:
            return self._play_wonders(cards)
        robbed = state["robber"] and any(
            owner_at(state, v) == self.seat for v in self.geo.tile_vertices[state["robber"]]
        )
        if "warrior" in cards and (robbed or state["seats"][self.seat]["warriors_played"] < 3):
            tile = default_tile(state, self.geo, self.seat)
            if tile:
                victim = default_victim(state, self.geo, self.seat, tile)
                self.add("PLAY", "warrior", *([tile, victim] if victim else [tile]))
                return
        if "plenty" in cards:
            want = _wanted(state, self.seat)
            if all(state["bank"][g] > 0 for g in want[:2]) and self.add("PLAY", "plenty", want[0], want[1]):
                self.hand[want[0]] += 1
                self.hand[want[1]] += 1
                return
        if "monopoly" in cards:
            scarcest = _wanted(state, self.seat)[0]
            self.add("PLAY", "monopoly", scarcest)
            return
        if "roads" in cards:
            first = self._road_towards_spot()
            if first and self.add("PLAY", "roads", first):
                return

    def _play_wonders(self, cards: list[str]) -> None:
        for card in cards:
            if card in ("irrigation", "mining", "warlord"):
                self.add("PLAY", card)
            elif card in ("plenty",):
                want = _wanted(self.state, self.seat)
                self.add("PLAY", "plenty", want[0], want[1])
            elif card == "monopoly":
                self.add("PLAY", "monopoly", _wanted(self.state, self.seat)[0])
            elif card == "merchant":
                self.add("PLAY", "merchant", self.rng.choice(("paper", "cloth", "coin")))
            elif card == "bishop":
                self.add("PLAY", "bishop")
            elif card == "roads":
                first = self._road_towards_spot()
                if first:
                    self.add("PLAY", "roads", first)

    def _wonders_step(self) -> bool:
        state = self.plan.state
        me = state["seats"][self.seat]
        towns = [int(v) for v, b in state["buildings"].items() if b["owner"] == self.seat and b["kind"] == "town"]
        if towns:
            for colour in sorted(IMPROVEMENTS, key=lambda c: -me["improvements"][c]):
                level = me["improvements"][colour] + 1
                if level <= 5 and self.add("IMPROVE", colour, None, cost={COMMODITY_FOR[colour]: level}):
                    me_levels = dict(me["improvements"])
                    me_levels[colour] = level
                    self.plan.state["seats"] = {**state["seats"], self.seat: {**me, "improvements": me_levels}}
                    return True
        danger = state["dragon"] >= 4
        mine = [int(v) for v, w in state["warriors"].items() if w["owner"] == self.seat]
        idle = [v for v in mine if not state["warriors"][str(v)]["active"]]
        if danger and idle and self.add("ACTIVATE", idle[0], cost=COSTS["activate"]):
            self.plan.state["warriors"][str(idle[0])] = {**state["warriors"][str(idle[0])], "active": True}
            return True
        if danger and len(mine) < max(1, len(towns)) and has(self.hand, COSTS["warrior"]):
            for vertex in self._warrior_spots():
                if self.add("WARRIOR", vertex, cost=COSTS["warrior"]):
                    return True
        return False

    def _warrior_spots(self) -> list[int]:
        state = self.plan.state
        ends = {v for e, o in state["roads"].items() if o == self.seat for v in self.geo.edge_ends[e]}
        return sorted(v for v in ends if building_at(state, v) is None and str(v) not in state["warriors"])

    def _offer(self) -> None:
        # One fair offer a turn when something is short and something is plentiful.
        if any(o["from"] == self.seat for o in self.state["offers"]) or self.rng.random() < 0.5:
            return
        want = _wanted(self.state, self.seat)[0]
        spare = max(RESOURCES, key=lambda g: (self.hand[g], -RESOURCES.index(g)))
        if spare != want and self.hand[spare] >= 3 and self.hand[want] == 0:
            self.add("OFFER", "ALL", {spare: 1}, {want: 1})
