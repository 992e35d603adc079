"""Victory points: the longest trade route (rule D-IM-7), the strongest army, and each seat's
points, with the hidden ones (victory point cards in the hand) counted only where allowed."""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from gm.core.model import JSONObject

from .board import Geometry
from .places import blocked_for, pieces_of
from .turn import Turn

ROUTE_MIN = 5
ARMY_MIN = 3
AWARD_VP = 2


def route_length(state: JSONObject, geo: Geometry, seat: str) -> int:
    """The longest run of a seat's roads with no edge used twice, not passing through another
    player's settlement (it may end there)."""
    mine = [e for e, owner in state["roads"].items() if owner == seat]
    if not mine:
        return 0
    own = set(mine)
    starts = sorted({v for e in mine for v in geo.edge_ends[e]})
    return max(_walk(state, geo, seat, v, own, set()) for v in starts)


# How an award's change is reported: (old holder, new holder, route lengths per seat), and
# (old holder, new holder, Warrior cards the new one has played).
RouteNote = Callable[[str | None, str | None, dict[str, int]], None]
ArmyNote = Callable[[str | None, str, int], None]


def _walk(state: JSONObject, geo: Geometry, seat: str, vertex: int, own: set[str], used: set[str]) -> int:
    best = 0
    for edge in geo.vertex_edges[vertex]:
        if edge in own and edge not in used:
            a, b = geo.edge_ends[edge]
            other = b if a == vertex else a
            used.add(edge)
            further = 0 if blocked_for(state, seat, other) else _walk(state, geo, seat, other, own, used)
            used.discard(edge)
            best = max(best, 1 + further)
    return best


def update_longest(state: JSONObject, geo: Geometry, note: RouteNote) -> None:
    """Give or take the longest trade route after anything that can change a route. note(text,
    seat, length) reports a change. The holder keeps it on a tie and loses it below 5; another
    player takes it only by being strictly longer (rule D-IM-7). Of several longest at 5 or more
    the earliest in seating order takes it, as the implementation walks its players in their
    fixed order (hemildesai/imperial, game/state.go, SetExtraVictoryPoints)."""
    lengths = {seat: route_length(state, geo, seat) for seat in state["seating"]}
    award = state["longest"]
    holder = award["seat"]
    best = max(lengths.values(), default=0)
    if holder is not None and lengths[holder] >= ROUTE_MIN and lengths[holder] >= best:
        award["length"] = lengths[holder]
        return
    leaders = [s for s in state["seating"] if lengths[s] == best]
    new = leaders[0] if best >= ROUTE_MIN else None
    if new == holder:
        return
    award.update(seat=new, length=lengths[new] if new else 0)
    note(holder, new, lengths)


def longest(turn: Turn) -> None:
    def note(old: str | None, new: str | None, lengths: dict[str, int]) -> None:
        if new is None:
            turn.add(
                "longest_route",
                f"{turn.name(cast(str, old))} loses the longest trade route: nobody else has 5 or more roads in a row.",
                seat=None,
                lost=old,
            )
        else:
            turn.add(
                "longest_route",
                f"{turn.name(new)} now holds the longest trade route ({lengths[new]} roads): 2 victory points.",
                seat=new,
                lost=old,
                length=lengths[new],
            )

    update_longest(turn.state, turn.geo, note)


def update_army(state: JSONObject, seat: str, note: ArmyNote) -> None:
    """Basic: the strongest army goes to a player who has played 3 or more Warrior cards and
    more than its holder."""
    played = state["seats"][seat]["warriors_played"]
    award = state["army"]
    holder = award["seat"]
    if holder == seat or played < ARMY_MIN:
        if holder == seat:
            award["count"] = played
        return
    if holder is None or played > award["count"]:
        award.update(seat=seat, count=played)
        note(holder, seat, played)


def points(state: JSONObject, seat: str, hidden: bool) -> int:
    """A seat's victory points; hidden=True adds the victory point cards still in its hand."""
    me = state["seats"][seat]
    total: int = len(pieces_of(state, seat, "village")) + 2 * len(pieces_of(state, seat, "town"))
    total += AWARD_VP * (state["longest"]["seat"] == seat) + AWARD_VP * (state["army"]["seat"] == seat)
    total += me["shown_points"] + me["dragonslayer"] + merchant_point(state, seat)
    total += AWARD_VP * sum(1 for w in state["wonders"].values() if w and w["seat"] == seat)
    if hidden:
        total += sum(1 for card in me["cards"] if card["card"] == "point")
    return total


def merchant_point(state: JSONObject, seat: str) -> int:
    """The merchant's victory point, while the Merchant card's piece is the seat's (rule D-IM-10)."""
    merchant = state.get("merchant")
    return 1 if merchant and merchant["seat"] == seat else 0


def points_table(state: JSONObject, seat: str, hidden: bool) -> JSONObject:
    """Where a seat's points come from, for the report's VP table."""
    me = state["seats"][seat]
    return {
        "villages": len(pieces_of(state, seat, "village")),
        "towns": 2 * len(pieces_of(state, seat, "town")),
        "route": AWARD_VP * (state["longest"]["seat"] == seat),
        "army": AWARD_VP * (state["army"]["seat"] == seat),
        "wonders": AWARD_VP * sum(1 for w in state["wonders"].values() if w and w["seat"] == seat),
        "dragonslayer": me["dragonslayer"],
        "merchant": merchant_point(state, seat),
        "cards": me["shown_points"] + (sum(1 for c in me["cards"] if c["card"] == "point") if hidden else 0),
        "total": points(state, seat, hidden),
    }
