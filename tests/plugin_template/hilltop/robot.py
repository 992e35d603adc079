"""Orders for a clan nobody plays: from every hill with warriors to spare, most of them onwards."""

from __future__ import annotations

from random import Random

from gm.core.model import JSONObject, Order

from .board import held, hills, holder, warriors


def robot_orders(state: JSONObject, seat: str, rng: Random) -> list[Order]:
    orders = []
    for source in held(state, seat):
        spare = warriors(state, source) - 1
        if spare < 2:
            continue
        near = list(hills(state)[source]["neighbours"])
        others = [n for n in near if holder(state, n) != seat]
        target = rng.choice(others or near)
        orders.append(Order("MOVE", (source, target, spare), 0, f"MOVE {source} {target} {spare}"))
    return orders
