"""This turn's moves and attacks as arrows for a seat's maps, read from the events it may see.

An arrow is drawn only from an event the seat already reads in its report, so a move hidden
from a seat (Conqueror's internal moves, Empires' moves and battles of others) never reaches
its maps: the events a report gets are filtered by `Event.visible_to` before anything here
sees them. The convention every ruleset's events follow (docs/writing-a-ruleset.md, "Maps"):

- a move: kind "move", data "from" and "to" (or "path", every place on the way) and "seat";
- an attack: data "attacker", "from" and "to" (kind "battle", "combat", ...), "captured" if
  the attacker took the place.

The places are whatever the map names them by: a territory's code, a grid block's "x,y".
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from gm.core.model import JSONObject

# The numbers an event may give for the troops that went, in the order they are looked for. An
# attack's are its `attacking` first, the battle convention's troops of the attacking side: a
# battle's `armies` may be the defenders' (Empires' is), and its arrow once showed that number.
_MOVE_COUNT_KEYS = ("armies", "troops", "attacking")
_ATTACK_COUNT_KEYS = ("attacking", "troops", "armies")


@dataclass(frozen=True)
class Arrow:
    """One move or attack of this turn, as a seat's maps draw it.

    kind: "move" or "attack". seat: who moved (None if the event does not say).
    path: the places from the start to the end, at least two. count: troops that went, if known.
    taken: for an attack, whether the attacker took the place.
    """

    kind: str
    seat: str | None
    path: tuple[str, ...]
    count: int | None = None
    taken: bool = False

    def to_json(self) -> JSONObject:
        return {"kind": self.kind, "seat": self.seat, "path": list(self.path), "count": self.count, "taken": self.taken}


def arrows(events: Iterable[Mapping[str, Any]]) -> list[Arrow]:
    """The arrows of the events a seat may see ({"kind", "data"} each, as a report has them),
    in the order they happened; events that are not moves or attacks give none."""
    found = []
    for event in events:
        arrow = _arrow(str(event.get("kind", "")), event.get("data") or {})
        if arrow is not None:
            found.append(arrow)
    return found


def _arrow(kind: str, data: Mapping[str, Any]) -> Arrow | None:
    attacker = data.get("attacker")
    if attacker is None and kind != "move":
        return None
    path = _path(data)
    if path is None:
        return None
    seat = attacker if attacker is not None else data.get("seat")
    return Arrow(
        "move" if attacker is None else "attack",
        None if seat is None else str(seat),
        path,
        _count(data, _MOVE_COUNT_KEYS if attacker is None else _ATTACK_COUNT_KEYS),
        attacker is not None and data.get("captured") is True,
    )


def _path(data: Mapping[str, Any]) -> tuple[str, ...] | None:
    path = data.get("path")
    if isinstance(path, list) and len(path) >= 2 and all(isinstance(p, str) for p in path):
        return tuple(path)
    start, end = data.get("from"), data.get("to")
    if isinstance(start, str) and isinstance(end, str) and start != end:
        return (start, end)
    return None


def _count(data: Mapping[str, Any], keys: tuple[str, ...]) -> int | None:
    for key in keys:
        value = data.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return None
