"""Conqueror! warnings, as echeck gives them beside the errors: an attack the duels will
probably lose, a move from a province an enemy may attack first, winter pay the treasury will
not meet. The orders still count."""

from __future__ import annotations

from gm.core.model import JSONObject, Order, Problem

from .board import NEUTRAL, Board, armies_words, nation
from .economy import is_winter, productivity
from .orders import MAX_MOVES, MOVE_VERBS, buy_cost, buy_problem, production_after, voice, well_formed
from .realm import support_bill


def order_warnings(state: JSONObject, seat: str, orders: list[Order]) -> list[Problem]:
    """What is probably a slip in a nation's orders. Never raises: the orders may be the ones
    the check refused."""
    me = state.get("seats", {}).get(seat)
    if me is None or state["phase"] != "play" or not me["alive"]:
        return []
    board = Board(state["scenario"])
    listed = [o for o in orders if well_formed(o)]
    _, soldiers = _buys(state, seat, board, listed)
    found = _moves(state, seat, board, [o for o in listed if o.verb in MOVE_VERBS][:MAX_MOVES], soldiers)
    return found + _winter_pay(state, seat, board, listed)


def _moves(state: JSONObject, seat: str, board: Board, moves: list[Order], soldiers: dict[str, int]) -> list[Problem]:
    """Soldiers rush-bought this turn stand before any army moves (as the check counts them)."""
    found = []
    leaving: dict[str, int] = {}
    for order in moves:
        source, target, amount = order.args
        if source not in state["provinces"] or target not in state["provinces"]:
            continue
        if state["provinces"][source]["owner"] != seat or not board.adjacent(source, target):
            continue
        free = state["provinces"][source]["armies"] + soldiers.get(source, 0) - leaving.get(source, 0)
        count = max(0, free if amount == "ALL" else min(amount, free))
        leaving[source] = leaving.get(source, 0) + count
        why = (
            _weak_attack(state, seat, target, count) if order.verb == "ATTACK" else _exposed(state, seat, board, source)
        )
        if why:
            found.append(Problem(order.line, why))
    return found


def _weak_attack(state: JSONObject, seat: str, target: str, count: int) -> str | None:
    # "Armies in the invasion force will fight one-to-one with the defender's armies ... the
    # defender will win a one-on-one battle eleven times out of 21" (rule D-CQ-2): with no more
    # armies than the defence the attack probably fails. Only the armies, which every report
    # shows: a foreign province's fortifications are in no view of the attacker's, and naming
    # them here would tell it what its owner built (D-ALL-5).
    province = state["provinces"][target]
    defending = province["armies"]
    if province["owner"] == seat or count == 0 or count > defending:
        return None
    return (
        f"{armies_words(count)} against {defending} in {target}: the defender wins a duel 11 times "
        "in 21, so this attack will probably fail"
    )


def _exposed(state: JSONObject, seat: str, board: Board, source: str) -> str | None:
    # "A move from one friendly country to another is executed exactly as you planned, unless
    # the country from which you had planned to move has just been attacked this turn."
    near = [
        n
        for n in board.neighbours[source]
        if state["provinces"][n]["owner"] not in (seat, NEUTRAL) and state["provinces"][n]["armies"]
    ]
    if not near:
        return None
    who = sorted({nation(state, state["provinces"][n]["owner"]) for n in near})
    return (
        f"{', '.join(who)} {'has' if len(who) == 1 else 'have'} armies next to {source} "
        f"({' '.join(near)}): if {source} is attacked before this move runs, the move fails"
    )


def _winter_pay(state: JSONObject, seat: str, board: Board, orders: list[Order]) -> list[Problem]:
    # Rule D-CQ-5 and the text's Gold: "at the end of the winter turn any troops that you
    # cannot afford to pay will desert your army".
    if not is_winter(state["turn"]):
        return []
    spent, soldiers = _buys(state, seat, board, orders)
    # soldiers bought this turn stand at its end too, and are paid like the others
    provinces = {c: {**p, "armies": p["armies"] + soldiers.get(c, 0)} for c, p in state["provinces"].items()}
    bill = sum(support_bill({**state, "provinces": provinces}, board, seat).values())
    gold = state["seats"][seat]["gold"] - spent
    taxes = _taxes(state, seat, orders)
    if bill <= gold + taxes:
        return []
    return [
        Problem(
            0,
            f"this is a winter turn: your troops cost about {bill} gold at its end, and you will "
            f"have about {gold + taxes} ({gold} after your BUY orders, {taxes} in taxes); "
            "the armies you cannot pay desert",
        )
    ]


def _items(state: JSONObject, seat: str, orders: list[Order]) -> dict[str, tuple[str, int]]:
    """Each of the nation's provinces: its item and progress once the PRODUCE orders stand."""
    items = {c: (p["item"], p["progress"]) for c, p in state["provinces"].items() if p["owner"] == seat}
    for order in orders:
        if order.verb == "PRODUCE" and order.args[0] in items:
            items[order.args[0]] = production_after(state["provinces"][order.args[0]], order.args[1])
    return items


def _buys(state: JSONObject, seat: str, board: Board, orders: list[Order]) -> tuple[int, dict[str, int]]:
    """The gold the BUY orders that can be paid take, in the order written (as the check counts),
    and the soldiers they add, by province."""
    items, gold, spent = _items(state, seat, orders), state["seats"][seat]["gold"], 0
    soldiers: dict[str, int] = {}
    v = voice(state, seat, True, board)
    for order in (o for o in orders if o.verb == "BUY" and o.args[0] in items):
        code, units = order.args
        item, progress = items[code]
        if buy_problem(state, seat, code, units, item, progress, gold - spent, v) is None:
            spent += buy_cost(state["provinces"][code], item, progress, units)
            if item == "SOLDIERS":
                soldiers[code] = soldiers.get(code, 0) + units
    return spent, soldiers


def _taxes(state: JSONObject, seat: str, orders: list[Order]) -> int:
    return sum(
        # what each gives this turn: halved only in the turn of its conquest (the view's estimate)
        productivity(state["provinces"][c], conquered=False)
        for c, (item, _) in _items(state, seat, orders).items()
        if item == "TAXES"
    )
