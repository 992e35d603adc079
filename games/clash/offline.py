"""The player's own check (gm orders check --report): what the seat's report settles alone.

The whole map is public and in the report, with the phase: an order of the wrong phase, a second
action in a round and a code that is no territory fail here as in orders.check_orders, in its
words and in its order of checks. Who holds what and the money are left to the GM (others'
orders come first). A report file may hold anything: what is not of its kind settles nothing.
"""

from __future__ import annotations

from gm.core.maps import next_to, view_places
from gm.core.model import JSONObject, Order, Problem
from gm.core.order_grammar import Argument, OrderGrammar, OrderWord

from .orders import NEEDS, PLAY_VERBS, SHAPES, USAGE, VERBS, WRONG_PHASE, not_a_territory, well_formed

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


# The territory arguments of each order: where its units come from, for the builder's choices.
_YOURS = {"PLACE", "RECRUIT", "REVOLT"}


def order_grammar(view: JSONObject, seat: str) -> OrderGrammar | None:
    """Clash's orders as data (gm.core.order_grammar), in the parser's and the map check's words:
    territories are the map's, the builder offers the seat's own (its core ones while placing)."""
    places, phase = view_places(view), view.get("phase")
    if places is None:
        return None
    own = sorted(
        c for c, p in places.items() if p.get("owner") == seat or (phase != "play" and p.get("core_of") == seat)
    )
    territory = Argument("territory", fact="place", wrong=not_a_territory("{word}"))
    troops = Argument(
        "n", pattern="[0-9]{1,6}", wrong="{word} is not a number of troops; write a whole number such as 3"
    )
    amount = Argument("n|ALL", pattern="[0-9]{1,6}|ALL", wrong=troops.wrong)
    yours = Argument("territory", fact="place", wrong=territory.wrong, offer="own")
    shapes = {
        "CLAIM": (territory,),
        "PLACE": (yours, troops),
        "PASS": (),
        "RECRUIT": (yours, troops),
        "REVOLT": (territory,),
        "MOVE": (
            Argument("from", fact="place", wrong=territory.wrong, offer="own"),
            Argument("to", "place", wrong=territory.wrong, beside=0),
            amount,
        ),
    }
    words = tuple(
        OrderWord(
            verb,
            shapes[verb],
            repeats=verb == "CLAIM",
            count=f"{verb} needs {NEEDS[verb]}: {USAGE[verb]}",
            usage=USAGE[verb],
        )
        for verb in VERBS
    )
    unknown = "{word} is not an order{near}; the orders are CLAIM, PLACE, PASS, RECRUIT, REVOLT and MOVE"
    now = TAKEN.get(phase, VERBS) if isinstance(phase, str) else VERBS
    facts = {"place": tuple(sorted(places)), "own": tuple(own)}
    return OrderGrammar(words, unknown, facts=facts, now=tuple(now), next_to=next_to(places))
