"""The player's own check (gm orders check --report): what the seat's report settles alone.

Everything check_orders reads is in the report: every province's owner and armies on the open
map, and the nation's own provinces with their armies, what they make and how far it has got,
their culture and fort, and its gold. So check_orders itself is asked of a state built from the
report alone, and refuses what the GM refuses in its words: a move of more armies than are free,
a second PRODUCE or BUY, a BUY the gold does not cover, what a province cannot make. A report
that is not one gm writes settles only what the map shows: codes, the moves a turn takes and
the owners; a nation that has lost every province gives no orders. The warnings
(warnings_by_view) read only the open map's armies and the nation's own provinces, gold, capital
and turn, all in the report, so order_warnings itself is asked of the same state. A
report file may hold anything: what is not of its kind settles nothing.
"""

from __future__ import annotations

from dataclasses import replace

from gm.core.maps import next_to, view_places
from gm.core.model import JSONObject, Order, Problem
from gm.core.order_grammar import Argument, OrderGrammar, OrderWord

from .board import Board
from .economy import CULTURE_WORDS, FORT_WORDS, ITEM_WORDS
from .orders import (
    BOOK_ITEMS,
    CODE,
    ITEM_NAMES,
    MAX_MOVES,
    MOVE_VERBS,
    USAGE,
    VERBS,
    Voice,
    check_orders,
    map_move_problem,
    not_a_code,
    not_a_province,
    produce_owner_problem,
    too_many_moves,
    voice,
    well_formed,
)
from .warnings import order_warnings


def check_by_view(view: JSONObject, seat: str, orders: list[Order]) -> list[Problem]:
    """The problems of check_orders, asked of the report's state; from a report that is not one
    gm writes, those its map settles."""
    places, you = view_places(view), view.get("you")
    if places is None or view.get("phase") != "play" or not isinstance(you, dict):
        return []
    if you.get("alive") is False:
        return [Problem(o.line, "your nation has lost every province; it gives no more orders") for o in orders]
    board = _board(view, places, seat)
    standing = _standing(view, places, you, board[0]) if board is not None and you.get("code") == seat else None
    if standing is not None:
        return check_orders(_checkable(standing, seat), seat, [o for o in orders if well_formed(o)])
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
        problem = not_a_province(unknown) if unknown else _owners_problem(board, seat, order)
        if problem:
            problems.append(Problem(order.line, problem))
    return sorted(problems, key=lambda p: p.line)


def warnings_by_view(view: JSONObject, seat: str, orders: list[Order]) -> list[Problem]:
    """The warnings of order_warnings, for a nation still in the game: all they read is in the
    report (every province's owner and armies on the open map, the nation's own provinces with
    what they make, their population, culture, fort and control, its gold and capital, the turn),
    so order_warnings itself is asked of a state built from the report alone; none from a report
    that is not one gm writes."""
    places, you = view_places(view), view.get("you")
    if places is None or view.get("phase") != "play" or not isinstance(you, dict) or you.get("code") != seat:
        return []
    board = _board(view, places, seat)
    standing = _standing(view, places, you, board[0]) if board is not None else None
    return [] if standing is None else order_warnings(standing, seat, orders)


def _checkable(standing: JSONObject, seat: str) -> JSONObject:
    """The state check_orders reads: the report's, with a production for every province not the
    nation's. It reads another's production only to refuse a BUY there for its owner, so a
    province's hidden production is never asked of the report (D-ALL-5)."""
    provinces = {
        code: p if p["owner"] == seat else dict(p, item="TAXES", progress=0, target=None)
        for code, p in standing["provinces"].items()
    }
    return dict(standing, provinces=provinces)


# The facts of the nation's own provinces order_warnings reads (what they make, their labour and
# pay, what they may build), each a whole number the report gives in its provinces table.
_COUNTS = ("population", "resources", "armies", "progress")


def _standing(view: JSONObject, places: dict[str, JSONObject], you: JSONObject, known: JSONObject) -> JSONObject | None:
    """The state order_warnings reads, from the report; None when a part is missing or not of
    its kind."""
    seat, gold, capital, turn = you.get("code"), you.get("gold"), you.get("capital"), view.get("turn")
    if not (
        _count(gold) and _count(turn) and (capital is None or _code(capital) in places) and you.get("alive") is True
    ):
        return None
    provinces = {}
    for code, place in places.items():
        if not _count(place.get("troops")):
            return None
        provinces[code] = {"owner": place["owner"], "armies": place["troops"]}
    rows = you.get("provinces")
    for row in rows if isinstance(rows, list) else [None]:
        if not isinstance(row, dict) or _code(row.get("code")) not in places or places[row["code"]]["owner"] != seat:
            return None
        if not all(_count(row.get(key)) for key in (*_COUNTS, "control")) or row["control"] > 100:
            return None
        if not all(_count(row.get(key)) for key in ("culture", "fort")):
            return None
        if row["culture"] not in CULTURE_WORDS or row["fort"] not in FORT_WORDS:
            return None
        if _code(row.get("item")) not in ITEM_WORDS or not isinstance(row.get("conquered"), bool):
            return None
        facts = {key: row[key] for key in (*_COUNTS, "culture", "fort", "item", "conquered")}
        provinces[row["code"]] = dict(facts, owner=seat, target=row.get("target"), influence={seat: row["control"]})
    if any(p["owner"] == seat and "item" not in p for p in provinces.values()):
        return None  # a province of the nation's on the map that its table leaves out
    seats = {code: dict(s, alive=True) for code, s in known["seats"].items()}
    seats[seat] = dict(seats.get(seat, {}), gold=gold, capital=capital, alive=True)
    scenario = {
        "provinces": [
            {"code": code, "name": p.get("name"), "neighbours": [n for n in p["neighbours"] if isinstance(n, str)]}
            for code, p in places.items()
        ]
    }
    return {"phase": "play", "turn": turn, "provinces": provinces, "seats": seats, "scenario": scenario}


def _count(value: object) -> bool:
    return type(value) is int and value >= 0


def _code(value: object) -> str:
    """A code as a key to look up: "" for anything that is not a string."""
    return value if isinstance(value, str) else ""


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
    province = Argument(
        "province",
        "place",
        wrong=not_a_province("{word}"),
        offer="own",
        shape=CODE.pattern,
        misshapen=not_a_code("{word}"),
    )
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
    target = replace(province, name="diplomat's target", pattern="|".join(seconds), optional=True, offer="")
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
