"""The player's own check (gm orders check --report): what the seat's report settles alone.

The whole map is public and in the report, with the phase: an order of the wrong phase, a second
action in a round, a code that is no territory, and the refusals of a round's action that no
player before the seat can change (a move's, a revolt off the seat's core, a recruit where it
holds nothing or past its money) fail here as in orders.check_orders, in its words and in its order of checks.
The order of play, each seat's money and the scenario's units to place and unit limit are in
the report too, so while placing and in a round check_orders itself is asked of a state built
from the report (the code below is for a report written before it had the units), and so is
order_warnings (warnings_by_view). The set-up's claims are left to the GM. A report file may
hold anything: what is not of its kind settles nothing.
"""

from __future__ import annotations

from dataclasses import replace

from gm.core.maps import next_to, view_places
from gm.core.model import JSONObject, Order, Problem
from gm.core.order_grammar import Argument, OrderGrammar, OrderWord

from .board import holder
from .orders import (
    CODE,
    NEEDS,
    PLAY_VERBS,
    SHAPES,
    TROOP_COST,
    USAGE,
    VERBS,
    WRONG_PHASE,
    check_orders,
    move_problem,
    not_a_code,
    not_a_territory,
    order_warnings,
    recruit_problem,
    revolt_problem,
    voice,
    well_formed,
)

TAKEN = {"claim": ("CLAIM",), "place": ("PLACE",), "play": PLAY_VERBS}  # the orders each phase takes


def check_by_view(view: JSONObject, seat: str, orders: list[Order]) -> list[Problem]:
    """The problems of check_orders that the view settles."""
    places, phase = view_places(view), view.get("phase")
    if places is None or not isinstance(phase, str) or phase not in WRONG_PHASE:
        return []
    board = _board(view, places) if phase != "claim" else None
    standing = _standing(view, board, seat, phase) if board is not None else None
    if standing is not None:
        # All check_orders reads is in the report: the open board, the order of play, the
        # seat's money and the scenario's units.
        return check_orders(standing, seat, orders)
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
        sure = not_a_territory(unknown) if unknown else _sure_problem(view, places, seat, first)
        if sure:
            problems.append(Problem(first.line, sure))
    return sorted(problems, key=lambda p: p.line)


def _sure_problem(view: JSONObject, places: dict[str, JSONObject], seat: str, order: Order) -> str | None:
    """check_orders' refusal of a round's action that no player before the seat can change
        (D-ALL-3), as the view's public map shows it: a move's every problem, and a revolt off the
        seat's core or a recruit where it holds nothing or that it cannot pay for
    (orders._may_come_good rescues none of them)."""
    board = _board(view, places)
    if board is None or order.verb == "PASS":
        return None
    v = voice(board, seat, you=True)
    code = order.args[0]
    if order.verb == "MOVE":
        return move_problem(board, seat, code, order.args[1], order.args[2], v)
    if order.verb == "REVOLT" and board["territories"][code]["core_of"] != seat:
        return revolt_problem(board, seat, code, v)
    money = board["seats"].get(seat, {}).get("money")
    if (
        order.verb == "RECRUIT"
        and type(money) is int
        and (holder(board, code) != seat or order.args[1] * TROOP_COST > money)
    ):
        return recruit_problem(board, seat, code, order.args[1], v)
    return None


def warnings_by_view(view: JSONObject, seat: str, orders: list[Order]) -> list[Problem]:
    """The warnings of order_warnings: the board is open and in the report (every territory's
    holder, troops and home, the order of play, each seat's money) with the scenario's units to
    place and unit limit, so order_warnings itself is asked of a state built from the report;
    none from a report that is not one gm writes (one written before it had the units)."""
    places, phase = view_places(view), view.get("phase")
    if places is None or phase not in ("place", "play"):
        return []
    board = _board(view, places)
    standing = _standing(view, board, seat, phase) if board is not None else None
    return [] if standing is None else order_warnings(standing, seat, orders)


def _standing(view: JSONObject, board: JSONObject, seat: str, phase: str) -> JSONObject | None:
    """The state order_warnings reads, from the report's board, order of play, money and
    scenario numbers; None when a part is missing or not of its kind."""
    play, units, limit = view.get("order_of_play"), view.get("start_units"), view.get("unit_limit")
    if not isinstance(play, list) or not play or not all(isinstance(s, str) for s in play) or seat not in play:
        return None
    if not all(type(n) is int and n >= 0 for n in (units, limit, board["seats"].get(seat, {}).get("money"))):
        return None
    scenario = dict(board["scenario"], start_units=units, unit_limit=limit)
    return dict(board, phase=phase, seating=play, start=play[0], scenario=scenario)


def _board(view: JSONObject, places: dict[str, JSONObject]) -> JSONObject | None:
    """The part of a state the map checks read (territories, the scenario's neighbours, the
    nations' names), built from the view's public map alone; None when the view is not one gm
    writes."""
    territories = {}
    for code, place in places.items():
        owner, troops, core = place.get("owner"), place.get("troops"), place.get("core_of")
        if (
            not (owner is None or isinstance(owner, str))
            or type(troops) is not int
            or not isinstance(place.get("neighbours"), list)
        ):
            return None
        territories[code] = {"owner": owner, "troops": troops, "core_of": core}
    listed = view.get("seats")
    seats = {
        s["code"]: {"nation": s.get("nation"), "money": s.get("money")}
        for s in (listed if isinstance(listed, list) else [])
        if isinstance(s, dict) and isinstance(s.get("code"), str)
    }
    return {"territories": territories, "seats": seats, "scenario": {"territories": list(places.values())}}


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
    territory = Argument(
        "territory", fact="place", wrong=not_a_territory("{word}"), shape=CODE.pattern, misshapen=not_a_code("{word}")
    )
    troops = Argument(
        "n", pattern="[0-9]{1,6}", wrong="{word} is not a number of troops; write a whole number such as 3"
    )
    amount = Argument("n|ALL", pattern="[0-9]{1,6}|ALL", wrong=troops.wrong)
    yours = replace(territory, offer="own")
    shapes = {
        "CLAIM": (territory,),
        "PLACE": (yours, troops),
        "PASS": (),
        "RECRUIT": (yours, troops),
        "REVOLT": (territory,),
        "MOVE": (
            replace(territory, name="from", offer="own"),
            replace(territory, name="to", beside=0),
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
