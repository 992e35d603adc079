"""The player's own check (gm orders check --report): what the seat's report settles alone.

The whole map is public and in the report, with the phase: an order of the wrong phase, a second
action in a round and a code that is no territory fail here as in orders.check_orders, in its
words and in its order of checks. Who holds what and the money are left to the GM (others'
orders come first). A report file may hold anything: what is not of its kind settles nothing.
"""

from __future__ import annotations

from gm.core.maps import view_places
from gm.core.model import JSONObject, Order, Problem

from .orders import PLAY_VERBS, SHAPES, WRONG_PHASE, not_a_territory, well_formed

TAKEN = {"claim": ("CLAIM",), "place": ("PLACE",), "play": PLAY_VERBS}  # the orders each phase takes


def check_by_view(view: JSONObject, seat: str, orders: list[Order]) -> list[Problem]:
    """The problems of check_orders that the view settles."""
    places, phase = view_places(view), view.get("phase")
    if places is None or not isinstance(phase, str) or phase not in WRONG_PHASE:
        return []
    problems = []
    first = None
    for order in orders:
        if order.verb not in TAKEN[phase]:
            problems.append(Problem(order.line, f"{order.verb} {WRONG_PHASE[phase]}"))
        elif phase == "claim":
            problems += [Problem(order.line, not_a_territory(code)) for code in order.args if code not in places]
        elif phase == "place":
            if well_formed(order) and order.args[0] not in places:
                problems.append(Problem(order.line, not_a_territory(order.args[0])))
        elif first is not None:
            problems.append(Problem(order.line, f"only one action per round: line {order.line} is a second one"))
        else:
            first = order
    if first is not None and well_formed(first):
        codes = [a for kind, a in zip(SHAPES[first.verb], first.args, strict=True) if kind == "code"]
        unknown = next((code for code in codes if code not in places), None)
        if unknown:
            problems.append(Problem(first.line, not_a_territory(unknown)))
    return sorted(problems, key=lambda p: p.line)
