"""Set-up by mail: every seat's first village and road, then (in reverse order) its second
village (a town in Wonders & Warriors) and road, placed in one mail turn from wish lists, the way
Clash's claiming draft works. The second placement yields its starting resources."""

from __future__ import annotations

from random import Random

from gm.core.model import JSONObject, Order

from .board import Geometry
from .goods import YIELDS, take
from .places import building_at, fogged_tile, free_edges_from, road_problem, vertex_worth, village_problem
from .produce import reveal_fog
from .turn import Turn, voice


def order_of_play(state: JSONObject) -> list[str]:
    """Seats in seating order starting with the one whose turn comes first (rule D-ALL-4)."""
    seating: list[str] = state["seating"]
    first = seating.index(state["first"]) if state["first"] in seating else 0
    return seating[first:] + seating[:first]


def wish_list(orders: list[Order]) -> list[tuple[int, str | None]]:
    """The SETTLE lines of a seat's orders, best first: (vertex, edge or None)."""
    return [tuple(o.args) for o in orders if isinstance(o, Order) and o.verb == "SETTLE" and len(o.args) == 2]


def run_setup(turn: Turn) -> None:
    state = turn.state
    order = order_of_play(state)
    picks = order + order[::-1]
    turn.add(
        "setup_order",
        "Set-up: villages are placed in the order " + ", ".join(turn.name(s) for s in order) + ", then back again.",
        order=order,
    )
    for index, seat in enumerate(picks):
        second = index >= len(order)
        kind = "town" if second and turn.wonders_mode else "village"
        _place(turn, seat, kind, second, index + 1)
    state["phase"], state["round"] = "play", 1
    turn.add("phase", "Set-up is over. Round 1 begins.", phase="play")


def _place(turn: Turn, seat: str, kind: str, second: bool, pick: int) -> None:
    state, geo = turn.state, turn.geo
    v = voice(state, seat, you=False)
    listed = wish_list(turn.orders.get(seat, []))
    vertex: int | None
    for vertex, edge in listed:
        if village_problem(state, geo, seat, vertex, v, setup=True) is None:
            road = edge if edge and road_problem(state, geo, seat, edge, v, from_vertex=vertex) is None else None
            break
    else:
        vertex, road = best_free_vertex(state, geo, turn.rng("setup")), None
        # Why gm chose is the seat's alone (rule D-ALL-5): whether it sent a list, and that every
        # vertex on it was taken, is about orders that were not carried out.
        why = "nothing on your list was free" if listed else "you sent no list"
        turn.add("settle_default", f"Pick {pick}: {why}, so gm places for you.", (seat,), seat=seat, pick=pick)
        if vertex is None:
            turn.add(
                "settle",
                f"Pick {pick}: there is no free vertex left for {turn.name(seat)}.",
                seat=seat,
                vertex=None,
                edge=None,
                piece=kind,
                pick=pick,
            )
            return
    state["buildings"][str(vertex)] = {"owner": seat, "kind": kind, "fence": False, "wonder": None}
    road = road or default_road(state, geo, vertex)
    if road:
        state["roads"][road] = seat
    turn.add(
        "settle",
        f"Pick {pick}: {turn.name(seat)} places a {kind} at vertex {vertex} and a "
        f"road on {road or 'no edge (none is free)'}.",
        seat=seat,
        vertex=vertex,
        edge=road,
        piece=kind,
        pick=pick,
    )
    if road:
        reveal_fog(turn, road, seat)
    if second:
        _starting_resources(turn, seat, vertex)


def best_free_vertex(state: JSONObject, geo: Geometry, rng: Random) -> int | None:
    """The free vertex with the most production dots (ties broken by the seeded generator)."""
    free = [
        n
        for n in range(1, geo.vertex_count + 1)
        if building_at(state, n) is None
        and all(building_at(state, m) is None for m in geo.vertex_neighbours[n])
        and fogged_tile(state, geo, n) is None
    ]
    if not free:
        return None
    best = max(vertex_worth(state, geo, n) for n in free)
    return rng.choice([n for n in free if vertex_worth(state, geo, n) == best])


def default_road(state: JSONObject, geo: Geometry, vertex: int) -> str | None:
    """The free edge from a vertex towards the best neighbouring vertex (lowest name on a tie)."""
    edges = free_edges_from(state, geo, vertex)
    if not edges:
        return None

    def worth(edge: str) -> tuple[int, tuple[int, int]]:
        a, b = geo.edge_ends[edge]
        other = b if a == vertex else a
        return (-vertex_worth(state, geo, other), geo.edge_ends[edge])

    return min(edges, key=worth)


def _starting_resources(turn: Turn, seat: str, vertex: int) -> None:
    # The second placement yields one card of each resource tile it touches, as the
    # implementation deals them (the rule book does not say): none for gold or desert.
    state = turn.state
    got: dict[str, int] = {}
    for code in turn.geo.vertex_tiles[vertex]:
        tile = state["board"]["tiles"][code]
        good = YIELDS.get(tile["kind"])
        if tile["fog"] or good is None:
            continue
        if state["bank"][good] > 0:
            take(state, seat, good, 1)
            got[good] = got.get(good, 0) + 1
    if got:
        text = ", ".join(f"{n} {g}" for g, n in got.items())
        turn.add("starting_resources", f"{turn.name(seat)} takes its starting resources: {text}.", seat=seat, cards=got)
