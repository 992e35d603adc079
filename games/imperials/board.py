"""The island's geometry: tiles, the vertices and edges between them, and how a player names them.

Tiles sit on a pointy-top hex grid in doubled coordinates: a slot (c, r) is column c (two columns
to a hex) and row r. Corners live on a finer lattice, (c + dx, 3r + dy), so every corner shared by
up to three tiles has one exact integer key. Vertices are numbered 1..N in reading order (top to
bottom, left to right); an edge is named by its two vertices, lower first: "12-13". Tiles are
lettered A, B, ... in reading order. Everything here depends on the slots only, so it is computed
once per layout and cached.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from string import ascii_uppercase

EDGE = re.compile(r"([0-9]{1,4})-([0-9]{1,4})")  # ASCII digits only, short enough for int()

# The six corners of a hex, clockwise from the upper right, as lattice offsets from its centre.
CORNERS = ((1, -1), (1, 1), (0, 2), (-1, 1), (-1, -1), (0, -2))
# The six neighbouring slots of a hex in doubled coordinates.
NEIGHBOURS = ((2, 0), (1, 1), (-1, 1), (-2, 0), (-1, -1), (1, -1))


def tile_code(index: int) -> str:
    """A, B, ..., Z, then AA, AB, ...: the letters a player writes for a tile."""
    if index < 26:
        return ascii_uppercase[index]
    return ascii_uppercase[index // 26 - 1] + ascii_uppercase[index % 26]


def edge_name(a: int, b: int) -> str:
    return f"{min(a, b)}-{max(a, b)}"


# A point of the layout's lattice, or a tile slot: (column, row).
Point = tuple[int, int]


@dataclass(frozen=True)
class Geometry:
    """Everything about a layout that never changes during a game.

    slots: the tile slots (c, r) in reading order; tiles: their letters, in the same order.
    corner: lattice point -> vertex number. points: vertex number -> lattice point (index 0 unused).
    vertex_tiles: vertex -> letters of the tiles it touches. vertex_edges: vertex -> edge names.
    vertex_neighbours: vertex -> vertices one edge away. tile_vertices: letter -> its six
    vertices clockwise from the upper right. tile_edges: letter -> its six edge names.
    edge_ends: edge name -> (a, b). edge_tiles: edge name -> letters of the tiles it borders.
    tile_neighbours: letter -> letters of the adjacent tiles. coast: the edges on the sea, in
    order around the island.
    """

    slots: tuple[Point, ...]
    tiles: tuple[str, ...]
    corner: dict[Point, int]
    points: tuple[Point | None, ...]
    vertex_tiles: dict[int, tuple[str, ...]]
    vertex_edges: dict[int, tuple[str, ...]]
    vertex_neighbours: dict[int, tuple[int, ...]]
    tile_vertices: dict[str, tuple[int, ...]]
    tile_edges: dict[str, tuple[str, ...]]
    edge_ends: dict[str, tuple[int, int]]
    edge_tiles: dict[str, tuple[str, ...]]
    tile_neighbours: dict[str, tuple[str, ...]]
    coast: tuple[str, ...]

    @property
    def vertex_count(self) -> int:
        return len(self.points) - 1

    def is_vertex(self, number: object) -> bool:
        return isinstance(number, int) and not isinstance(number, bool) and 1 <= number < len(self.points)


@lru_cache(maxsize=32)
def geometry(slots: tuple[Point, ...]) -> Geometry:
    """The geometry of a layout given as a tuple of (c, r) slots in reading order."""
    lattice = {(c + dx, 3 * r + dy) for c, r in slots for dx, dy in CORNERS}
    ordered = sorted(lattice, key=lambda p: (p[1], p[0]))
    corner = {p: i + 1 for i, p in enumerate(ordered)}
    tiles = tuple(tile_code(i) for i in range(len(slots)))
    tile_vertices: dict[str, tuple[int, ...]] = {}
    tile_edges: dict[str, tuple[str, ...]] = {}
    vertex_tiles: dict[int, list[str]] = {n: [] for n in corner.values()}
    edge_tiles: dict[str, list[str]] = {}
    edge_ends: dict[str, tuple[int, int]] = {}
    for code, (c, r) in zip(tiles, slots):
        ring = [corner[(c + dx, 3 * r + dy)] for dx, dy in CORNERS]
        tile_vertices[code] = tuple(ring)
        names = []
        for k in range(6):
            a, b = ring[k], ring[(k + 1) % 6]
            name = edge_name(a, b)
            names.append(name)
            edge_ends[name] = (min(a, b), max(a, b))
            edge_tiles.setdefault(name, []).append(code)
        tile_edges[code] = tuple(names)
        for n in ring:
            vertex_tiles[n].append(code)
    vertex_edges: dict[int, list[str]] = {n: [] for n in corner.values()}
    vertex_neighbours: dict[int, list[int]] = {n: [] for n in corner.values()}
    for name in sorted(edge_ends, key=lambda e: edge_ends[e]):
        a, b = edge_ends[name]
        vertex_edges[a].append(name)
        vertex_edges[b].append(name)
        vertex_neighbours[a].append(b)
        vertex_neighbours[b].append(a)
    at = {slot: code for code, slot in zip(tiles, slots)}
    tile_neighbours = {
        code: tuple(at[(c + dc, r + dr)] for dc, dr in NEIGHBOURS if (c + dc, r + dr) in at)
        for code, (c, r) in zip(tiles, slots)
    }
    return Geometry(
        slots=slots,
        tiles=tiles,
        corner=corner,
        points=(None, *ordered),
        vertex_tiles={n: tuple(v) for n, v in vertex_tiles.items()},
        vertex_edges={n: tuple(v) for n, v in vertex_edges.items()},
        vertex_neighbours={n: tuple(sorted(v)) for n, v in vertex_neighbours.items()},
        tile_vertices=tile_vertices,
        tile_edges=tile_edges,
        edge_ends=edge_ends,
        edge_tiles={e: tuple(t) for e, t in edge_tiles.items()},
        tile_neighbours=tile_neighbours,
        coast=_coast(edge_ends, edge_tiles),
    )


def _coast(edge_ends: dict[str, tuple[int, int]], edge_tiles: dict[str, list[str]]) -> tuple[str, ...]:
    """The sea edges (those of one tile only) in order around the island, starting from the
    edge at the first vertex in reading order, going clockwise on the map."""
    outer = [e for e, t in edge_tiles.items() if len(t) == 1]
    if not outer:
        return ()
    at_vertex: dict[int, list[str]] = {}
    for e in outer:
        for v in edge_ends[e]:
            at_vertex.setdefault(v, []).append(e)
    start_vertex = min(at_vertex)
    # Clockwise on the map from the top vertex: its edge towards the higher-numbered neighbour
    # first (vertex numbers grow to the right along a row).
    first = max(at_vertex[start_vertex], key=lambda e: sum(edge_ends[e]))
    order, seen, vertex, edge = [], set(), start_vertex, first
    while edge not in seen:
        order.append(edge)
        seen.add(edge)
        a, b = edge_ends[edge]
        vertex = b if a == vertex else a
        nxt = [e for e in at_vertex.get(vertex, []) if e != edge]
        if not nxt:
            break
        edge = nxt[0]
    return tuple(order)


def parse_edge(text: str) -> tuple[int, int] | None:
    """'12-13' (or '13-12') -> (12, 13); None when it is not two vertex numbers."""
    match = EDGE.fullmatch(text)
    if not match:
        return None
    a, b = int(match[1]), int(match[2])
    return (min(a, b), max(a, b))
