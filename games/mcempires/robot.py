"""Robot empires for empty and NMR seats: found the capital, build an economy and military bases,
expand, then march on the weakest neighbour's nearest city and take it.

Every order is tried on a dry run of the empire's own turn before it is written down (the code
check_orders uses), so a robot's orders always pass check_orders."""

from __future__ import annotations

from collections import deque
from functools import lru_cache
from random import Random
from typing import cast

from gm.core.model import JSONObject, Order

from . import actions, diplomacy, economy, moves, rules
from .cities import CITY_SPACING, placement_problem
from .grammar import make_order
from .paths import STOPPED, Walker, pack, unpack
from .turn import Turn

MARCH_AT = 3  # a group this big leaves its city for the front
KEEP_AT_CAPITAL = 2  # troops a capital keeps when the rest march
MAX_BASES = 5  # military bases a robot buys: enough troops to win, not a flood
CAPITAL_PULL = 60  # blocks a capital counts nearer: no empire capitulates while it stands


def robot_orders(state: JSONObject, seat: str, rng: Random) -> list[Order]:
    """The robot's orders for its empire this round. It needs no chance (rng is the contract's):
    every choice follows from the state, so a replayed turn gets the same orders."""
    if state["phase"] == "over" or not state["seats"].get(seat, {}).get("alive"):
        return []
    planner = Planner(state, seat)
    planner.capital()
    rules.start_turn(planner.turn, seat, planner.orders)
    planner.build()
    planner.expand()
    planner.march()
    return planner.orders


class Planner:
    """One robot's turn in the making: a dry-run Turn and the orders that worked on it."""

    def __init__(self, state: JSONObject, seat: str):
        self.turn = Turn(state, rng=None, you=True)
        self.seat = seat
        self.orders: list[Order] = []

    @property
    def money(self) -> int:
        return cast(int, self.turn.seats[self.seat]["money"])

    def home(self) -> int | None:
        """The block of the capital, or of a city left when the capital is lost."""
        turn, seat = self.turn, self.seat
        mine = [turn.seats[seat]["capital"]] + sorted(turn.cities_of(seat))
        mine = [c for c in mine if c in turn.cities and turn.cities[c]["owner"] == seat]
        return turn.city_block(mine[0]) if mine else None

    def attempt(self, verb: str, *args: object) -> bool:
        order = make_order(verb, *args)
        if actions.execute(self.turn, self.seat, order) is None:
            self.orders.append(order)
            return True
        return False

    # -- founding and building -----------------------------------------------------------------
    def capital(self) -> None:
        if not self.turn.seats[self.seat]["capital"]:
            x, y = self.turn.seats[self.seat]["site"]
            self.orders.append(make_order("CAPITAL", f"{x},{y}"))

    def build(self) -> None:
        """A military base in the capital first, then cities and treasuries (the income grows
        as t squared), a second base in the capital, and bases in a few other cities."""
        turn, seat = self.turn, self.seat
        capital = turn.seats[seat]["capital"]
        mine = sorted(turn.cities_of(seat), key=lambda c: (c != capital, c))
        if capital in mine and not turn.cities[capital]["occupier"]:
            if not turn.cities[capital]["bases"]:
                self.attempt("BASE", capital)
        spot = self._city_spot()
        if spot is not None:
            self.attempt("CITY", turn.name(spot))
        for cid in mine:
            if (
                economy.treasuries_allowed(turn)
                and not turn.cities[cid]["treasury"]
                and not turn.cities[cid]["occupier"]
            ):
                self.attempt("TREASURY", cid)
        treasuries = sum(1 for c in mine if turn.cities[c]["treasury"])
        if (
            capital in mine
            and len(turn.cities[capital]["bases"]) == 1
            and (treasuries >= 2 or not economy.treasuries_allowed(turn))
        ):
            self.attempt("BASE", capital)
        bases = sum(len(turn.cities[c]["bases"]) for c in mine)
        allowed = MAX_BASES + self.money // 300  # a rich empire turns its E$ into troops
        for cid in mine:
            for _ in range(2):
                if bases < allowed and len(turn.cities[cid]["bases"]) < 2 and self.attempt("BASE", cid):
                    bases += 1
        if capital in mine and self.money >= 60 and not turn.cities[capital]["transport"]:
            self.attempt("TRANSPORT", capital)

    def _city_spot(self) -> int | None:
        turn, seat = self.turn, self.seat
        if seat in turn.bought_city or self.money < economy.city_price(turn.regular_cities(seat)):
            return None
        capital = self.home()
        mark = turn.marks[seat]
        spots = [
            i
            for i in range(len(turn.land))
            if turn.land[i] == mark and not placement_problem(turn, seat, i, capital=False)
        ]
        # A robot with land but no city left (home() None) would fail here, as it did untyped.
        return min(spots, key=lambda i: (turn.board.distance(i, cast(int, capital)), i)) if spots else None

    def expand(self) -> None:
        """Buy a 5x5 patch of land beside the territory, CITY_SPACING from the cities, where
        the next city will go."""
        turn = self.turn
        if self.money < 13 or self._city_spot_exists():
            return
        centre = self._room()
        if centre is None:
            return
        x, y = turn.board.xy(centre)
        w, h = turn.board.width - 1, turn.board.height - 1
        a, b = f"{max(0, x - 2)},{max(0, y - 2)}", f"{min(w, x + 2)},{min(h, y + 2)}"
        self.attempt("LAND", a, b)

    def _city_spot_exists(self) -> bool:
        turn, seat = self.turn, self.seat
        mark = turn.marks[seat]
        return any(
            turn.land[i] == mark and not placement_problem(turn, seat, i, capital=False) for i in range(len(turn.land))
        )

    def _room(self) -> int | None:
        """The nearest free land block, outward from the territory, far enough from every city
        to found one."""
        turn, seat = self.turn, self.seat
        board = turn.board
        mark = turn.marks[seat]
        start = [i for i in range(len(turn.land)) if turn.land[i] == mark]
        seen, queue = set(start), deque(start)
        centres = [turn.city_block(c) for c in turn.cities]
        while queue:
            i = queue.popleft()
            if (
                turn.owner(i) is None
                and not board.water[i]
                and not board.coastal[i]
                and all(board.distance(i, c) >= CITY_SPACING for c in centres)
            ):
                return i
            for n in board.neighbours[i]:
                if n not in seen and not board.water[n] and turn.owner(n) in (None, seat):
                    seen.add(n)
                    queue.append(n)
        return None

    # -- war ---------------------------------------------------------------------------------
    def march(self) -> None:
        turn, seat = self.turn, self.seat
        target = self._target()
        if target is not None:
            enemy = turn.cities[turn.city_at[target]]["owner"]
            if turn.options["declarations"] and not diplomacy.at_war(turn, seat, enemy):
                self.attempt("DECLARE", enemy)  # with declarations, war begins with one
        for gid in sorted((g for g, grp in turn.groups.items() if grp["owner"] == seat), key=lambda g: int(g[1:])):
            if gid not in turn.groups:
                continue
            self._fight(gid)
            if gid not in turn.groups or target is None or gid in turn.moved:
                continue
            troops = self._marching(gid)
            if troops:
                self._advance(gid, troops, target)
                if gid in turn.groups:
                    self._fight(gid)

    def _target(self) -> int | None:
        """The city to march on: the weakest reachable enemy's capital while it stands (no
        empire capitulates without it), else that enemy's nearest city."""
        turn, seat = self.turn, self.seat
        home = self.home()
        if home is None:
            return None
        best, key = None, None
        for cid, city in sorted(turn.cities.items()):
            owner = city["owner"]
            if owner == seat or not turn.seats[owner]["alive"] or diplomacy.allied(turn, seat, owner):
                continue
            i = turn.city_block(cid)
            score = (
                turn.board.distance(home, i)
                + 2 * turn.troops_of(owner)
                - (CAPITAL_PULL if cid == turn.seats[owner]["capital"] else 0)
                - (20 if city["occupier"] == seat else 0)
            )
            if key is None or score < key:
                best, key = i, score
        return best

    def _marching(self, gid: str) -> int:
        """How many of the group's troops set off this round (0: it stays)."""
        turn, seat = self.turn, self.seat
        group = turn.groups[gid]
        cid = turn.city_at.get(turn.place(gid))
        if cid is None:
            return cast(int, group["troops"])
        city = turn.cities[cid]
        if city["owner"] != seat:
            return 0  # it is occupying an enemy city: hold on
        keep = KEEP_AT_CAPITAL if cid == turn.seats[seat]["capital"] else 0
        if group["troops"] - keep < MARCH_AT:
            return 0
        return cast(int, group["troops"] - keep)

    def _fight(self, gid: str) -> None:
        """Attack the weakest enemy group beside it when the odds are even or better."""
        turn, seat = self.turn, self.seat
        here = turn.place(gid)
        near = [
            g
            for i in (here, *turn.board.neighbours[here])
            for g in turn.groups_at(i)
            if turn.groups[g]["owner"] != seat
        ]
        near = [g for g in near if not diplomacy.hostile_problem(turn, seat, turn.groups[g]["owner"])]
        if not near:
            return
        weakest = min(near, key=lambda g: (turn.groups[g]["troops"], g))
        if turn.groups[gid]["troops"] >= turn.groups[weakest]["troops"]:
            self.attempt("ATTACK", gid, "ALL", weakest)

    def _advance(self, gid: str, troops: int, target: int) -> None:
        """Walk downhill on the distance field toward the target as far as the round allows,
        and stop on the furthest block of the walk where the group may stop."""
        turn = self.turn
        field = distances(tuple(turn.state["world"]["terrain"]), target)
        walker = Walker(turn, gid)
        node, steps, walk = walker.start(turn.place(gid)), 0, []
        while True:
            i, limit, phase = unpack(node)
            if phase == STOPPED or steps >= limit:
                break
            options = [
                (field[n], n, new, then)
                for n, new, then in walker.successors(i, limit, phase)
                if steps + 1 <= new and 0 <= field[n] < field[i]
            ]
            if not options:
                break
            _, n, new, then = min(options)
            node, steps = pack(n, new, then), steps + 1
            walk.append(n)
        count = troops if troops < turn.groups[gid]["troops"] else "ALL"
        for i in reversed(walk):
            if not moves.stop_problem(turn, gid, troops, i):
                self.attempt("MOVE", gid, count, turn.name(i))
                return


@lru_cache(maxsize=64)
def distances(rows: tuple[str, ...], target: int) -> list[int]:
    """Steps over land from every block to the target (-1 where none): the robot's compass.
    Cached: a pure function of the world and the target, the same for every robot."""
    width = len(rows[0])
    terrain = "".join(rows)
    far = [-1] * len(terrain)
    far[target] = 0
    queue = deque([target])
    size = len(terrain)
    water = "~=o"
    while queue:
        i = queue.popleft()
        d = far[i] + 1
        x = i % width
        for n in (i - width, i + width, i - 1 if x else -1, i + 1 if x < width - 1 else -1):
            if 0 <= n < size and far[n] < 0 and terrain[n] not in water:
                far[n] = d
                queue.append(n)
    return far
