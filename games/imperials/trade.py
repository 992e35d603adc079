"""Trade: with the market (4:1, 3:1 at a general port, 2:1 at a resource's port, the guild's 2:1
for commodities) and between players by mail: an offer posted in one round is accepted in a
later round by the other player's turn file and carried out in the offering player's turn, if
both still hold the cards (rule D-IM-8)."""

from __future__ import annotations

from gm.core.model import JSONObject, Order

from .board import Geometry
from .goods import COMMODITIES, RESOURCES, Cards, cards_text, hand_from, has, pay, take
from .places import ports_of
from .turn import Turn

GUILD_LEVEL = 3


def market_rate(state: JSONObject, geo: Geometry, seat: str, give: str) -> int | None:
    """How many cards of one type a seat gives the market for one card; None when it cannot."""
    ports = ports_of(state, geo, seat)
    if give in COMMODITIES:
        if state["mode"] != "wonders":
            return None
        if state["seats"][seat]["improvements"]["trade"] >= GUILD_LEVEL:
            return 2  # the guild
        return 3 if "3:1" in ports else 4
    if give in ports:
        return 2
    return 3 if "3:1" in ports else 4


def market(turn: Turn, seat: str, order: Order, give: str, get: str) -> None:
    state = turn.state
    if give == get:
        return turn.failed(seat, order, "a trade must give one type of card for another")
    rate = market_rate(state, turn.geo, seat, give)
    if rate is None or (get in COMMODITIES and state["mode"] != "wonders"):
        return turn.failed(seat, order, "commodities are only in Wonders & Warriors")
    if state["bank"][get] <= 0:
        return turn.failed(seat, order, f"the bank has no {get} left")
    problem = turn.lacks(seat, {give: rate})
    if problem:
        return turn.failed(seat, order, problem)
    pay(state, seat, {give: rate})
    take(state, seat, get, 1)
    turn.add(
        "market",
        f"{turn.name(seat)} trades {rate} {give} for 1 {get} with the market.",
        seat=seat,
        give={give: rate},
        get={get: 1},
        rate=rate,
    )


def offer_problem(state: JSONObject, seat: str, to: str, give: Cards, get: Cards) -> str | None:
    """What the rule book forbids in an offer, whatever the hands hold."""
    if to != "ALL" and to not in state["seats"]:
        return f"{to} is not a seat in this game"
    if to == seat:
        return "an offer must be made to another player"
    same = sorted(set(give) & set(get))
    if same:
        return f"resources of the same type may not be exchanged ({', '.join(same)} on both sides)"
    if not give or not get:
        return "each player must give at least one card"
    if state["mode"] != "wonders" and any(g not in RESOURCES for g in {**give, **get}):
        return "commodities are only in Wonders & Warriors"
    return None


def post_offer(turn: Turn, seat: str, order: Order, to: str, give: Cards, get: Cards) -> None:
    state = turn.state
    problem = offer_problem(state, seat, to, dict(give), dict(get))
    if problem:
        return turn.failed(seat, order, problem)
    number = state["next_offer"]
    state["next_offer"] += 1
    state["offers"].append(
        {"id": number, "from": seat, "to": to, "give": dict(give), "get": dict(get), "round": state["round"]}
    )
    whom = "anyone" if to == "ALL" else turn.name(to)
    turn.add(
        "offer",
        f"Offer #{number}: {turn.name(seat)} offers {whom} {cards_text(give)} for "
        f"{cards_text(get)} (accept it next round with ACCEPT {number}).",
        seat=seat,
        offer=number,
        to=to,
        give=dict(give),
        get=dict(get),
    )


def withdraw(turn: Turn, seat: str, order: Order, number: int) -> None:
    state = turn.state
    mine = [o for o in state["offers"] if o["id"] == number and o["from"] == seat]
    if not mine:
        return turn.failed(seat, order, f"{turn.name(seat)} has no open offer #{number}")
    state["offers"].remove(mine[0])
    turn.add("offer_withdrawn", f"{turn.name(seat)} withdraws offer #{number}.", seat=seat, offer=number)


def accepted_by(turn: Turn, number: int) -> list[str]:
    """The seats whose orders this turn accept an offer, in order of play after the mover."""
    from .setup import order_of_play

    sequence = order_of_play(turn.state)
    start = sequence.index(turn.mover) if turn.mover in sequence else 0
    after = sequence[start + 1 :] + sequence[:start]
    return [s for s in after if number in turn.accepts.get(s, ())]


def settle_offers(turn: Turn, seat: str) -> None:
    """The mover's offers from earlier rounds: carried out with the first player (in order of
    play) who accepted and still holds the cards; then they expire, taken or not."""
    state = turn.state
    due = [o for o in state["offers"] if o["from"] == seat and o["round"] < state["round"]]
    for offer in due:
        state["offers"].remove(offer)
        takers = [s for s in accepted_by(turn, offer["id"]) if offer["to"] in ("ALL", s)]
        if not takers:
            turn.add(
                "offer_expired",
                f"Nobody accepted offer #{offer['id']} of {turn.name(seat)}; it expires.",
                seat=seat,
                offer=offer["id"],
            )
            continue
        if not has(state["seats"][seat]["hand"], offer["give"]):
            turn.add(
                "trade_failed",
                f"Offer #{offer['id']}: {turn.name(seat)} no longer holds "
                f"{cards_text(offer['give'])}; the trade does not happen.",
                seat=seat,
                offer=offer["id"],
            )
            continue
        taker = next((s for s in takers if has(state["seats"][s]["hand"], offer["get"])), None)
        if taker is None:
            names = ", ".join(turn.name(s) for s in takers)
            turn.add(
                "trade_failed",
                f"Offer #{offer['id']}: {names} accepted but no longer holds "
                f"{cards_text(offer['get'])}; the trade does not happen.",
                seat=seat,
                offer=offer["id"],
            )
            continue
        hand_from(seat, taker, state, offer["give"])
        hand_from(taker, seat, state, offer["get"])
        if state["log"]:
            state["log"][-1]["trades"].append(
                {"offer": offer["id"], "from": seat, "to": taker, "give": offer["give"], "get": offer["get"]}
            )
        turn.add(
            "trade",
            f"Offer #{offer['id']}: {turn.name(seat)} gives {turn.name(taker)} "
            f"{cards_text(offer['give'])} for {cards_text(offer['get'])}.",
            seat=seat,
            offer=offer["id"],
            partner=taker,
            give=offer["give"],
            get=offer["get"],
        )
