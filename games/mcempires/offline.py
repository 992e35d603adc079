"""The player's own check (gm orders check --report): what the empire's report settles alone.

The report shows the world's size and the empire's own groups, so a block off the map and a
group that is not the empire's fail here as in the GM's dry run (orders.check_orders), in its
words and in its order of checks. Cities the report may not show, money and paths are left to
the GM. A report file may hold anything: what is not of its kind settles nothing.
"""

from __future__ import annotations

from gm.core.model import JSONObject, Order, Problem

from .actions import off_world
from .grammar import BLOCK, well_formed


def check_by_view(view: JSONObject, seat: str, orders: list[Order]) -> list[Problem]:
    """One problem per order that the view settles: the first the GM's check would give."""
    world, you = view.get("world"), view.get("you")
    if not isinstance(world, dict) or not isinstance(you, dict):
        return []
    width, height = world.get("width"), world.get("height")
    if type(width) is not int or type(height) is not int:
        return []
    if you.get("alive") is False:
        return [Problem(o.line, "your empire is out of the game and gives no more orders") for o in orders]
    listed = you.get("groups")
    groups: set[object] = {
        g.get("id")
        for g in (listed if isinstance(listed, list) else [])
        if isinstance(g, dict) and isinstance(g.get("id"), str)
    }
    # CAPITAL founds the capital and its first group at the start of the turn: a group named
    # after it may be that one, which the report cannot show.
    mine = None if any(o.verb == "CAPITAL" for o in orders if well_formed(o)) else groups
    found = []
    for order in orders:
        if well_formed(order):
            problem = _problem(order, width, height, mine)
            if problem:
                found.append(Problem(order.line, problem))
    return found


def _problem(order: Order, width: int, height: int, groups: set[object] | None) -> str | None:
    """What the dry run would say first of this order, as far as the view can tell."""
    verb, args = order.verb, order.args

    def off(text: object) -> bool:
        if not isinstance(text, str) or not BLOCK.fullmatch(text):
            return False
        x, y = (int(v) for v in text.split(","))
        return not (0 <= x < width and 0 <= y < height)

    def stranger(gid: object) -> str | None:
        return f"{gid} is not one of your groups" if groups is not None and gid not in groups else None

    if verb in ("CITY", "LAND"):
        return next((off_world(a, width, height) for a in args if off(a)), None)
    if verb == "RAIL":
        bad_end = next((f"there is no city {a}" for a in args[:2] if off(a)), None)
        return bad_end or next((off_world(a, width, height) for a in args[2:] if off(a)), None)
    if verb == "MOVE":
        return next((off_world(a, width, height) for a in args[2:] if off(a)), None) or stranger(args[0])
    if verb == "TRAIN":
        return stranger(args[0])
    if verb == "ATTACK":
        return stranger(args[0]) or (off_world(args[2], width, height) if off(args[2]) else None)
    if verb == "DEFEND" and args[0] != "ALL":
        return stranger(args[0]) or (f"{args[2]} is off the map" if off(args[2]) else None)
    return None
