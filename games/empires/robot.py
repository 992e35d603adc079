"""The Empires robot: a sensible player for seats that send no orders (NMR)."""

from __future__ import annotations

from random import Random

from gm.core.model import JSONObject, Order

from .actions import MOVE_COST, RESERVE_COST
from .battle import needed_to_capture
from .board import NEUTRAL, Board, owned
from .orders import MAX_ACTIONS, Amount, make_order

MAX_ATTACKS = 5  # a robot spreads its risk: a few attacks a turn, each sure on paper
MARGIN = 1  # spare attackers against an unseen entrenchment or ambush
MAX_GROWS = 3


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
            self.add("ENTRENCH", code, strongest)
            area = self.state["areas"][code]
            if self.threat(code) > area["armies"] + area["population"] and area["population"] >= 4:
                self.add("LEVY", code, None, "ALL")

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
            if self.add("ATTACK", source, target, need, cost=MOVE_COST):
                self.armies[source] -= need
                attacks += 1

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


def robot_orders(state: JSONObject, seat: str, rng: Random) -> list[Order]:
    """Orders check_orders accepts: defend the borders, attack what it surely takes, grow, and
    leave the rest to the implicit ARMY ALL."""
    if seat not in state.get("countries", {}) or state.get("phase") == "over" or seat in state["victory"]["eliminated"]:
        return []
    planner = _Planner(state, seat, rng)
    if not planner.mine:
        return []
    planner.defend()
    planner.attack()
    planner.fortify()
    planner.grow()
    return planner.orders
