"""What a seat sees of others, listed place by place as Eressea and Atlantis reports do.

A view gives it under view["known"], built with `listing`; the shared template known.html lays it
out as text in aligned columns under a heading for each holder, as Atlantis' text reports do (a
table of a few hundred cells more than doubled an Empires report's render time; lines of text
cost WeasyPrint next to nothing), so every ruleset's report reads the same and a new ruleset
gets the listing by filling the data. Only what the view may show goes in:
the view is the report's one input (docs/writing-a-ruleset.md, "What a seat may not see").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from gm.core.model import JSONObject

NOBODY = ""  # the holder of a place nobody holds (an empty territory, free land)


@dataclass(frozen=True)
class Column:
    """One fact the listing gives of every place, after the place's own column.

    label: the column's heading ("Armies"). numeric: aligned to the right, as digits are.
    """

    label: str
    numeric: bool = False

    def to_json(self) -> JSONObject:
        return {"label": self.label, "numeric": self.numeric}


@dataclass(frozen=True)
class Sighting:
    """One place the seat sees and does not hold.

    code: as the map labels it (NAP, vertex 19, BR2); name: its name, "" if the code is all it
    has; holder: the seat holding it, or one of the listing's other holders ("neutral"), or
    NOBODY; note: a few words after the name ("capital"); cells: one value per Column, None or
    "" where nothing is known (the listing prints "–").
    """

    code: str
    name: str
    holder: str
    cells: tuple[object, ...]
    note: str = ""

    def to_json(self) -> JSONObject:
        place = " ".join(part for part in (self.code, self.name, self.note and f"({self.note})") if part)
        return {
            "code": self.code,
            "name": self.name,
            "note": self.note,
            "place": place,
            "cells": [shown(c) for c in self.cells],
        }


def listing(
    title: str,
    place: str,
    nouns: tuple[str, str],
    columns: Sequence[Column],
    sightings: Iterable[Sighting],
    seating: Sequence[str],
    others: Mapping[str, str],
    intro: str = "",
    everyone: bool = False,
) -> JSONObject:
    """view["known"]: the sightings grouped by holder, seats in seating order first, then the
    others in the order given (others: holder -> how the report names it, "local leaders",
    with NOBODY for places nobody holds); each group's places in the order they came.

    title: the section's heading; place: the first column's heading ("Province"); nouns: a place
    and places, to count each group ("1 province", "9 provinces"); intro: one sentence on what
    the seat can and cannot see, "" for none; everyone: the sightings are the whole board, the
    seat's own places too, and nothing in them depends on who reads it (an open map, as
    Empires'), so every seat's report shows the same listing and lays it out once a turn
    (gm.render.turnpages); else the listing is of the others' places only.
    """
    by_holder: dict[str, list[JSONObject]] = {}
    for sighting in sightings:
        if len(sighting.cells) != len(columns):
            raise ValueError(f"{sighting.code}: {len(sighting.cells)} facts for {len(columns)} columns")
        by_holder.setdefault(sighting.holder, []).append(sighting.to_json())
    order = [s for s in seating if s in by_holder] + [h for h in others if h in by_holder]
    unknown = set(by_holder) - set(order)
    if unknown:
        raise ValueError(f"holders neither seated nor named: {sorted(unknown)}")
    rows = [row for holder in order for row in by_holder[holder]]
    return {
        "title": title,
        "intro": intro,
        "everyone": everyone,
        "place": place,
        "columns": [c.to_json() for c in columns],
        "widths": _widths(place, columns, rows),
        "groups": [
            {
                "holder": h,
                "label": others.get(h, ""),
                "places": by_holder[h],
                "count": f"{len(by_holder[h])} {nouns[len(by_holder[h]) != 1]}",
            }
            for h in order
        ],
        "count": sum(len(rows) for rows in by_holder.values()),
    }


def shown(value: object) -> str:
    """A fact as the listing prints it: "–" for nothing known."""
    return "–" if value is None or value == "" else str(value)


def _widths(place: str, columns: Sequence[Column], rows: list[JSONObject]) -> list[int]:
    """Characters of each column, the place's first: its widest entry or its heading. The last
    column is never padded, so a long entry there only makes its own line longer."""
    widths = [max([len(place)] + [len(row["place"]) for row in rows])]
    for i, column in enumerate(columns):
        widths.append(max([len(column.label)] + [len(row["cells"][i]) for row in rows]))
    return widths
