"""The Imperials robot: a plain, sensible player for seats that send no orders. It settles on the
richest free corners, builds what its hand pays for now (towns, villages, roads towards free
corners, cards or improvements), trades with the market for what one card short of a build,
posts offers (to anyone or to one player) and accepts fair ones, decides on its own offers,
plays its action cards, and in Wonders & Warriors builds, activates, upgrades and moves warriors
and fences its towns; it gives standing answers for others' turns. Now and then, by its seeded
generator, it uses an order it does not need, so that robot games reach every rule of the book.
Every order it writes passes check_orders (it checks each one against its own plan first), and
it reads only what its seat may see."""

from __future__ import annotations

from collections import deque
from random import Random

from gm.core.model import JSONObject, Order

from .awards import points
from .board import Geometry
from .goods import CARD_LIMIT, COMMODITY_FOR, COSTS, FENCE_LIMIT, GOODS, IMPROVEMENTS, RESOURCES, Cards, has
from .grammar import make_order
from .orders import Plan, order_problem
from .places import building_at, free_edges_from, owner_at, vertex_worth, yields_at
from .robber import default_tile, default_victim, discard_limit
from .robot_cards import ANYWAY, robber_play, wonders_plays
from .setup import default_road
from .trade import market_rate
from .turn import board_geometry
from .warriors import route_from, upgrade_problem
from .wonders import DROP_ORDER, free_towns

WISHES = 8  # corners on a set-up wish list


def robot_orders(state: JSONObject, seat: str, rng: Random) -> list[Order]:
    """Orders for one seat that check_orders accepts; the rng breaks ties."""
    if seat not in state["seats"] or state["phase"] == "over":
        return []
    if state["phase"] == "setup":
        return _settle(state, seat, rng) + _answers(state, seat)
    return (
        _answers(state, seat)
        + _accepts(state, seat, rng)
        + _decisions(state, seat, rng)
        + Builder(state, seat, rng).orders()
    )


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
        me = state["seats"][seat]
        best = max(IMPROVEMENTS, key=lambda c: (me["improvements"][c], -IMPROVEMENTS.index(c)))
        answers.append(make_order("DRAGON", best))
        towns = free_towns(state, seat)
        if towns:  # the town it would miss least, should the dragon burn one
            answers.append(make_order("DEMOTE", min(towns, key=lambda v: (vertex_worth(state, geo, v), v))))
        held = [c["card"] for c in me["cards"]]
        drop = [c for c in DROP_ORDER if c in held]
        if len(held) >= CARD_LIMIT and drop:
            answers.append(make_order("DROP", drop[0]))
    return answers


def _wanted(state: JSONObject, seat: str) -> list[str]:
    """Resources the seat needs most for its next town or village, scarcest first."""
    hand = state["seats"][seat]["hand"]
    need = {g: 0 for g in RESOURCES}
    for kind in ("town", "village", "road"):
        for good, n in COSTS[kind].items():
            need[good] += max(0, n - hand[good])
    return sorted(RESOURCES, key=lambda g: (-need[g], hand[g], RESOURCES.index(g)))


def _accepts(state: JSONObject, seat: str, rng: Random) -> list[Order]:
    # A one-for-one offer to us is fine if it gives what we want for what we have two of, and
    # the offering player is not about to win; now and then any offer we can pay.
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
        fair = sum(offer["give"].values()) >= sum(offer["get"].values())
        if (gives_us and costs_us and fair) or (has(hand, offer["get"]) and rng.random() < ANYWAY):
            chosen.append(offer["id"])
    return [make_order("ACCEPT", *chosen)] if chosen else []


def _decisions(state: JSONObject, seat: str, rng: Random) -> list[Order]:
    """The robot's say on its own offers that come due this round (rule D-IM-9): now and then it
    declines one, or names whom it trades with; else the first who accepts and can pay."""
    decided = []
    for offer in (o for o in state["offers"] if o["from"] == seat):
        draw = rng.random()
        if draw < 0.15:
            decided.append(make_order("WITHDRAW", offer["id"]))
        elif draw < 0.4:
            others = [s for s in state["seating"] if s != seat and offer["to"] in ("ALL", s)]
            rng.shuffle(others)
            decided.append(make_order("CHOOSE", offer["id"], *others[: rng.randint(1, len(others))]))
    return decided


# ----------------------------------------------------------------------------------------------
# A turn's actions, planned against the hand held now.


class Builder:
    """Plans a turn: each order checked against the plan so far and paid from a copy of the hand."""

    def __init__(self, state: JSONObject, seat: str, rng: Random):
        self.state, self.seat, self.rng = state, seat, rng
        self.geo = board_geometry(state)
        self.hand = dict(state["seats"][seat]["hand"])
        self.plan = Plan(state, seat, alone=True)  # counts on no place another player may free
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
        if self.wonders:
            self._warriors()
            self._fence()
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
            # Not whether the bank holds it: the bank's stock kind by kind is nobody's (D-ALL-5),
            # and a trade the bank cannot pay fails on its own (D-ALL-3).
            if give != short[0] and rate and spare >= rate:
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
        if self.wonders:
            return self._play_wonders()
        state = self.state
        cards = [c["card"] for c in state["seats"][self.seat]["cards"]]
        robbed = state["robber"] and any(
            owner_at(state, v) == self.seat for v in self.geo.tile_vertices[state["robber"]]
        )
        draw = self.rng.random()
        if "warrior" in cards and (robbed or state["seats"][self.seat]["warriors_played"] < 3 or draw < ANYWAY):
            words = robber_play(state, self.seat, self.geo)
            if words and self.add("PLAY", *words):
                return
        if "plenty" in cards:
            want = _wanted(state, self.seat)
            # Played whatever the bank holds (its stock is nobody's, D-ALL-5): what it cannot
            # pay is drawn at random, and an order counting on it may fail.
            if self.add("PLAY", "plenty", want[0], want[1]):
                self.hand[want[0]] += 1
                self.hand[want[1]] += 1
                return
        if "monopoly" in cards and self.add("PLAY", "monopoly", _wanted(state, self.seat)[0]):
            return
        if "roads" in cards:
            self._play_roads()

    def _play_roads(self) -> bool:
        first = self._road_towards_spot()
        return bool(first) and self.add("PLAY", "roads", first)

    def _play_wonders(self) -> None:
        want = _wanted(self.state, self.seat)
        for words, cost in wonders_plays(self.state, self.seat, self.geo, want, self.rng):
            if words[0] == "fleet":
                self._play_fleet(str(words[1]), want[0])
            elif not self.add("PLAY", *words, cost=cost):
                continue
        if "roads" in (c["card"] for c in self.state["seats"][self.seat]["cards"]):
            self._play_roads()

    def _play_fleet(self, good: str, wanted: str) -> None:
        # The fleet's 2:1 counts when the orders run; the plan does not know it, so the robot
        # pays for its market trade here.
        if good != wanted and self.hand[good] >= 2 and self.add("PLAY", "fleet", good):
            if self.add("MARKET", good, wanted, cost={good: 2}):
                self.hand[wanted] += 1

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
        return False

    def _warriors(self) -> None:
        """Build, activate, upgrade, move and send warriors against the robber: when the dragon
        is near, and now and then (seeded) whenever the hand pays."""
        state = self.plan.state
        danger = state["dragon"] >= 4
        mine = [int(v) for v, w in state["warriors"].items() if w["owner"] == self.seat]
        towns = [v for v, b in state["buildings"].items() if b["owner"] == self.seat and b["kind"] == "town"]
        if (danger and len(mine) < max(1, len(towns))) or self.rng.random() < 0.2:
            spot = next((v for v in self._warrior_spots() if self.add("WARRIOR", v, cost=COSTS["warrior"])), None)
            if spot is not None:
                mine.append(spot)
        for vertex in mine:
            self._warrior_turn(vertex, danger)

    def _warrior_turn(self, vertex: int, danger: bool) -> None:
        state = self.plan.state
        warrior = state["warriors"].get(str(vertex))
        if warrior is None:
            return
        draw = self.rng.random()
        if warrior["active"] and warrior.get("activated") != state["round"]:
            if self._chase(vertex) or (draw < 0.3 and self._move(vertex, warrior)):
                return
        if draw < 0.25 and upgrade_problem(state, self.seat, warrior, vertex) is None:
            self.add("UPGRADE", vertex, cost=COSTS["upgrade"])
        if not warrior["active"] and (danger or draw < 0.2) and self.add("ACTIVATE", vertex, cost=COSTS["activate"]):
            state["warriors"][str(vertex)] = {**warrior, "active": True, "activated": state["round"]}

    def _chase(self, vertex: int) -> bool:
        state, geo = self.plan.state, self.geo
        robber = state["robber"]
        if not robber or robber not in geo.vertex_tiles[vertex]:
            return False
        hurts = any(owner_at(state, v) == self.seat for v in geo.tile_vertices[robber])
        if not hurts and self.rng.random() > ANYWAY:
            return False
        tile = default_tile(state, geo, self.seat)
        victim = default_victim(state, geo, self.seat, tile) if tile else None
        return self.add("CHASE", vertex, tile, victim)

    def _move(self, vertex: int, warrior: JSONObject) -> bool:
        """To a weaker warrior of another player on its roads if it can reach one, else to the
        empty vertex farthest along them."""
        state = self.plan.state
        reach = route_from(state, self.geo, self.seat, vertex)
        weaker = [
            v
            for v in reach
            if state["warriors"].get(str(v), {}).get("owner", self.seat) != self.seat
            and state["warriors"][str(v)]["level"] < warrior["level"]
        ]
        empty = [
            v for v in reach if v != vertex and str(v) not in state["warriors"] and str(v) not in state["buildings"]
        ]
        ends = weaker or sorted(empty, key=lambda v: (-reach[v], v))
        return bool(ends) and self.add("MOVE", vertex, ends[0])

    def _fence(self) -> None:
        state = self.plan.state
        limit = discard_limit(state, self.seat)
        if self.rng.random() > 0.3 and sum(self.hand.values()) < limit - 1:
            return
        fences = sum(1 for b in state["buildings"].values() if b["owner"] == self.seat and b.get("fence"))
        bare = [v for v in free_towns(state, self.seat) if not state["buildings"][str(v)].get("fence")]
        if bare and fences < FENCE_LIMIT:
            self.add("FENCE", bare[0], cost=COSTS["fence"])

    def _warrior_spots(self) -> list[int]:
        state = self.plan.state
        ends = {v for e, o in state["roads"].items() if o == self.seat for v in self.geo.edge_ends[e]}
        return sorted(v for v in ends if building_at(state, v) is None and str(v) not in state["warriors"])

    def _offer(self) -> None:
        # One offer a turn when something is short and something is plentiful: to anyone, or now
        # and then to one player; in Wonders & Warriors now and then a commodity.
        if any(o["from"] == self.seat for o in self.state["offers"]) or self.rng.random() < 0.5:
            return
        kinds = GOODS if self.wonders and self.rng.random() < ANYWAY else RESOURCES
        want = _wanted(self.state, self.seat)[0]
        spare = max(kinds, key=lambda g: (self.hand[g], -GOODS.index(g)))
        if spare == want or self.hand[spare] < 2 or self.hand[want] > 1:
            return
        others = [s for s in self.state["seating"] if s != self.seat]
        to = self.rng.choice(others) if self.rng.random() < ANYWAY else "ALL"
        self.add("OFFER", to, {spare: 1}, {want: 1})
