"""Robot empires for empty and NMR seats: found the capital, build an economy and military bases,
expand, then march on the weakest neighbour's nearest city and take it. Once a war has lasted
STRIKE_AFTER rounds, half the groups (the odd-numbered) strike at the enemy's capital, then at
its cities nearest that capital: the book ends an empire only by capitulation (its capital and 4
regular cities captured), and a war fought only at the front can see-saw for ever. Once a war has
lasted STALL_AFTER rounds, troops with the naval bonus sail for the target city itself, though a
way over land leads there: a front in a pass the enemy's bases fill as fast as it is beaten
stalls for ever, and with peace off nothing else ends it. Now and then, by the
robot's seeded generator, they also do what the book allows beyond that (naval bases and sea
attacks, railroads and trains, land on other landmasses, agreements, payments, retreats,
destroying a city before its capture: envoy.py), so that robot games reach every order.

Every order is tried on a dry run of the empire's own turn before it is written down (the code
check_orders uses, standing orders read first as it reads them), so a robot's orders always pass
check_orders."""

from __future__ import annotations

from collections import deque
from functools import lru_cache
from random import Random
from typing import cast

from gm.core.model import JSONObject, Order

from . import actions, diplomacy, economy, envoy, moves, rails, rules
from .cities import near_cities
from .grammar import MAX_ORDERS, make_order
from .paths import STOPPED, Walker, explore, pack, unpack
from .turn import MAX_TROOPS, Turn

MARCH_AT = 3  # a group this big leaves its city for the front
KEEP_AT_CAPITAL = 2  # troops a capital keeps when the rest march
MAX_BASES = 5  # military bases a robot buys: enough troops to win, not a flood
MOST_BASES = 20  # however rich: a world of a thousand groups stops no one, and every turn reads them
CAPITAL_PULL = 60  # blocks a capital counts nearer: no empire capitulates while it stands
STRIKE_AFTER = 10  # rounds of a war after which half the groups march on the enemy's capital
STALL_AFTER = 30  # rounds of a war after which troops that may sail land at the target city
STANDING_AT_MOST = MAX_ORDERS // 4  # standing orders a robot writes; the rest of the 200 act


def robot_orders(state: JSONObject, seat: str, rng: Random) -> list[Order]:
    """The robot's orders for its empire this round; its whims come from rng, the seat's own
    generator for the turn (rule D-ALL-1), so a replayed turn gets the same orders."""
    if state["phase"] == "over" or not state["seats"].get(seat, {}).get("alive"):
        return []
    planner = Planner(state, seat, rng)
    planner.capital()
    kept = envoy.standing(planner, rng)[:STANDING_AT_MOST]
    planner.reserved = len(kept)
    rules.read_standing(planner.turn, {seat: kept})
    rules.start_turn(planner.turn, seat, planner.orders)
    envoy.answer(planner, rng)
    planner.build()
    planner.expand()
    target = planner.target()
    envoy.propose(planner, rng, planner.turn.cities[planner.turn.city_at[target]]["owner"] if target else None)
    planner.march(target)
    return kept + planner.orders


class Planner:
    """One robot's turn in the making: a dry-run Turn and the orders that worked on it."""

    def __init__(self, state: JSONObject, seat: str, rng: Random):
        self.turn = Turn(state, rng=None, you=True)
        self.seat = seat
        self.rng = rng
        self.orders: list[Order] = []
        self.reserved = 0  # the standing orders written before these, which count toward the 200
        self._near: tuple[frozenset[str], set[int]] = (frozenset(), set())

    def near(self) -> set[int]:
        """Blocks too near a city for another (rule D-MC-4), worked out again only when the
        cities change (a turn's planning asks for them often and founds one city at most)."""
        cities = frozenset(self.turn.cities)
        if cities != self._near[0]:
            self._near = (cities, near_cities(self.turn))
        return self._near[1]

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
        """Carry the order out on the dry run and keep it if it works; none once the turn file
        holds the 200 orders an empire may give (an empire of a hundred groups would pass it)."""
        if len(self.orders) + self.reserved >= MAX_ORDERS:
            return False
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
        self._naval(mine)  # before the bases that follow spend what is left
        bases = sum(len(turn.cities[c]["bases"]) for c in mine)
        allowed = min(MAX_BASES + self.money // 300, MOST_BASES)  # a rich empire turns E$ into troops
        for cid in mine:
            for _ in range(2):
                if bases < allowed and len(turn.cities[cid]["bases"]) < 2 and self.attempt("BASE", cid):
                    bases += 1
        if capital in mine and self.money >= 60 and not turn.cities[capital]["transport"]:
            self.attempt("TRANSPORT", capital)
        self._railroad(mine)

    def _naval(self, mine: list[str]) -> None:
        """A naval base now and then, in the coastal city nearest another empire's city: the
        way over water to other landmasses, and its troops sail to attack from the water (a
        base beside the capital, far from every enemy, saw an amphibious attack once in 30
        games)."""
        turn = self.turn
        if any(turn.cities[c]["naval"] for c in mine) or self.money < 70 or self.rng.random() >= 0.5:
            return
        foreign = [turn.city_block(c) for c, city in turn.cities.items() if city["owner"] != self.seat]
        coastal = [c for c in mine if turn.board.coastal[turn.city_block(c)]]
        for cid in sorted(
            coastal, key=lambda c: (min((turn.board.distance(turn.city_block(c), f) for f in foreign), default=0), c)
        ):
            if self.attempt("NAVAL", cid):
                return

    def _railroad(self, mine: list[str]) -> None:
        """From round 31, now and then, a line between the two nearest cities not yet joined."""
        turn = self.turn
        if turn.round < economy.RAIL_FROM_ROUND or self.money < 100 or self.rng.random() >= 0.3:
            return
        pairs = sorted(
            (turn.board.distance(turn.city_block(a), turn.city_block(b)), a, b)
            for n, a in enumerate(mine)
            for b in mine[n + 1 :]
            if not rails.lines_between(turn, a, b)
        )
        for _, a, b in pairs[:2]:
            if self.attempt("RAIL", a, b):
                return

    def _city_spot(self) -> int | None:
        turn, seat = self.turn, self.seat
        if seat in turn.bought_city or self.money < economy.city_price(turn.regular_cities(seat)):
            return None
        capital = self.home()
        if capital is None:  # no city to measure from (its last was ceded this turn): found none
            return None
        spots = self._city_spots()
        return min(spots, key=lambda i: (turn.board.distance(i, capital), i)) if spots else None

    def _city_spots(self) -> list[int]:
        """The empire's own blocks where a regular city may be founded now: the City Placement
        Restrictions, worked out for the whole territory at once (attempt checks each again)."""
        turn, seat = self.turn, self.seat
        near = self.near()
        return [i for i in turn.territory(seat) if i not in near and not turn.foreign_at(seat, i)]

    def expand(self) -> None:
        """Buy a 5x5 patch of land beside the territory, CITY_SPACING from the cities, where
        the next city will go; with a naval base, now and then a patch on another landmass."""
        turn = self.turn
        if self.money < 13 or self._city_spot_exists():
            return
        centre = self._overseas() if self.rng.random() < 0.2 else None
        centre = centre if centre is not None else self._room()
        if centre is None:
            return
        x, y = turn.board.xy(centre)
        w, h = turn.board.width - 1, turn.board.height - 1
        a, b = f"{max(0, x - 2)},{max(0, y - 2)}", f"{min(w, x + 2)},{min(h, y + 2)}"
        self.attempt("LAND", a, b)

    def _overseas(self) -> int | None:
        """A free block of another landmass than the capital's, far enough from every city for
        one (rule D-MC-13: it needs the naval base the empire has)."""
        turn, board = self.turn, self.turn.board
        home = self.home()
        if home is None or not any(turn.cities[c]["naval"] for c in turn.cities_of(self.seat)):
            return None
        near = self.near()
        spots = [
            i
            for i in range(len(turn.land))
            if board.landmass[i] not in (-1, board.landmass[home])
            and turn.owner(i) is None
            and not board.coastal[i]
            and i not in near
        ]
        return min(spots, key=lambda i: (board.distance(i, home), i)) if spots else None

    def _city_spot_exists(self) -> bool:
        return bool(self._city_spots())

    def _room(self) -> int | None:
        """The nearest free land block, outward from the territory, far enough from every city
        to found one."""
        turn, seat = self.turn, self.seat
        board = turn.board
        start = turn.territory(seat)
        seen, queue = set(start), deque(start)
        near = self.near()
        while queue:
            i = queue.popleft()
            if turn.owner(i) is None and not board.water[i] and not board.coastal[i] and i not in near:
                return i
            for n in board.neighbours[i]:
                if n not in seen and not board.water[n] and turn.owner(n) in (None, seat):
                    seen.add(n)
                    queue.append(n)
        return None

    # -- war ---------------------------------------------------------------------------------
    def march(self, target: int | None) -> None:
        turn, seat = self.turn, self.seat
        strike = None
        if target is not None:
            enemy = turn.cities[turn.city_at[target]]["owner"]
            if turn.options["declarations"] and not diplomacy.at_war(turn, seat, enemy):
                self.attempt("DECLARE", enemy)  # with declarations, war begins with one
            strike = self.strike(enemy)
        for gid in sorted((g for g, grp in turn.groups.items() if grp["owner"] == seat), key=lambda g: int(g[1:])):
            if gid not in turn.groups:
                continue
            self._fight(gid)
            if gid not in turn.groups or target is None or gid in turn.moved:
                continue
            goal = strike if strike is not None and int(gid[1:]) % 2 else target
            troops = self._marching(gid)
            if troops and not self._by_rail(gid, troops, goal) and not self._by_sea(gid, troops, goal):
                self._advance(gid, troops, goal)
            if gid in turn.groups:
                self._fight(gid)

    def _by_rail(self, gid: str, troops: int, target: int) -> bool:
        """Ride a railroad from the group's city to a joined city nearer the target."""
        turn = self.turn
        here = turn.city_at.get(turn.place(gid))
        if here is None or not turn.state["rails"]:
            return False
        near = turn.board.distance(turn.place(gid), target)
        joined = sorted(
            (turn.board.distance(turn.city_block(c), target), c)
            for line in turn.state["rails"]
            for c in line["ends"]
            if here in line["ends"] and c != here and rails.usable(turn, self.seat, here, c)
        )
        count = troops if troops < turn.groups[gid]["troops"] else "ALL"
        return bool(joined) and joined[0][0] < near and self.attempt("TRAIN", gid, count, joined[0][1])

    def _by_sea(self, gid: str, troops: int, target: int) -> bool:
        """A group with the naval bonus sails: to the target when no way over land leads there,
        else now and then to the water beside an enemy group, to attack it from there."""
        turn = self.turn
        if not turn.bonus.get(gid, (False, False))[1]:
            return False
        count = troops if troops < turn.groups[gid]["troops"] else "ALL"
        field = distances(tuple(turn.state["world"]["terrain"]), target)
        if field[turn.place(gid)] < 0 or self._stalled(target):
            return self.attempt("MOVE", gid, count, turn.name(target))
        if self.rng.random() >= 0.6:
            return False
        walker = Walker(turn, gid)
        reach = explore(walker, walker.start(turn.place(gid)))
        for i in sorted(reach.first, key=lambda i: (reach.steps(i), i)):
            if turn.board.water[i] and self._enemy_beside(i, troops) and self.attempt("MOVE", gid, count, turn.name(i)):
                return True
        return False

    def _stalled(self, target: int) -> bool:
        """The war with the target's owner has lasted STALL_AFTER rounds: the front may be a
        pass its bases fill as fast as it is beaten (robot game 9600: a land bridge one block
        wide, a thousand groups and no capture in 300 rounds, with peace off), so the troops
        that may sail land at the target city itself."""
        war = diplomacy.war_of(self.turn, self.seat, self.turn.cities[self.turn.city_at[target]]["owner"])
        return war is not None and self.turn.round - war["since"] >= STALL_AFTER

    def _enemy_beside(self, i: int, troops: int) -> bool:
        """An enemy group beside block i that the troops may attack at even odds or better."""
        turn, seat = self.turn, self.seat
        return any(
            not diplomacy.hostile_problem(turn, seat, turn.groups[g]["owner"])
            and not diplomacy.allied(turn, seat, turn.groups[g]["owner"])
            and turn.groups[g]["troops"] <= troops
            for n in turn.board.neighbours[i]
            for g in turn.groups_at(n)
            if turn.groups[g]["owner"] != seat
        )

    def target(self) -> int | None:
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

    def strike(self, enemy: str) -> int | None:
        """Where the strike force marches once the war with the enemy has lasted STRIKE_AFTER
        rounds: the enemy's capital while the enemy holds it, else the enemy's city nearest that
        capital (capitulation wants the capital and 4 regular cities captured, rule D-MC-11)."""
        turn = self.turn
        war = diplomacy.war_of(turn, self.seat, enemy)
        capital = turn.seats[enemy]["capital"]
        if war is None or turn.round - war["since"] < STRIKE_AFTER or capital not in turn.cities:
            return None
        centre = turn.city_block(capital)
        held = sorted(
            (turn.board.distance(centre, turn.city_block(cid)), cid)
            for cid, city in turn.cities.items()
            if city["owner"] == enemy
        )
        return turn.city_block(held[0][1]) if held else None

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
        if self.rng.random() >= 0.03:  # now and then an ally's troop too, which leaves the alliance
            near = [g for g in near if not diplomacy.allied(turn, seat, turn.groups[g]["owner"])]
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
        if not self._aside(gid, troops, field):
            self._reinforce(gid, troops, walk)

    def _aside(self, gid: str, troops: int, field: list[int]) -> bool:
        """The walk straight downhill ends on nothing but the empire's own full groups: stop on
        the free block of the round's reach nearest the target instead, if it is nearer than
        here (the one line downhill is the same for every group, and a front of groups queued
        on it stands still while the blocks beside it stay empty)."""
        turn = self.turn
        here = turn.place(gid)
        walker = Walker(turn, gid)
        reach = explore(walker, walker.start(here))
        free = [
            (field[i], reach.steps(i), i)
            for i in reach.first
            if 0 <= field[i] < field[here] and not moves.stop_problem(turn, gid, troops, i)
        ]
        count = troops if troops < turn.groups[gid]["troops"] else "ALL"
        return bool(free) and self.attempt("MOVE", gid, count, turn.name(min(free)[2]))

    def _reinforce(self, gid: str, troops: int, walk: list[int]) -> None:
        """Every block of the walk holds a group of the empire's own too full to take the whole
        group in (a front of groups of 4 behind groups of 4 stands still for ever, and a group
        of 4 does not attack one of 6): fill up the furthest with as many troops as it has room
        for, so the front fills to full groups and the blocks behind it empty."""
        turn = self.turn
        for i in reversed(walk):
            mine = turn.group_of(self.seat, i)
            room = MAX_TROOPS - turn.groups[mine]["troops"] if mine and mine != gid else 0
            if 0 < room < troops and self.attempt("MOVE", gid, room, turn.name(i)):
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
