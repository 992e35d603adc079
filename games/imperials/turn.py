"""What one resolution carries from stage to stage: the new state, the island's geometry, the
seeded generators, the events so far; and the voice a legality message speaks in."""

from __future__ import annotations

from dataclasses import dataclass, field
from random import Random
from typing import cast

from gm.core.model import Event, JSONObject, Order
from gm.core.names import named
from gm.core.ruleset import TurnSeeds

from .board import Geometry, geometry
from .goods import Cards, cards_text, has, missing


def board_geometry(state: JSONObject) -> Geometry:
    return geometry(tuple(tuple(s) for s in state["board"]["slots"]))


def seat_name(state: JSONObject, seat: str) -> str:
    """How reports name a seat: its colour name beside its code in the map's legend ("Red (RE)")."""
    return named(state["seats"].get(seat, {}).get("colour_name"), seat)


@dataclass(frozen=True)
class Voice:
    """Who a legality message speaks to: the player who wrote the order ("you", at submission)
    or every reader of the report ("Red", at execution)."""

    you: bool
    name: str

    @property
    def subject(self) -> str:
        return "you" if self.you else self.name

    @property
    def owner(self) -> str:
        return "your" if self.you else f"{self.name}'s"

    @property
    def mine(self) -> str:
        return "yours" if self.you else f"{self.name}'s"

    @property
    def has(self) -> str:
        return "you have" if self.you else f"{self.name} has"

    @property
    def holds(self) -> str:
        return "you hold" if self.you else f"{self.name} holds"


def voice(state: JSONObject, seat: str, you: bool) -> Voice:
    return Voice(you, seat_name(state, seat))


def order_text(order: object) -> str:
    if isinstance(order, Order):
        return order.text or " ".join([order.verb, *(str(a) for a in order.args)])
    return "an unreadable order"


@dataclass
class Turn:
    """The working state of one resolve call (a fresh copy, never the caller's state).

    state: the copy being changed. geo: the island's geometry. seeds: the turn's seeds.
    events: what happened, in order. mover: the seat whose turn in the round is being played
    (None during set-up). orders: each seat's orders for this turn.
    """

    state: JSONObject
    geo: Geometry
    seeds: TurnSeeds
    events: list[Event] = field(default_factory=list)
    mover: str | None = None
    orders: dict[str, list[Order]] = field(default_factory=dict)
    rngs: dict[str, Random] = field(default_factory=dict)
    played: int = 0  # action cards the mover has played this turn
    accepts: dict[str, set[int]] = field(default_factory=dict)  # seat -> offer numbers its orders accept

    @property
    def seats(self) -> JSONObject:
        return cast(JSONObject, self.state["seats"])

    @property
    def wonders_mode(self) -> bool:
        return bool(self.state["mode"] == "wonders")

    def rng(self, purpose: str) -> Random:
        # One generator per purpose for the whole turn, so successive rolls continue one sequence.
        if purpose not in self.rngs:
            self.rngs[purpose] = self.seeds.rng(purpose)
        return self.rngs[purpose]

    def name(self, seat: str) -> str:
        return seat_name(self.state, seat)

    def add(self, kind: str, text: str, seats: tuple[str, ...] | None = None, /, **data: object) -> None:
        self.events.append(Event(kind, {"text": text, **data}, seats))

    def lacks(self, seat: str, cost: Cards) -> str | None:
        """None when a seat's hand can pay a cost, else what it lacks, for an event."""
        hand = self.state["seats"][seat]["hand"]
        if has(hand, cost):
            return None
        return f"{self.name(seat)} lacks {cards_text(missing(hand, cost))}"

    def failed(self, seat: str, order: object, reason: str) -> None:
        """An order that cannot be carried out now (rule D-ALL-3): it alone fails. Only its seat
        reads why (rule D-ALL-5): the reason may name what the hand lacks or holds, and the
        others see only what happened on the board, which for a failed order is nothing."""
        text = order_text(order)
        self.add(
            "order_failed",
            f"{self.name(seat)}'s order {text} fails: {reason}.",
            (seat,),
            seat=seat,
            order=text,
            reason=reason,
        )
