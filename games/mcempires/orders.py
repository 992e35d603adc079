"""Minecraft EMPIRES orders: the parser (grammar.py) and check_orders, a dry run of the empire's
own turn through the very code that resolves it, so a problem reads as the report would say."""
from __future__ import annotations

from gm.core.model import JSONObject, Order, Problem

from .grammar import MAX_ORDERS, make_order, order_text, parse_orders, well_formed  # noqa: F401
from .turn import Turn


def check_orders(state: JSONObject, seat: str, orders: list[Order]) -> list[Problem]:
    """Line-numbered problems: every order that would fail if the empire's turn were played now
    (income and spawning first, its orders in the order written, battles assumed won)."""
    if state["phase"] == "over":
        return [Problem(o.line, "the game is over: no orders are needed") for o in orders]
    if seat not in state["seats"]:
        return [Problem(o.line, f"{seat} has no empire in this game") for o in orders]
    if not state["seats"][seat]["alive"]:
        return [Problem(o.line, "your empire has capitulated and gives no more orders")
                for o in orders]
    return [Problem(line, reason) for line, reason in dry_run(state, seat, orders)[1]]


def dry_run(state: JSONObject, seat: str, orders: list[Order]) -> tuple[Turn, list[tuple[int, str]]]:
    """Play the empire's turn alone on a copy: (the turn afterwards, (line, reason) for every
    order that fails)."""
    from . import actions, rules  # rules imports this module's grammar: import late

    turn = Turn(state, rng=None, you=True)
    listed = [o for o in orders if well_formed(o)]
    problems = [(o.line, "the order could not be read") for o in orders if not well_formed(o)]
    problems += _standing_problems(turn, seat, listed)
    rules.read_standing(turn, {seat: listed})
    had_capital = bool(turn.seats[seat]["capital"])
    rules.start_turn(turn, seat, listed)
    problems += [(e.data["line"], e.data["reason"]) for e in turn.events
                 if e.kind == "order_failed" and e.data.get("line")]
    problems += [(o.line, f"an empire gives at most {MAX_ORDERS} orders a round; "
                  "this one is past that") for o in listed[MAX_ORDERS:]]
    for order in listed[:MAX_ORDERS]:
        if order.verb in actions.STANDING or (order.verb == "CAPITAL" and not had_capital):
            continue
        reason = actions.execute(turn, seat, order)
        if reason:
            problems.append((order.line, reason))
    return turn, sorted(problems, key=lambda p: p[0])


def _standing_problems(turn: Turn, seat: str, orders: list[Order]) -> list[tuple[int, str]]:
    from .actions import block_of, city_named  # actions imports rules' modules: import late

    problems = []
    for order in orders:
        if order.verb == "DEFEND" and order.args[0] != "ALL":
            gid = order.args[0]
            if turn.groups.get(gid, {}).get("owner") != seat:
                problems.append((order.line, f"{gid} is not one of your groups"))
            elif "," in order.args[2] and block_of(turn, order.args[2]) is None:
                problems.append((order.line, f"{order.args[2]} is off the map"))
        if order.verb == "DESTROY" and order.args[0] != "ALL":
            cid = city_named(turn, order.args[0])
            if cid is None or turn.cities[cid]["owner"] != seat:
                problems.append((order.line, f"{order.args[0]} is not one of your cities"))
    return problems


__all__ = ["check_orders", "dry_run", "make_order", "order_text", "parse_orders", "well_formed"]
