"""The Empires robot: a sensible player for seats that send no orders (NMR)."""

from __future__ import annotations

from random import Random

from gm.core.model import JSONObject, Order

from .battle import needed_to_capture
from .board import NEUTRAL, Board, owned
from .orders import ARMY_COST, MAX_ACTIONS, MOVE_COST, RESERVE_COST, Amount, make_order

MAX_ATTACKS = 5  # a robot spreads its risk: a few attacks a turn, each sure on paper
MARGIN = 1  # spare attackers against an unseen entrenchment or ambush
MAX_GROWS = 3
# How often the robot picks the book's less common orders where they make sense, so that robot
# games (and the invariant battery, gm.testing.battery) reach every rule: the other defence
# modes, giving up an area it cannot hold, razing a fort, moving armies to the border, an
# explicit ARMY, a gift.
AMBUSH_CHANCE = 0.2
DEFEND_CHANCE = 0.1
RETREAT_CHANCE = 0.3
RAZE_CHANCE = 0.05
MOVE_CHANCE = 0.5
ARMY_CHANCE = 0.25
GIFT_CHANCE = 0.05


class _Planner:
    """Builds one seat's orders against the state, spending its BPs as it goes."""

    def __init__(self, state: JSONObject, seat: str, rng: Random):
        self.state, self.seat, self.rng = state, seat, rng
        self.board = Board.of(state)
        self.country = state["countries"][seat]
        self.bps, self.reserve = self.country["bps"], self.country["reserve"]
        self.mine = owned(state, seat)
        self.armies = {code: state["areas"][code]["armies"] for code in self.mine}
        self.orders: list[Order] = []

    def add(
        self,
        verb: str,
        where: str | None = None,
        where_to: str | None = None,
        amount: Amount | None = None,
        cost: int = 0,
    ) -> bool:
        if len(self.orders) >= MAX_ACTIONS or cost > self.bps:
            return False
        self.bps -= cost
        self.orders.append(make_order(len(self.orders) + 1, verb, where, where_to, amount))
        return True

    def threat(self, code: str) -> int:
        """The largest enemy army next to an area (neutrals never act, so they are no threat)."""
        return max(
            (
                self.state["areas"][n]["armies"]
                for n in self.board.reach[code]
                if self.state["areas"][n]["owner"] not in (self.seat, NEUTRAL)
            ),
            default=0,
        )

    def defend(self) -> None:
        for code in sorted(self.mine, key=lambda c: -self.threat(c))[:3]:
            danger = [n for n in self.board.reach[code] if self.state["areas"][n]["owner"] not in (self.seat, NEUTRAL)]
            if not danger:
                break
            strongest = max(danger, key=lambda n: (self.state["areas"][n]["armies"], n))
            area = self.state["areas"][code]
            terrain = self.board.terrain(code).defence
            falls = needed_to_capture(area["armies"], area["population"], area["fort"], terrain, 1, self.threat(code))
            if not (falls and self.give_up(code)):
                self.guard(code, strongest)
            outnumbered = self.threat(code) >= area["armies"] + area["population"]
            if area["fort"] and outnumbered and self.rng.random() < RAZE_CHANCE:
                self.add("RAZE", code, None, 1, cost=1)  # a level less for the enemy to take
            if self.threat(code) > area["armies"] + area["population"] and area["population"] >= 4:
                self.add("LEVY", code, None, "ALL")

    def guard(self, code: str, strongest: str) -> None:
        """Entrench against the strongest neighbour; now and then ambush with a large army, or
        simply defend (D-EMP-4's other modes)."""
        armies = self.state["areas"][code]["armies"]
        if armies >= 4 and self.rng.random() < AMBUSH_CHANCE:
            self.add("AMBUSH", code)
        elif self.rng.random() < DEFEND_CHANCE:
            self.add("DEFEND", code)
        else:
            self.add("ENTRENCH", code, strongest)

    def give_up(self, code: str) -> bool:
        """An area it cannot hold: sometimes its armies retreat to the strongest own neighbour.
        Whether it gave it up."""
        area = self.state["areas"][code]
        refuges = [n for n in self.board.reach[code] if n in self.armies]
        if not area["armies"] or not refuges or self.rng.random() >= RETREAT_CHANCE:
            return False
        return self.add("RETREAT", code, max(refuges, key=lambda n: (self.armies[n], n)))

    def targets(self) -> list[tuple[int, int, float, str, str]]:
        """(attackers needed, -value, tie-break, source, target) for every target in reach."""
        found = []
        for target in sorted({t for c in self.mine for t in self.board.reach[c]} - set(self.mine)):
            area = self.state["areas"][target]
            enemy = area["owner"] != NEUTRAL
            need = needed_to_capture(
                area["armies"], area["population"], area["fort"], self.board.terrain(target).defence, int(enemy), 99
            )
            sources = [c for c in self.mine if target in self.board.reach[c]]
            source = max(sources, key=lambda c: (self.armies[c], c))
            value = area["population"] + (2 if enemy else 0)
            found.append(((need or 99) + MARGIN, -value, self.rng.random(), source, target))
        return sorted(found)

    def attack(self) -> None:
        attacks = 0
        for need, _, _, source, target in self.targets():
            if attacks >= MAX_ATTACKS or self.bps < MOVE_COST + 1:
                break
            keep = 1 if self.threat(source) else 0
            short = need - max(0, self.armies[source] - keep)
            if short > min(self.reserve, self.bps - MOVE_COST):
                continue
            if short > 0:
                self.add("RESERVE", source, None, short, cost=short * RESERVE_COST)
                self.reserve -= short
                self.armies[source] += short
            if self.add("ATTACK", source, target, self.amount(source, need), cost=MOVE_COST):
                self.armies[source] -= need
                attacks += 1

    def amount(self, source: str, need: int) -> Amount:
        """The number to send, written as ALL or AB-n (all but n) where that is the same."""
        spare = self.armies[source] - need
        if spare > 2 or self.state["areas"][source]["armies"] != self.armies[source]:
            return need  # an earlier order of its own changes what is there when this one runs
        return "ALL" if spare == 0 else f"AB-{spare}"

    def reinforce(self) -> None:
        """Sometimes armies beyond the population of a safe area (they cost supply there) march
        to the most threatened own neighbour."""
        if self.rng.random() >= MOVE_CHANCE:
            return
        for code in sorted(self.armies, key=lambda c: (-self.armies[c], c)):
            area = self.state["areas"][code]
            extra = self.armies[code] - area["population"]
            border = [n for n in self.board.reach[code] if n in self.armies and self.threat(n)]
            if extra > 0 and not self.threat(code) and border and self.bps > MOVE_COST + 3:
                step = max(border, key=lambda n: (self.threat(n) - self.armies[n], n))
                if self.add("MOVE", code, step, extra, cost=MOVE_COST):
                    self.armies[code] -= extra
                    self.armies[step] += extra
                return

    def grow(self) -> None:
        safe = sorted(
            self.mine,
            key=lambda c: (self.state["areas"][c]["population"] + self.board.terrain(c).grow, self.threat(c), c),
        )
        for code in safe[:MAX_GROWS]:
            cost = self.state["areas"][code]["population"] + self.board.terrain(code).grow
            if cost > self.bps - 3:  # keep something for the implicit ARMY ALL
                break
            self.add("GROW", code, cost=cost)

    def fortify(self) -> None:
        capital = self.country["capital"]
        if capital in self.mine and self.threat(capital):
            level = self.state["areas"][capital]["fort"]
            if level < 2 and self.bps >= 2 * (level + 1) + 6:
                self.add("FORTIFY", capital, cost=2 * (level + 1))

    def spend_the_rest(self) -> None:
        """Now and then a gift of a few BPs to the smallest other country (to slow the leader),
        and an explicit ARMY for what is left, instead of leaving it to the implicit ARMY ALL."""
        others = [c for c in self.state["countries"] if c != self.seat and c not in self.state["victory"]["eliminated"]]
        if others and self.bps >= 5 and self.rng.random() < GIFT_CHANCE:
            poorest = min(others, key=lambda c: (len(owned(self.state, c)), c))
            gift = self.rng.randint(1, 2)
            self.add("GIFT", None, poorest, gift, cost=gift)
        if self.bps >= ARMY_COST and self.rng.random() < ARMY_CHANCE:
            count = self.bps // ARMY_COST
            amount: Amount = self.rng.choice(("ALL", count, f"AB-{self.bps - ARMY_COST * count}"))
            self.add("ARMY", None, None, amount, cost=ARMY_COST * count)


def robot_orders(state: JSONObject, seat: str, rng: Random) -> list[Order]:
    """Orders check_orders accepts: defend the borders (giving up what it cannot hold), attack
    what it surely takes, move armies to the border, grow, and spend the rest on armies."""
    if seat not in state.get("countries", {}) or state.get("phase") == "over" or seat in state["victory"]["eliminated"]:
        return []
    planner = _Planner(state, seat, rng)
    if not planner.mine:
        return []
    planner.defend()
    planner.attack()
    planner.reinforce()
    planner.fortify()
    planner.grow()
    planner.spend_the_rest()
    return planner.orders
