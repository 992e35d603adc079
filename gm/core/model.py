"""The values the core passes around: problems, orders, events, turn results, outcomes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# A JSON object: what a game state, a scenario, a seat's view and an event's facts are. Its shape
# belongs to the ruleset that made it (docs/writing-a-ruleset.md), so the core, which stores,
# hashes and passes it on, types it no further; a ruleset reads its own fields.
JSONObject = dict[str, Any]
# An order's arguments as its ruleset's parser normalised them (words, numbers, places); only that
# ruleset reads them, so the core leaves their types to it.
OrderArgs = tuple[Any, ...]


@dataclass(frozen=True)
class Problem:
    """Something wrong with a turn file or one of its orders.

    line: 1-based line number in the submitted file (0 when the problem is the whole file).
    message: one sentence a player understands, saying what is wrong and, where it helps, what to do.
    """

    line: int
    message: str

    def to_json(self) -> JSONObject:
        return {"line": self.line, "message": self.message}

    @classmethod
    def from_json(cls, data: JSONObject) -> Problem:
        return cls(int(data["line"]), str(data["message"]))


@dataclass(frozen=True)
class Order:
    """One parsed order line.

    verb: the order's keyword, upper case (for example MOVE).
    args: its arguments as strings or ints, already normalised by the ruleset's parser.
    line: the line number in the turn file it came from (0 for robot or default orders).
    text: the line as the player wrote it (stripped), for acknowledgements and reports.
    """

    verb: str
    args: OrderArgs = ()
    line: int = 0
    text: str = ""

    def to_json(self) -> JSONObject:
        return {"verb": self.verb, "args": list(self.args), "line": self.line, "text": self.text}

    @classmethod
    def from_json(cls, data: JSONObject) -> Order:
        return cls(data["verb"], tuple(data.get("args", ())), int(data.get("line", 0)), data.get("text", ""))


@dataclass(frozen=True)
class Event:
    """Something that happened during resolution, as a report shows it.

    kind: a short name (roll, move, battle, recruit, ...).
    data: JSON-able facts of the event (dice included).
    seats: the seat codes that may see it; None means every seat may.
    """

    kind: str
    data: JSONObject = field(default_factory=dict)
    seats: tuple[str, ...] | None = None

    def visible_to(self, seat: str) -> bool:
        return self.seats is None or seat in self.seats

    def to_json(self) -> JSONObject:
        out: dict[str, Any] = {"kind": self.kind, "data": self.data}
        if self.seats is not None:
            out["seats"] = list(self.seats)
        return out

    @classmethod
    def from_json(cls, data: JSONObject) -> Event:
        seats = data.get("seats")
        return cls(data["kind"], dict(data.get("data", {})), tuple(seats) if seats is not None else None)


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.

    winners: seat codes sharing the win (several on a tie).
    reason: one line for reports, for example "most victory points after round 30".
    scores: final score per seat.
    """

    winners: tuple[str, ...]
    reason: str
    scores: dict[str, int]

    def to_json(self) -> JSONObject:
        return {"winners": list(self.winners), "reason": self.reason, "scores": dict(self.scores)}

    @classmethod
    def from_json(cls, data: JSONObject) -> Outcome:
        return cls(tuple(data["winners"]), data["reason"], dict(data["scores"]))


@dataclass(frozen=True)
class TurnResult:
    """What resolve returns: the new state (a fresh object) and the events, in order."""

    state: JSONObject
    events: tuple[Event, ...]


@dataclass(frozen=True)
class SeatInfo:
    """A seat as a ruleset sees it at game creation: its code and the player's display name."""

    code: str
    name: str
