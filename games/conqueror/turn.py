"""What one resolution carries from stage to stage: the new state, the map, the events so far."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import cast

from gm.core.model import Event, JSONObject

from .board import NEUTRAL, Board, nation
from .orders import order_text


@dataclass
class Turn:
    """The working state of one resolve call (never the caller's state: a fresh copy).

    state: the copy being changed. board: its map. events: what happened, in order.
    arrived: province -> armies that moved in this turn (each army moves once a turn).
    attacked: provinces attacked this turn (a MOVE out of one fails).
    """

    state: JSONObject
    board: Board
    events: list[Event] = field(default_factory=list)
    arrived: dict[str, int] = field(default_factory=dict)
    attacked: set[str] = field(default_factory=set)

    @property
    def provinces(self) -> JSONObject:
        return cast(JSONObject, self.state["provinces"])

    @property
    def seats(self) -> JSONObject:
        return cast(JSONObject, self.state["seats"])

    def parties(self) -> list[str]:
        """Everyone who can hold influence, in a fixed order: the nations, then neutral."""
        return [*self.state["seating"], NEUTRAL]

    def free(self, code: str) -> int:
        """Armies in a province that may still move this turn."""
        province = self.provinces[code]
        return cast(int, max(province["armies"] - self.arrived.get(code, 0), 0))

    def add(self, kind: str, text: str, seats: tuple[str, ...] | None = None, **data: object) -> None:
        self.events.append(event(kind, text, seats, **data))

    def failed(self, seat: str, order: object, reason: str) -> None:
        """An order that cannot be carried out (rule D-ALL-3), told to its own seat alone: the
        others see only what happened on the board, nothing for a failed order (rule D-ALL-5; an
        internal move that fails would otherwise show the move the nation meant to make)."""
        text = order_text(order)
        self.add(
            "order_failed",
            f"{nation(self.state, seat)}'s order {text} fails: {reason}.",
            (seat,),
            seat=seat,
            order=text,
            reason=reason,
        )


def event(kind: str, text: str, seats: tuple[str, ...] | None = None, **data: object) -> Event:
    """An event whose data carries the report's sentence as "text"."""
    return Event(kind, {"text": text, **data}, seats)
