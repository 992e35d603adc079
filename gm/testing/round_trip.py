"""The round trip of every order: parse a line, write the order back with the ruleset's
order_line, parse that, and the same order must come out. What an acknowledgement echoes "as the
game understood them" is then a line the player could send again, in the player's own words.

gm.testing.suite feeds it the lines real orders come in: every robot order of a robot game's
first turns and every order of the ruleset's packaged cases.
"""

from __future__ import annotations

from collections.abc import Iterable

from gm.core.model import Order
from gm.core.ruleset import Ruleset


def read_back(ruleset: Ruleset, line: str) -> tuple[Order | None, list[str]]:
    """(the order the line is, what went wrong writing it back): (None, []) when the line is
    not one good order, so there is nothing to write back."""
    orders, problems = ruleset.parse_orders([(1, line)])
    if problems or len(orders) != 1:
        return None, []
    order = orders[0]
    written = ruleset.order_line(order)
    again, problems = ruleset.parse_orders([(1, written)])
    if problems or len(again) != 1:
        said = "; ".join(p.message for p in problems) or f"{len(again)} orders"
        return order, [f"{line!r} is written back as {written!r}, which does not read: {said}"]
    if (again[0].verb, again[0].args) != (order.verb, order.args):
        return order, [f"{line!r} is written back as {written!r}, which reads as another order"]
    return order, []


def failures(ruleset: Ruleset, lines: Iterable[str]) -> list[str]:
    """Each line whose order is not written back as itself, once, in the order first met."""
    return list(dict.fromkeys(failure for line in lines for failure in read_back(ruleset, line)[1]))
