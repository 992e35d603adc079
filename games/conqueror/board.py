"""The Conqueror! map as the rules read it: names, neighbours, distances, owners and nations."""

from __future__ import annotations

from collections import deque
from typing import cast

from gm.core.model import JSONObject
from gm.core.names import named

NEUTRAL = "neutral"


class Board:
    """The fixed part of a scenario's map, with distances measured on demand.

    names: province code -> name.
    neighbours: province code -> tuple of neighbouring codes, in the scenario's order.
    order: province codes in the scenario's order (every loop over the map uses it).
    """

    def __init__(self, scenario: JSONObject):
        provinces = scenario["provinces"]
        self.order = tuple(p["code"] for p in provinces)
        self.names = {p["code"]: p["name"] for p in provinces}
        self.neighbours = {p["code"]: tuple(p["neighbours"]) for p in provinces}
        self._distances: dict[str, dict[str, int]] = {}

    def name(self, code: str) -> str:
        return cast(str, self.names.get(code, code))

    def label(self, code: str) -> str:
        """A province as a report sentence names it, beside the code the map shows: "Wessex (WES)"."""
        return named(self.names.get(code), code)

    def adjacent(self, a: str, b: str) -> bool:
        return b in self.neighbours.get(a, ())

    def distances_from(self, start: str) -> dict[str, int]:
        """Steps from start to every province over the whole map (any owner)."""
        found = self._distances.get(start)
        if found is None:
            found = {start: 0}
            queue = deque([start])
            while queue:
                here = queue.popleft()
                for other in self.neighbours[here]:
                    if other not in found:
                        found[other] = found[here] + 1
                        queue.append(other)
            self._distances[start] = found
        return found

    def distance(self, start: str | None, code: str) -> int:
        """Steps between two provinces; 0 when there is no start (a nation without a capital)."""
        if start is None or start not in self.neighbours:
            return 0
        return self.distances_from(start).get(code, 0)


def nation(state: JSONObject, party: str) -> str:
    """A nation as a report sentence names it, beside its code in the map's legend ("Wessex (WX)"),
    or "the local leaders" for neutral."""
    if party == NEUTRAL:
        return "the local leaders"
    return named(state["seats"].get(party, {}).get("nation"), party)


def map_order(state: JSONObject) -> list[str]:
    """Province codes in the scenario's order. Loops never follow a dict's order: a stored state
    comes back with its keys sorted, and the same turn must resolve the same way either way."""
    return [p["code"] for p in state["scenario"]["provinces"]]


def owned(state: JSONObject, seat: str) -> list[str]:
    """A nation's provinces, in map order."""
    provinces = state["provinces"]
    return [code for code in map_order(state) if provinces[code]["owner"] == seat]


def control(province: JSONObject) -> int:
    """The owner's influence in its own province (0-100), the control level."""
    return cast(int, province["influence"].get(province["owner"], 0))


def alive(state: JSONObject) -> list[str]:
    """Nations still in the game, in seating order."""
    return [code for code in state["seating"] if state["seats"][code]["alive"]]


def armies_words(n: int) -> str:
    return f"{n} army" if n == 1 else f"{n} armies"
