"""The player's own check (gm orders check --report): what the country's report settles alone.

The whole map is in the report, seas marked as seas: an area that is not on the map, or a sea
where armies must stand, fails here as in orders.check_orders, in its words and first, as
there; an eliminated country gives no orders. Owners, armies and the other countries' actions
are left to the GM. A report file may hold anything: what is not of its kind settles nothing.
"""

from __future__ import annotations

from gm.core.maps import view_places
from gm.core.model import JSONObject, Order, Problem

from .orders import area_problem, well_formed
from .view import SEA_OWNER


def check_by_view(view: JSONObject, seat: str, orders: list[Order]) -> list[Problem]:
    """The problems of check_orders that the view settles."""
    places, you = view_places(view), view.get("you")
    if places is None or view.get("phase") != "play" or not isinstance(you, dict):
        return []
    if you.get("eliminated"):
        return [Problem(o.line, "your country has been eliminated; no orders are needed") for o in orders]
    problems = []
    for order in (o for o in orders if well_formed(o)):
        problem = area_problem(order, places.__contains__, lambda code: places[code].get("owner") != SEA_OWNER)
        if problem:
            problems.append(Problem(order.line, problem))
    return problems
