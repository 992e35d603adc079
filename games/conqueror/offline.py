"""The player's own check (gm orders check --report): what the seat's report settles alone.

The whole map is in the report, with every province's owner: a code that is no province, more
moves than a turn takes, and what the owners refuse of a move or a production (the GM checks
every order against the map as it stands) fail here as in orders.check_orders, in its words; a
nation that has lost every province gives no orders. Armies, gold, what a province can make and
a second PRODUCE (it counts only after a first the GM accepts) are left to the GM. A report file
may hold anything: what is not of its kind settles nothing.
"""

from __future__ import annotations

from dataclasses import replace

from gm.core.maps import next_to, view_places
from gm.core.model import JSONObject, Order, Problem
from gm.core.order_grammar import Argument, OrderGrammar, OrderWord

from .board import Board
from .orders import (
    BOOK_ITEMS,
    ITEM_NAMES,
    MAX_MOVES,
    MOVE_VERBS,
    USAGE,
    VERBS,
    Voice,
    map_move_problem,
    not_a_province,
    produce_owner_problem,
    too_many_moves,
    voice,
    well_formed,
)


def check_by_view(view: JSONObject, seat: str, orders: list[Order]) -> list[Problem]:
    """The problems of check_orders that the view settles."""
    places, you = view_places(view), view.get("you")
    if places is None or view.get("phase") != "play" or not isinstance(you, dict):
        return []
    if you.get("alive") is False:
        return [Problem(o.line, "your nation has lost every province; it gives no more orders") for o in orders]
    problems = []
    moves = 0
    board = _board(view, places, seat)
    for order in (o for o in orders if well_formed(o)):
        moves += order.verb in MOVE_VERBS
        if order.verb in MOVE_VERBS and moves > MAX_MOVES:
            problems.append(Problem(order.line, too_many_moves(order.line)))
            continue
        # MOVE, ATTACK: from, to; PRODUCE: the province, then a diplomat's target; BUY: the province.
        codes = order.args[:2] if order.verb in MOVE_VERBS else order.args[:1] + order.args[2:]
        unknown = next((c for c in codes if isinstance(c, str) and c not in places), None)
        problem = not_a_province(unknown) if unknown else _owners_problem(board, seat, order)
        if problem:
            problems.append(Problem(order.line, problem))
    return sorted(problems, key=lambda p: p.line)


def _owners_problem(board: tuple[JSONObject, Voice] | None, seat: str, order: Order) -> str | None:
    """What check_orders says first of a move or a production from the map's owners alone
    (orders.map_move_problem, produce_owner_problem): nothing another's order changes first,
    since every order is checked against the map as it stands."""
    if board is None:
        return None
    state, v = board
    if order.verb in MOVE_VERBS:
        return map_move_problem(state, seat, order, v, planning=True)
    return produce_owner_problem(state, seat, order, v) if order.verb == "PRODUCE" else None


def _board(view: JSONObject, places: dict[str, JSONObject], seat: str) -> tuple[JSONObject, Voice] | None:
    """The owners, nations and map check_orders reads, built from the report alone, with the
    player's voice; None when the view is not one gm writes."""
    seats = view.get("seats")
    if not isinstance(seats, list) or not all(isinstance(s, dict) and isinstance(s.get("code"), str) for s in seats):
        return None
    if not all(isinstance(p.get("owner"), str) and isinstance(p.get("neighbours"), list) for p in places.values()):
        return None
    state = {
        "provinces": {code: {"owner": p["owner"]} for code, p in places.items()},
        "seats": {s["code"]: {"nation": s.get("nation")} for s in seats},
    }
    scenario = {
        "provinces": [
            {"code": code, "name": p.get("name"), "neighbours": [n for n in p["neighbours"] if isinstance(n, str)]}
            for code, p in places.items()
        ]
    }
    return state, voice(state, seat, True, Board(scenario))


def order_grammar(view: JSONObject, seat: str) -> OrderGrammar | None:
    """Conqueror!'s orders as data (gm.core.order_grammar), in the parser's and the map check's
    words: provinces are the map's, the builder offers the nation's own first; BUILD is PRODUCE."""
    places = view_places(view)
    if places is None:
        return None
    own = sorted(c for c, p in places.items() if p.get("owner") == seat)
    province = Argument("province", "place", wrong=not_a_province("{word}"), offer="own")
    amount = Argument("n|ALL", pattern="[0-9]{1,6}|ALL", wrong="{word} is not a number; write a whole number such as 3")
    # An item is one word (FORT) or the book's menu name, two ("Build Fort"): the word after it
    # is a diplomat's target or the name's second word, and a target may follow "Send Diplomat".
    firsts = sorted({first for first, _ in BOOK_ITEMS} | set(ITEM_NAMES))
    seconds = sorted({second for _, second in BOOK_ITEMS} | set(ITEM_NAMES))
    item = Argument(
        "item",
        pattern="|".join(firsts),
        wrong="{word} is not something a province makes; choose TAXES, SOLDIERS, DIPLOMAT, FORT, KEEP, CASTLE, "
        "FARMS, DEVELOP or ADVANCE",
    )
    target = Argument("diplomat's target", "place", pattern="|".join(seconds), wrong=province.wrong, optional=True)
    move = (replace(province, name="from"), replace(province, name="to", offer="", beside=0), amount)
    produce = (province, item, target, replace(target, name="target after Send Diplomat", pattern=""))
    count = Argument("n", pattern="[0-9]{1,6}", wrong=amount.wrong, optional=True)
    needs = {
        "MOVE": "MOVE needs a province to leave, one to enter and a number or ALL: " + USAGE["MOVE"],
        "ATTACK": "ATTACK needs a province to leave, one to enter and a number or ALL: " + USAGE["ATTACK"],
        "PRODUCE": "PRODUCE needs a province and what it makes: " + USAGE["PRODUCE"],
        "BUY": "BUY needs a province and, if more than one, how many: " + USAGE["BUY"],
    }
    words = (
        OrderWord("MOVE", move, count=needs["MOVE"], usage=USAGE["MOVE"]),
        OrderWord("ATTACK", move, count=needs["ATTACK"], usage=USAGE["ATTACK"]),
        OrderWord("PRODUCE", produce, count=needs["PRODUCE"], usage=USAGE["PRODUCE"]),
        OrderWord("BUILD", produce, count=needs["PRODUCE"], usage=USAGE["PRODUCE"].replace("PRODUCE", "BUILD")),
        OrderWord("BUY", (province, count), count=needs["BUY"], usage=USAGE["BUY"]),
    )
    unknown = "{word} is not an order{near}; the orders are MOVE, ATTACK, PRODUCE and BUY"
    return OrderGrammar(
        words,
        unknown,
        facts={"place": tuple(sorted(places)), "own": tuple(own)},
        now=VERBS,
        hinted=VERBS,
        next_to=next_to(places),
    )
