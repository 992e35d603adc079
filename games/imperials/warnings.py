"""Imperials warnings, as echeck gives them beside the errors: a build the cards in hand do not
pay for, more cards than the discard limit, a trade the seat cannot keep, a robber answer that
cannot be followed. The dice and the other seats' turns come between the check and the orders,
so each is a "probably": the orders still count."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from gm.core.model import JSONObject, Order, Problem

from .goods import COSTS, Cards, cards_text, hand_size, has, missing
from .grammar import well_formed
from .robber import discard_limit
from .trade import market_rate
from .turn import board_geometry

# The orders that pay the bank, and what each costs (Building; Wonders & Warriors).
PAID = {
    "ROAD": "road",
    "VILLAGE": "village",
    "TOWN": "town",
    "BUY": "card",
    "WARRIOR": "warrior",
    "UPGRADE": "upgrade",
    "ACTIVATE": "activate",
    "FENCE": "fence",
}
ACTION_CARDS_HELD = 4  # Wonders & Warriors, Action Cards: no more than 4 "when it's not their turn"


@dataclass(frozen=True)
class Seen:
    """What the warnings read, all of it in the seat's own report too (view.py), so that the
    player's own check (offline.py) gives them in these words: the hand, the market's rate for
    each good, the discard limit, how many action cards the seat holds, the mode, the open
    offers, the robber's tile and whose warrior stands on each vertex."""

    hand: Cards
    rate: Callable[[str], int | None]
    limit: int
    cards: int
    mode: str
    offers: list[JSONObject]
    robber: str | None
    warriors: dict[str, str]


def order_warnings(state: JSONObject, seat: str, orders: list[Order]) -> list[Problem]:
    """What is probably a slip in a seat's turn file. Never raises: the orders may be the ones
    the check refused."""
    me = state.get("seats", {}).get(seat)
    if me is None or state["phase"] != "play":
        return []
    geo = board_geometry(state)
    seen = Seen(
        hand=dict(me["hand"]),
        rate=lambda give: market_rate(state, geo, seat, give),
        limit=discard_limit(state, seat),
        cards=len(me["cards"]),
        mode=state["mode"],
        offers=state["offers"],
        robber=state["robber"],
        warriors={v: w["owner"] for v, w in state["warriors"].items()},
    )
    return warnings_seen(seen, seat, orders)


def warnings_seen(seen: Seen, seat: str, orders: list[Order]) -> list[Problem]:
    """order_warnings from what the seat sees (a phase of play)."""
    listed = [o for o in orders if well_formed(o)]
    hand = dict(seen.hand)
    found = [Problem(o.line, w) for o in listed if (w := _unpaid(seen, o, hand))]
    found += [Problem(o.line, w) for o in listed if (w := _standing(seen, o))]
    found += [Problem(o.line, w) for o in listed if (w := _held_corner(seen, seat, o))]
    found += [Problem(o.line, w) for o in listed if (w := _dearer_market(seen, o))]
    found += [Problem(o.line, w) for o in listed if (w := _smith_twice(o))]
    found += _held(seen, listed, hand)
    return sorted(found, key=lambda p: p.line)


def _unpaid(seen: Seen, order: Order, hand: Cards) -> str | None:
    """A build or market trade the hand left by the orders before it cannot pay; what it can
    pay leaves the hand."""
    if order.verb == "MARKET":
        give, get = order.args[:2]
        rate = seen.rate(give)
        cost, gain = ({give: rate}, {get: 1}) if rate else ({}, {})
    elif order.verb in PAID:
        cost, gain = COSTS[PAID[order.verb]], {}
    else:
        return None
    if has(hand, cost):
        for good, n in cost.items():
            hand[good] -= n
        for good, n in gain.items():
            hand[good] = hand.get(good, 0) + n
        return None
    # Building: each build is paid to the market in the builder's own turn, after its roll.
    return (
        f"{order.verb} takes {cards_text(cost)}; after your orders before it you would be short "
        f"of {cards_text(missing(hand, cost))}: it fails unless your roll or a trade brings them"
    )


def _dearer_market(seen: Seen, order: Order) -> str | None:
    """A MARKET that names fewer cards than the market takes from the seat now: it fails unless
    an order before it (a village at a port, a Merchant, a Merchant Fleet) lowers the rate."""
    if order.verb != "MARKET" or len(order.args) != 3:
        return None
    give, most = order.args[0], order.args[2]
    rate = seen.rate(give)
    if rate is None or rate <= most:
        return None
    return f"the market takes {rate} {give} for one card from you now, not {most}: it fails unless a port or card before it lowers that"


def _smith_twice(order: Order) -> str | None:
    """A Smith naming one warrior twice: it upgrades two different warriors (the implementation
    offers the second from those left), so that warrior goes up one level, not two."""
    if order.verb != "PLAY" or order.args[0] != "smith" or len(order.args) < 3 or order.args[1] != order.args[2]:
        return None
    return f"the Smith upgrades two different warriors: the one at vertex {order.args[1]} goes up one level, not two"


def _standing(seen: Seen, order: Order) -> str | None:
    if order.verb == "ACCEPT":
        short = [o for o in seen.offers if o["id"] in order.args and not has(seen.hand, o["get"])]
        if short:
            # D-IM-8: an accepted offer is carried out in the offering seat's turn "if you both
            # still hold the cards".
            return (
                "; ".join(
                    f"offer #{o['id']} wants {cards_text(o['get'])} of you and you hold "
                    f"{cards_text(missing(seen.hand, o['get']))} too few now"
                    for o in short
                )
                + ": it is carried out only if you hold them by then"
            )
    if order.verb == "ROBBER" and order.args[0] == seen.robber:
        # Robber: "the current player must move the robber to a different tile".
        return (
            f"the robber stands on tile {order.args[0]} now and must move to a different tile: "
            "if it is still there when you roll a 7, gm chooses for you"
        )
    return None


def _held_corner(seen: Seen, seat: str, order: Order) -> str | None:
    """A VILLAGE or WARRIOR on a corner another player's warrior holds now: the check lets it
    stand, as that warrior may leave before the order runs (rule D-ALL-3)."""
    if order.verb not in ("VILLAGE", "WARRIOR"):
        return None
    owner = seen.warriors.get(str(order.args[0]))
    if owner is None or owner == seat:
        return None
    return (
        f"a warrior of {owner} stands on vertex {order.args[0]} now: {order.verb} "
        f"{order.args[0]} fails unless it leaves the corner before your turn"
    )


def _held(seen: Seen, orders: list[Order], hand: Cards) -> list[Problem]:
    found = []
    limit = seen.limit
    if hand_size(hand) > limit:
        # Robber: "Any player with more resources than the discard limit will have to discard half".
        found.append(
            Problem(
                0,
                f"after your orders you would still hold {hand_size(hand)} cards, more than "
                f"your limit of {limit}: a 7 rolled before your next turn costs you half",
            )
        )
    cards = seen.cards - sum(1 for o in orders if o.verb == "PLAY")
    if seen.mode == "wonders" and cards > ACTION_CARDS_HELD:
        found.append(
            Problem(
                0,
                f"you would keep {cards} action cards after your turn, more than "
                f"{ACTION_CARDS_HELD}: one goes back to the market",
            )
        )
    return found
