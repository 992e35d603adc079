"""Hilltop's orders: MOVE FROM TO N, parsed and checked. Pure, and never raises."""

from __future__ import annotations

from gm.core.maps import parse_lines, shown
from gm.core.model import JSONObject, Order, OrderArgs, Problem

from .board import hill_name, hills, holder


def parse_orders(lines: list[tuple[int, str]]) -> tuple[list[Order], list[Problem]]:
    return parse_lines(lines, _words)


def _words(words: list[str]) -> tuple[str, OrderArgs] | str:
    verb = words[0].upper()
    if verb != "MOVE":
        return f"{shown(words[0])!r} is no order: write MOVE FROM TO N."
    if len(words) != 4 or not words[3].isdigit() or not 1 <= int(words[3]) <= 999:
        return "MOVE takes a hill, the hill next to it and a number of warriors: MOVE N SU 2."
    return "MOVE", (words[1].upper(), words[2].upper(), int(words[3]))


def check_orders(state: JSONObject, seat: str, orders: list[Order]) -> list[Problem]:
    """What is known when the turn file comes: the hills exist, FROM is the seat's, TO is next to it."""
    known = hills(state)
    problems = []
    for order in orders:
        source, target, _ = order.args
        if source not in known or target not in known:
            wrong = source if source not in known else target
            problems.append(Problem(order.line, f"There is no hill {shown(wrong)}."))
        elif holder(state, source) != seat:
            problems.append(Problem(order.line, f"{hill_name(state, source)} is not yours."))
        elif target not in known[source]["neighbours"]:
            problems.append(
                Problem(order.line, f"{hill_name(state, target)} is not next to {hill_name(state, source)}.")
            )
    return problems
