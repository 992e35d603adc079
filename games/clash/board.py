"""Clash of Empires' board: who holds what and the seats' names, the order of play, and the
writes every stage of resolution shares (troops in, an empty territory settled, an event).

A territory's entry in state["territories"] is {"owner", "troops", "core_of"}; owner is the seat
(or "neutral") whose troops are there, None when it is empty.
"""

from __future__ import annotations

from gm.core.model import Event, JSONObject, Order
from gm.core.names import named

NEUTRAL = "neutral"


def places(state: JSONObject) -> dict[str, JSONObject]:
    """The scenario's territories by code: name, x, y, neighbours, neutral, claimable."""
    return {t["code"]: t for t in state["scenario"]["territories"]}


def place_name(state: JSONObject, code: str) -> str:
    """A territory as every report sentence names it, beside the code the map shows: "Wales (WAL)"."""
    return named(places(state).get(code, {}).get("name"), code)


def place_names(state: JSONObject) -> dict[str, str]:
    """place_name of every territory, by code: the scenario's list read once, not once a territory
    (every check of a Clash turn file names them all: 164 µs a check that way, 36 this way)."""
    return {code: named(territory.get("name"), code) for code, territory in places(state).items()}


def nation(state: JSONObject, seat: str) -> str:
    """A seat as every report sentence names it, beside its code in the map's legend: "Britain (BR)"."""
    if seat == NEUTRAL:
        return "the neutral troops"
    return named(state["seats"].get(seat, {}).get("nation"), seat)


def holder(state: JSONObject, code: str) -> str | None:
    """Who controls a territory: the only one with troops there, nobody when it is empty (FAQ)."""
    territory = state["territories"][code]
    return territory["owner"] if territory["troops"] > 0 else None


def controlled(state: JSONObject, seat: str) -> list[str]:
    return sorted(code for code in state["territories"] if holder(state, code) == seat)


def troops_of(state: JSONObject, seat: str) -> int:
    return sum(t["troops"] for t in state["territories"].values() if t["owner"] == seat)


def core_of(state: JSONObject, seat: str) -> list[str]:
    return sorted(code for code, t in state["territories"].items() if t["core_of"] == seat)


def free_to_claim(state: JSONObject) -> list[str]:
    """Claimable territories nobody has claimed yet, in map order."""
    return [
        t["code"]
        for t in state["scenario"]["territories"]
        if t["claimable"] and state["territories"][t["code"]]["core_of"] is None
    ]


def order_of_play(state: JSONObject) -> list[str]:
    """Seats in seating order, starting with the starting player (rule D-ALL-4)."""
    seating: list[str] = state["seating"]
    first = seating.index(state["start"]) if state["start"] in seating else 0
    return seating[first:] + seating[:first]


def order_text(order: Order) -> str:
    return order.text or " ".join([order.verb, *(str(a) for a in order.args)])


def troops_words(n: int) -> str:
    return f"{n} troop" if n == 1 else f"{n} troops"


def event(kind: str, text: str, **data: object) -> Event:
    return Event(kind, {"text": text, **data})


def own_event(kind: str, seat: str, text: str, **data: object) -> Event:
    """An event its own seat alone reads (rule D-ALL-5)."""
    return Event(kind, {"text": text, "seat": seat, **data}, (seat,))


def settle(territory: JSONObject) -> None:
    # No units means nobody controls the territory (FAQ).
    if territory["troops"] == 0:
        territory["owner"] = None


def add_troops(state: JSONObject, seat: str, code: str, count: int) -> None:
    territory = state["territories"][code]
    territory["troops"] += count
    territory["owner"] = seat
