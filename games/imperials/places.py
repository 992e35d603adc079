"""Where things may stand: settlements, roads and warriors on the board, the rules for placing
them (the same checks answer a player at submission and explain a failed order in the report),
ports, and what a vertex is worth in production."""

from __future__ import annotations

from typing import cast

from gm.core.model import JSONObject
from gm.core.names import possessive

from .board import Geometry
from .goods import LIMITS, YIELDS
from .turn import Voice, seat_name

# How many of the 36 throws of two dice give each number: the dots on a number token.
PIPS = {2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1}


def building_at(state: JSONObject, vertex: int) -> JSONObject | None:
    return cast(JSONObject | None, state["buildings"].get(str(vertex)))


def owner_at(state: JSONObject, vertex: int) -> str | None:
    """The seat whose village or town stands on a vertex, if any."""
    building = building_at(state, vertex)
    return None if building is None else cast(str, building["owner"])


def warrior_at(state: JSONObject, vertex: int) -> JSONObject | None:
    return cast(JSONObject | None, state["warriors"].get(str(vertex)))


def road_owner(state: JSONObject, edge: str) -> str | None:
    return cast(str | None, state["roads"].get(edge))


def pieces_of(state: JSONObject, seat: str, kind: str) -> list[int]:
    """The vertices of a seat's villages or towns, in number order."""
    return sorted(int(v) for v, b in state["buildings"].items() if b["owner"] == seat and b["kind"] == kind)


def settlements_of(state: JSONObject, seat: str) -> list[int]:
    return sorted(int(v) for v, b in state["buildings"].items() if b["owner"] == seat)


def count(state: JSONObject, seat: str, kind: str) -> int:
    if kind == "road":
        return sum(1 for owner in state["roads"].values() if owner == seat)
    return sum(1 for b in state["buildings"].values() if b["owner"] == seat and b["kind"] == kind)


def blocked_for(state: JSONObject, seat: str, vertex: int) -> bool:
    """Whether another player's settlement stands on a vertex, so a route cannot pass it."""
    building = building_at(state, vertex)
    return building is not None and building["owner"] != seat


def reaches(state: JSONObject, geo: Geometry, seat: str, vertex: int) -> bool:
    """Whether a seat may build from a vertex: its own settlement there, or its own road ending
    there with no other player's settlement on the vertex."""
    building = building_at(state, vertex)
    if building is not None:
        return bool(building["owner"] == seat)
    return any(state["roads"].get(e) == seat for e in geo.vertex_edges[vertex])


# ----------------------------------------------------------------------------------------------
# Legality. Each returns None when the placement is allowed, else the reason in a Voice.


def vertex_problem(geo: Geometry, vertex: int) -> str | None:
    if not geo.is_vertex(vertex):
        return f"{vertex} is not a vertex of this island (they are numbered 1 to {geo.vertex_count})"
    return None


def edge_problem(geo: Geometry, edge: str) -> str | None:
    if edge not in geo.edge_ends:
        return f"{edge} is not an edge of this island: name an edge by the two vertices at its ends"
    return None


def road_problem(
    state: JSONObject, geo: Geometry, seat: str, edge: str, v: Voice, from_vertex: int | None = None
) -> str | None:
    """Why a seat cannot build a road on an edge now (cost aside). from_vertex: in set-up the
    road must start at the village just placed."""
    problem = edge_problem(geo, edge)
    if problem:
        return problem
    owner = road_owner(state, edge)
    if owner is not None:
        return f"edge {edge} already has {_whose(state, owner, v)} road"
    if count(state, seat, "road") >= LIMITS["road"]:
        return f"{v.has} {LIMITS['road']} roads on the board, the most a player may have"
    ends = geo.edge_ends[edge]
    if from_vertex is not None:
        if from_vertex not in ends:
            return f"the road must touch the village just placed at vertex {from_vertex}"
        return None
    if not any(reaches(state, geo, seat, end) for end in ends):
        return f"edge {edge} does not connect to {v.owner} roads or settlements" + _passing(state, geo, seat, ends)
    return None


def _passing(state: JSONObject, geo: Geometry, seat: str, ends: tuple[int, int]) -> str:
    for end in ends:
        if blocked_for(state, seat, end) and any(state["roads"].get(e) == seat for e in geo.vertex_edges[end]):
            return f" (another player's settlement at vertex {end} interrupts the route)"
    return ""


def _whose(state: JSONObject, owner: str, v: Voice | None = None) -> str:
    if v is not None and v.you and seat_name(state, owner) == v.name:
        return "your"
    return possessive(seat_name(state, owner)) if owner in state["seats"] else "a"


def village_problem(
    state: JSONObject, geo: Geometry, seat: str, vertex: int, v: Voice, setup: bool = False
) -> str | None:
    """Why a seat cannot build a village on a vertex now (cost aside)."""
    problem = vertex_problem(geo, vertex)
    if problem:
        return problem
    building = building_at(state, vertex)
    if building is not None:
        return f"vertex {vertex} already has {_whose(state, building['owner'], v)} {building['kind']}"
    if warrior_at(state, vertex) is not None:
        return f"a warrior stands on vertex {vertex}"
    near = [n for n in geo.vertex_neighbours[vertex] if building_at(state, n) is not None]
    if near:
        other = state["buildings"][str(near[0])]
        return (
            f"vertex {vertex} is next to {_whose(state, other['owner'], v)} {other['kind']} at "
            f"vertex {near[0]}; a village needs a free vertex all round"
        )
    fog = fogged_tile(state, geo, vertex)
    if fog:
        # The implementation places no settlement beside fog (the book is silent).
        return f"vertex {vertex} is at a corner of tile {fog}, which is under fog"
    if not setup:
        if count(state, seat, "village") >= LIMITS["village"]:
            return f"{v.has} {LIMITS['village']} villages on the board, the most a player may have"
        if not any(state["roads"].get(e) == seat for e in geo.vertex_edges[vertex]):
            return f"vertex {vertex} is not at the end of one of {v.owner} roads"
    return None


def fogged_tile(state: JSONObject, geo: Geometry, vertex: int) -> str | None:
    """A tile under fog that a vertex touches, if any."""
    return next((c for c in geo.vertex_tiles[vertex] if state["board"]["tiles"][c]["fog"]), None)


def town_problem(state: JSONObject, geo: Geometry, seat: str, vertex: int, v: Voice) -> str | None:
    """Why a seat cannot make a town of a village now (cost aside; rule D-IM-3)."""
    problem = vertex_problem(geo, vertex)
    if problem:
        return problem
    building = building_at(state, vertex)
    if building is None or building["owner"] != seat:
        return f"vertex {vertex} has no village of {v.mine}"
    if building["kind"] != "village":
        return f"vertex {vertex} is a town already"
    if count(state, seat, "town") >= LIMITS["town"]:
        return f"{v.has} {LIMITS['town']} towns on the board, the most a player may have"
    return None


# ----------------------------------------------------------------------------------------------
# Ports and production.


def ports_of(state: JSONObject, geo: Geometry, seat: str) -> set[str]:
    """The port kinds ('3:1', 'wood', ...) a seat's settlements stand at."""
    mine = set(settlements_of(state, seat))
    return {p["kind"] for p in state["board"]["ports"] if set(geo.edge_ends[p["edge"]]) & mine}


def vertex_worth(state: JSONObject, geo: Geometry, vertex: int) -> int:
    """The production dots of the tiles a vertex touches that can be seen (fog counts 0)."""
    total = 0
    for code in geo.vertex_tiles[vertex]:
        tile = state["board"]["tiles"][code]
        if not tile["fog"] and tile["number"]:
            total += PIPS[tile["number"]]
    return total


def yields_at(state: JSONObject, geo: Geometry, vertex: int) -> list[str]:
    """The resources of the visible tiles a vertex touches (gold as 'gold')."""
    out = []
    for code in geo.vertex_tiles[vertex]:
        tile = state["board"]["tiles"][code]
        if not tile["fog"] and tile["number"]:
            out.append(YIELDS.get(tile["kind"], tile["kind"]))
    return out


def free_edges_from(state: JSONObject, geo: Geometry, vertex: int) -> list[str]:
    return [e for e in geo.vertex_edges[vertex] if e not in state["roads"]]
