"""The player's own check (gm orders check --report): what the seat's report settles alone.

The whole map is in the report: a code that is no province, and more moves than a turn takes,
fail here as in orders.check_orders, in its words; a nation that has lost every province gives no
orders. Owners, armies and gold are left to the GM (others' orders come first). A report file
may hold anything: what is not of its kind settles nothing.
"""

from __future__ import annotations

from gm.core.maps import view_places
from gm.core.model import JSONObject, Order, Problem

from .orders import MAX_MOVES, MOVE_VERBS, not_a_province, too_many_moves, well_formed


def check_by_view(view: JSONObject, seat: str, orders: list[Order]) -> list[Problem]:
    """The problems of check_orders that the view settles."""
    places, you = view_places(view), view.get("you")
    if places is None or view.get("phase") != "play" or not isinstance(you, dict):
        return []
    if you.get("alive") is False:
        return [Problem(o.line, "your nation has lost every province; it gives no more orders") for o in orders]
    problems = []
    moves = 0
    for order in (o for o in orders if well_formed(o)):
        moves += order.verb in MOVE_VERBS
        if order.verb in MOVE_VERBS and moves > MAX_MOVES:
            problems.append(Problem(order.line, too_many_moves(order.line)))
            continue
        # MOVE, ATTACK: from, to; PRODUCE: the province, then a diplomat's target; BUY: the province.
        codes = order.args[:2] if order.verb in MOVE_VERBS else order.args[:1] + order.args[2:]
        unknown = next((c for c in codes if isinstance(c, str) and c not in places), None)
        if unknown:
            problems.append(Problem(order.line, not_a_province(unknown)))
    return sorted(problems, key=lambda p: p.line)
