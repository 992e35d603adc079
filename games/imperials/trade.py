"""Trade: with the market (4:1, 3:1 at a general port, 2:1 at a resource's port, the guild's 2:1
for commodities) and between players by mail: an offer posted in one round is accepted in the
next by the other player's turn file and carried out in the offering player's turn, if both
still hold the cards (rule D-IM-8), as its maker decides in the same round (rule D-IM-9)."""

from __future__ import annotations

from gm.core.model import JSONObject, Order

from .board import Geometry
from .goods import COMMODITIES, RESOURCES, YIELDS, Cards, cards_text, hand_from, has, pay, take
from .places import ports_of
from .setup import order_of_play
from .turn import Turn

GUILD_LEVEL = 3


def market_rate(state: JSONObject, geo: Geometry, seat: str, give: str) -> int | None:
    """How many cards of one type a seat gives the market for one card; None when it cannot."""
    if give in COMMODITIES and state["mode"] != "wonders":
        return None
    if _two_for_one(state, seat, give):
        return 2
    ports = ports_of(state, geo, seat)
    if give in RESOURCES and give in ports:
        return 2
    return 3 if "3:1" in ports else 4


def _two_for_one(state: JSONObject, seat: str, give: str) -> bool:
    """The guild's 2:1 for commodities; the merchant's for its tile's resource and the Merchant
    Fleet's for the rest of a turn (rule D-IM-10)."""
    if give in COMMODITIES and state["seats"][seat]["improvements"]["trade"] >= GUILD_LEVEL:
        return True
    merchant, fleet = state.get("merchant"), state.get("fleet")
    if merchant and merchant["seat"] == seat and YIELDS.get(state["board"]["tiles"][merchant["tile"]]["kind"]) == give:
        return True
    return bool(fleet and fleet["seat"] == seat and give in fleet["goods"])


def market(turn: Turn, seat: str, order: Order, give: str, get: str, most: int | None = None) -> None:
    """One card from the market for the seat's rate in another type; most: the number the order
    wrote ('MARKET 3 wheat FOR ore'), the most it gives (a better rate is taken, a worse fails)."""
    state = turn.state
    if give == get:
        return turn.failed(seat, order, "a trade must give one type of card for another")
    rate = market_rate(state, turn.geo, seat, give)
    if rate is None or (get in COMMODITIES and state["mode"] != "wonders"):
        return turn.failed(seat, order, "commodities are only in Wonders & Warriors")
    if most is not None and rate > most:
        return turn.failed(
            seat, order, f"the market takes {rate} {give} for one card from {turn.name(seat)}, not {most}"
        )
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
    # The implementation refuses an offer of cards its maker does not hold ("cannot give more
    # than you have"); the book is silent. Whether it still holds them is checked again when the
    # offer comes due.
    problem = offer_problem(state, seat, to, dict(give), dict(get)) or turn.lacks(seat, dict(give))
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


def decisions(turn: Turn, seat: str) -> tuple[dict[int, Order], dict[int, Order]]:
    """The maker's decisions on its offers in its turn file (rule D-IM-9): WITHDRAW n, and
    CHOOSE n SEAT ... (whom it trades with, first choice first); the first of each number counts."""
    withdrawn: dict[int, Order] = {}
    chosen: dict[int, Order] = {}
    for order in turn.orders.get(seat, []):
        if order.verb == "WITHDRAW":
            withdrawn.setdefault(order.args[0], order)
        elif order.verb == "CHOOSE":
            chosen.setdefault(order.args[0], order)
    return withdrawn, chosen


def accepted_by(turn: Turn, number: int) -> list[str]:
    """The seats whose orders this turn accept an offer, in the round's order of play (rule
    D-IM-9: "the first acceptor in order of play"; a seat before the maker comes first)."""
    return [s for s in order_of_play(turn.state) if number in turn.accepts.get(s, ())]


def settle_offers(turn: Turn, seat: str) -> None:
    """The mover's offers from earlier rounds, after its roll and before its actions. The maker's
    decisions are read first (rule D-IM-9): WITHDRAW declines an offer; CHOOSE names whom it
    trades with; else the first accepting player in order of play who still holds the cards
    takes it. Then every offer expires, taken or not; a trade that fails tells only its parties
    that it could not be carried out, never which side lacked what (rule D-ALL-5)."""
    state = turn.state
    withdrawn, chosen = decisions(turn, seat)
    due = [o for o in state["offers"] if o["from"] == seat and o["round"] < state["round"]]
    for offer in due:
        state["offers"].remove(offer)
        number = offer["id"]
        if number in withdrawn:
            turn.add("offer_withdrawn", f"{turn.name(seat)} withdraws offer #{number}.", seat=seat, offer=number)
            continue
        accepted = [s for s in accepted_by(turn, number) if offer["to"] in ("ALL", s)]
        takers = accepted
        if number in chosen:
            named = [s for s in chosen[number].args[1:] if isinstance(s, str)]
            takers = [s for s in named if s in accepted]
        taker = None
        if has(state["seats"][seat]["hand"], offer["give"]):
            taker = next((s for s in takers if has(state["seats"][s]["hand"], offer["get"])), None)
        if taker is None:
            _no_trade(turn, offer, accepted)
        else:
            _trade(turn, offer, taker)
    mine = {o["id"] for o in due}
    for number, order in [*withdrawn.items(), *chosen.items()]:
        if number not in mine:
            turn.failed(seat, order, f"{turn.name(seat)} has no offer #{number} that comes due this round")


def _trade(turn: Turn, offer: JSONObject, taker: str) -> None:
    state, seat = turn.state, offer["from"]
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


def _no_trade(turn: Turn, offer: JSONObject, accepted: list[str]) -> None:
    """Everyone reads that the offer expired; its maker and those who accepted read whether it
    found no taker or could not be carried out, and nobody reads whose cards were missing."""
    seat, number = offer["from"], offer["id"]
    turn.add(
        "offer_expired",
        f"Offer #{number} of {turn.name(seat)} expires without a trade.",
        seat=seat,
        offer=number,
    )
    if not accepted:
        turn.add("offer_unanswered", f"Nobody accepted offer #{number}.", (seat,), seat=seat, offer=number)
        return
    turn.add(
        "trade_failed",
        f"Offer #{number} of {turn.name(seat)} was accepted but could not be carried out.",
        (seat, *accepted),
        seat=seat,
        offer=number,
    )
