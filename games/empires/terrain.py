"""Empires terrain: what growing costs and what defending gains on each kind of area."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Terrain:
    """One terrain type of the rulebook.

    grow: the extra BPs GROW costs on top of the current population (DECISIONS.md, GROW).
    defence: what the terrain adds to the defence of a land battle (rule D-EMP-5).
    land: False only for seas, which nobody owns and armies only cross.
    """

    name: str
    grow: int
    defence: int
    land: bool = True


TERRAINS = {
    t.name: t
    for t in (
        Terrain("mountains", 3, 2),
        Terrain("forests", 2, 1),
        Terrain("wetlands", 1, 1),
        Terrain("uplands", 1, 0),
        Terrain("jungle", 4, 1),
        Terrain("deserts", 5, 1),
        Terrain("tundra", 5, 1),
        Terrain("lowlands", 1, 0),
        Terrain("plains", 1, 0),
        Terrain("towns", 6, 2),
        Terrain("islands", 2, 0),
        Terrain("seas", 0, 0, land=False),
    )
}
