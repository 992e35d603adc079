"""Reading an Empires state: the map as an index, who owns what, names for report sentences."""

from __future__ import annotations

from dataclasses import dataclass

from gm.core.model import JSONObject
from gm.core.names import named, possessive

from .terrain import TERRAINS, Terrain

NEUTRAL = "neutral"


@dataclass(frozen=True)
class Board:
    """The scenario's map, indexed once per turn (the scenario never changes during a game).

    places: area code -> the scenario's area (name, terrain, x, y, neighbours, land, reach).
    reach: land area -> the land areas its armies can move to or attack (next door or across
        one sea).
    land: the codes of land areas, in map order.
    """

    places: dict[str, JSONObject]
    reach: dict[str, frozenset[str]]
    land: tuple[str, ...]

    @classmethod
    def of(cls, state: JSONObject) -> Board:
        areas = state["scenario"]["areas"]
        return cls(
            {a["code"]: a for a in areas},
            {a["code"]: frozenset(a["reach"]) for a in areas},
            tuple(a["code"] for a in areas if a["land"]),
        )

    def name(self, code: str) -> str:
        return self.places[code]["name"] if code in self.places else code

    def label(self, code: str) -> str:
        """An area as a report sentence names it, beside the code the map shows: "Paris (PAR)"."""
        return named(self.places[code]["name"] if code in self.places else None, code)

    def terrain(self, code: str) -> Terrain:
        return TERRAINS[self.places[code]["terrain"]]

    def is_land(self, code: str) -> bool:
        return code in self.places and self.places[code]["land"]


def nation(state: JSONObject, seat: str | None) -> str:
    """The country for report sentences, beside its code in the map's legend ("France (FR)");
    neutrals and nobody have words too."""
    if seat == NEUTRAL or seat is None:
        return "the neutrals"
    return named(state["countries"].get(seat, {}).get("nation"), seat)


def nations(state: JSONObject, seat: str | None) -> str:
    """The possessive: "France (FR)'s", "the neutrals'"."""
    return possessive(nation(state, seat))


def owned(state: JSONObject, seat: str) -> list[str]:
    """The land areas a country owns, in code order."""
    return sorted(code for code, area in state["areas"].items() if area["owner"] == seat)


def alive(state: JSONObject) -> list[str]:
    """Countries still in the game, in seating order."""
    out = state["victory"]["eliminated"]
    return [seat for seat in state["seating"] if seat not in out]


def income(state: JSONObject, seat: str) -> int:
    """Rule D-EMP-2: 1 BP per population point in owned land areas."""
    return sum(a["population"] for a in state["areas"].values() if a["owner"] == seat)


def supply(state: JSONObject, seat: str) -> int:
    """Rule D-EMP-3: each owned land area costs max(0, armies - population)."""
    return sum(max(0, a["armies"] - a["population"]) for a in state["areas"].values() if a["owner"] == seat)


def armies_on_map(state: JSONObject, seat: str) -> int:
    return sum(a["armies"] for a in state["areas"].values() if a["owner"] == seat)


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s" if not word.endswith("y") else f"{n} {word[:-1]}ies"
