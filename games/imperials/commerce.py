"""The trade (yellow) action cards of Wonders & Warriors, as the game's implementation plays them
(rule D-IM-10): Commercial Harbor, Master Merchant, Merchant, Merchant Fleet, Resource Monopoly
and Trade Monopoly; and the taking of one card kind from every other player that the Basic
Monopoly shares. Each effect says why it cannot start, or carries the card out. Where the
implementation asks another player to choose, that player's DISCARD answer chooses by mail."""

from __future__ import annotations

from collections.abc import Callable

from gm.core.model import JSONObject, Order

from .awards import points
from .board import Geometry
from .cards import TITLES
from .goods import COMMODITIES, GOODS, RESOURCES, YIELDS, cards_text, hand_from, hand_size
from .robber import richest
from .setup import order_of_play
from .turn import Turn

RESOURCE_MONOPOLY, TRADE_MONOPOLY = 2, 1  # the most each other player gives
MASTER_MERCHANT = 2  # cards taken


def others_after(turn: Turn, seat: str) -> list[str]:
    """The other seats in order of play after the seat."""
    sequence = order_of_play(turn.state)
    start = sequence.index(seat) if seat in sequence else 0
    return sequence[start + 1 :] + sequence[:start]


def collect(turn: Turn, seat: str, good: str, most: int | None) -> int:
    """Every other player gives the seat its cards of one kind, at most `most` each (None: all);
    public, as the implementation shows these cards moving. Returns how many came."""
    state = turn.state
    total = 0
    for other in others_after(turn, seat):
        held = state["seats"][other]["hand"][good]
        n = held if most is None else min(most, held)
        if n:
            hand_from(other, seat, state, {good: n})
            total += n
            turn.add("monopoly_gives", f"{turn.name(other)} gives {n} {good}.", seat=other, good=good, count=n, to=seat)
    return total


def _monopoly(card: str, most: int) -> Callable[[Turn, str, Order, str], None]:
    def effect(turn: Turn, seat: str, order: Order, good: str) -> None:
        total = collect(turn, seat, good, most)
        turn.add(
            "play",
            f"{turn.name(seat)} plays {TITLES[card]} on {good} (up to {most} from each player) and gets {total}.",
            seat=seat,
            card=card,
            good=good,
            count=total,
        )

    return effect


def preferred(state: JSONObject, seat: str, kinds: tuple[str, ...]) -> str | None:
    """The card of some kinds a seat parts with first: its DISCARD answer's first that it holds,
    else the kind it holds most of (book order on a tie); None when it holds none."""
    hand = state["seats"][seat]["hand"]
    for good in state["seats"][seat]["standing"].get("discard", []):
        if good in kinds and hand[good] > 0:
            return str(good)
    held = [g for g in kinds if hand[g] > 0]
    return max(held, key=lambda g: (hand[g], -GOODS.index(g))) if held else None


def harbor(turn: Turn, seat: str, order: Order, *gives: str) -> str | None:
    """Each other player who holds a commodity, in order of play, takes a resource of the seat's
    (the next one the order lists that it holds, else its biggest pile) and gives a commodity of
    its own choice, while the seat has resources to give."""
    state = turn.state
    hand = state["seats"][seat]["hand"]
    if not any(hand[r] for r in RESOURCES):
        return f"{turn.name(seat)} holds no resource to give"
    turn.add("play", f"{turn.name(seat)} plays Commercial Harbor.", seat=seat, card="harbor")
    listed = list(gives)
    for other in others_after(turn, seat):
        commodity = preferred(state, other, COMMODITIES)
        if commodity is None:
            continue
        give = next((g for g in listed if hand[g] > 0), None) or preferred(state, seat, RESOURCES)
        if give is None:
            break
        if give in listed:
            listed.remove(give)
        hand_from(seat, other, state, {give: 1})
        hand_from(other, seat, state, {commodity: 1})
        turn.add(
            "harbor_trade",
            f"{turn.name(seat)} gives {turn.name(other)} 1 {give} for 1 {commodity}.",
            seat=seat,
            partner=other,
            give={give: 1},
            get={commodity: 1},
        )
    return None


def richer(state: JSONObject, seat: str, others: list[str], strictly: bool) -> list[str]:
    """The others whose points everyone sees are above the seat's (or equal, not strictly)."""
    mine = points(state, seat, hidden=False)
    return [o for o in others if points(state, o, hidden=False) > mine - (0 if strictly else 1)]


def master_merchant(turn: Turn, seat: str, order: Order, target: str, *wanted: str) -> str | None:
    """Take 2 cards of the seat's choice from a player with more points who holds cards: those
    the order names while that player holds them, the rest at random (the implementation shows
    the hand to the taker; by mail the order names the cards blind)."""
    state = turn.state
    options = [o for o in richer(state, seat, others_after(turn, seat), strictly=True) if _holds(state, o)]
    if not options:
        return f"nobody with more points than {turn.name(seat)} holds a card"
    victim = target if target in options else richest(state, options)
    hand = state["seats"][victim]["hand"]
    taken: dict[str, int] = {}
    for good in wanted:
        if sum(taken.values()) < MASTER_MERCHANT and hand[good] > 0:
            hand_from(victim, seat, state, {good: 1})
            taken[good] = taken.get(good, 0) + 1
    while sum(taken.values()) < MASTER_MERCHANT and hand_size(hand):
        pile = [g for g in GOODS for _ in range(hand[g])]
        good = pile[turn.rng("theft").randrange(len(pile))]
        hand_from(victim, seat, state, {good: 1})
        taken[good] = taken.get(good, 0) + 1
    count = sum(taken.values())
    turn.add(
        "play",
        f"{turn.name(seat)} plays Master Merchant and takes {count} card(s) from {turn.name(victim)}.",
        seat=seat,
        card="mastermerchant",
        victim=victim,
        count=count,
    )
    turn.add(
        "cards_taken",
        f"The cards taken were {cards_text(taken)}.",
        (seat, victim),
        seat=seat,
        victim=victim,
        cards=taken,
    )
    return None


def _holds(state: JSONObject, seat: str) -> bool:
    return hand_size(state["seats"][seat]["hand"]) > 0


def merchant_tiles(state: JSONObject, geo: Geometry, seat: str) -> list[str]:
    """Where a seat may put the merchant: a tile of wood, brick, wool, wheat or ore, not under
    fog, with one of the seat's pieces (village, town or warrior) at a corner."""
    tiles = state["board"]["tiles"]
    mine = {int(v) for v, b in state["buildings"].items() if b["owner"] == seat}
    mine |= {int(v) for v, w in state["warriors"].items() if w["owner"] == seat}
    return [
        c for c in geo.tiles if tiles[c]["kind"] in YIELDS and not tiles[c]["fog"] and mine & set(geo.tile_vertices[c])
    ]


def merchant(turn: Turn, seat: str, order: Order, tile: str) -> str | None:
    """The merchant goes to a tile at the seat's pieces: while it is the seat's, 1 victory point
    and 2 of that tile's resource for 1 at the market. The next Merchant played moves it."""
    state = turn.state
    if tile not in merchant_tiles(state, turn.geo, seat):
        return f"tile {tile} is not a tile of wood, brick, wool, wheat or ore at one of {turn.name(seat)}'s pieces"
    before = state["merchant"]
    good = YIELDS[state["board"]["tiles"][tile]["kind"]]
    state["merchant"] = {"seat": seat, "tile": tile}
    lost = f"; {turn.name(before['seat'])} loses it" if before and before["seat"] != seat else ""
    turn.add(
        "play",
        f"{turn.name(seat)} plays Merchant and puts the merchant on tile {tile}: 2 {good} for 1 at the "
        f"market and 1 victory point while it stays{lost}.",
        seat=seat,
        card="merchant",
        tile=tile,
        good=good,
        lost=before["seat"] if before else None,
    )
    return None


def fleet(turn: Turn, seat: str, order: Order, good: str) -> None:
    """For the rest of the seat's turn the market takes 2 of the named card for 1."""
    state = turn.state
    goods = state["fleet"]["goods"] if state["fleet"] and state["fleet"]["seat"] == seat else []
    state["fleet"] = {"seat": seat, "goods": sorted({*goods, good}, key=GOODS.index)}
    turn.add(
        "play",
        f"{turn.name(seat)} plays Merchant Fleet: this turn the market takes 2 {good} for 1 from it.",
        seat=seat,
        card="fleet",
        good=good,
    )


EFFECTS: dict[str, Callable[..., str | None]] = {
    "harbor": harbor,
    "mastermerchant": master_merchant,
    "merchant": merchant,
    "fleet": fleet,
    "resourcemonopoly": _monopoly("resourcemonopoly", RESOURCE_MONOPOLY),
    "trademonopoly": _monopoly("trademonopoly", TRADE_MONOPOLY),
}
