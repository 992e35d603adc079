"""Wonders & Warriors: improvements and what they grant (strategic improvements, wonders, great
wonders), fences, action cards dealt and the limit of 4 in the hand. Warriors and the dragon are
in warriors.py, what each action card does in science.py, commerce.py and military.py."""

from __future__ import annotations

from gm.core.model import JSONObject, Order

from .cards import COLOUR_OF, SHOWN_POINTS, TITLES
from .goods import CARD_LIMIT, COMMODITY_FOR, COSTS, FENCE_LIMIT, IMPROVEMENT_LIMIT, Cards, cards_text, pay
from .places import pieces_of
from .turn import Turn

STRATEGIC = {"science": "granary", "trade": "guild", "military": "barracks"}
STRATEGIC_LEVEL, WONDER_LEVEL = 3, 4
# gm's choice: the card given back first when a hand holds too many, after the DROP answer's.
DROP_ORDER = (
    "inventor",
    "diplomat",
    "intrigue",
    "trademonopoly",
    "harbor",
    "fleet",
    "deserter",
    "saboteur",
    "wedding",
    "spy",
    "bishop",
    "mastermerchant",
    "engineer",
    "merchant",
    "irrigation",
    "mining",
    "smith",
    "warlord",
    "resourcemonopoly",
    "medicine",
    "crane",
    "roads",
    "alchemist",
)


def wrong_mode(turn: Turn, seat: str, order: Order) -> bool:
    if turn.wonders_mode:
        return False
    turn.failed(seat, order, "this is an order of Wonders & Warriors, not of the Basic game")
    return True


# ----------------------------------------------------------------------------------------------
# Improvements and wonders.


def free_towns(state: JSONObject, seat: str) -> list[int]:
    """A seat's towns that hold no wonder, in number order."""
    return [v for v in pieces_of(state, seat, "town") if not state["buildings"][str(v)].get("wonder")]


def improve(turn: Turn, seat: str, order: Order, colour: str, vertex: int) -> None:
    if wrong_mode(turn, seat, order):
        return
    problem = build_improvement(turn, seat, colour, vertex)
    if problem:
        turn.failed(seat, order, problem)


def improvement_problem(turn: Turn, seat: str, colour: str, discount: int = 0) -> str | None:
    """Why a seat cannot build its next improvement of a colour now (None if it can); discount:
    commodities the Crane saves (rule D-IM-10)."""
    state = turn.state
    level = state["seats"][seat]["improvements"][colour] + 1
    if not pieces_of(state, seat, "town"):
        return f"{turn.name(seat)} has no town; improvements need one"
    if level > IMPROVEMENT_LIMIT:
        return f"{colour} has all {IMPROVEMENT_LIMIT} improvements already"
    if _claims_wonder(state, seat, colour, level) and not free_towns(state, seat):
        return f"{turn.name(seat)} has no town without a wonder to hold one"
    return turn.lacks(seat, improvement_cost(state, seat, colour, discount))


def improvement_cost(state: JSONObject, seat: str, colour: str, discount: int = 0) -> Cards:
    """The n-th improvement of a colour costs n of its commodity (less the Crane's one)."""
    level = state["seats"][seat]["improvements"][colour] + 1
    return {COMMODITY_FOR[colour]: max(0, level - discount)}


def _claims_wonder(state: JSONObject, seat: str, colour: str, level: int) -> bool:
    wonder = state["wonders"][colour]
    return (level == WONDER_LEVEL and wonder is None) or (
        level == IMPROVEMENT_LIMIT and wonder is not None and not wonder["great"] and wonder["seat"] != seat
    )


def build_improvement(turn: Turn, seat: str, colour: str, vertex: int | None, discount: int = 0) -> str | None:
    """Build a seat's next improvement of a colour, or say why it cannot (nothing changes then)."""
    problem = improvement_problem(turn, seat, colour, discount)
    if problem:
        return problem
    state = turn.state
    me = state["seats"][seat]
    level = me["improvements"][colour] + 1
    town = None
    if _claims_wonder(state, seat, colour, level):
        towns = free_towns(state, seat)
        town = vertex if vertex in towns else towns[0]
    cost = improvement_cost(state, seat, colour, discount)
    pay(state, seat, cost)
    me["improvements"][colour] = level
    turn.add(
        "improve",
        f"{turn.name(seat)} builds {colour} improvement {level} for {cards_text(cost)}.",
        seat=seat,
        improvement=colour,
        level=level,
        cost=cost,
    )
    if level == STRATEGIC_LEVEL:
        turn.add(
            "strategic",
            f"{turn.name(seat)} now has the {STRATEGIC[colour]}.",
            seat=seat,
            improvement=colour,
            building=STRATEGIC[colour],
        )
    _wonder(turn, seat, colour, level, town)
    return None


def _wonder(turn: Turn, seat: str, colour: str, level: int, town: int | None) -> None:
    state = turn.state
    wonder = state["wonders"][colour]
    if town is not None:
        if wonder is not None:  # a great wonder takes the points of the plain one
            state["buildings"][wonder["town"]]["wonder"] = None
            turn.add(
                "wonder_lost",
                f"{turn.name(wonder['seat'])} loses the {colour} wonder and its 2 victory points.",
                seat=wonder["seat"],
                improvement=colour,
            )
        great = level == IMPROVEMENT_LIMIT
        state["wonders"][colour] = {"seat": seat, "great": great, "town": str(town)}
        state["buildings"][str(town)]["wonder"] = colour
        kind = "great wonder" if great else "wonder"
        turn.add(
            "wonder",
            f"{turn.name(seat)} builds the {colour} {kind} on its town at vertex {town}: 2 victory points.",
            seat=seat,
            improvement=colour,
            great=great,
            vertex=town,
        )
    elif level == IMPROVEMENT_LIMIT and wonder is not None and wonder["seat"] == seat and not wonder["great"]:
        wonder["great"] = True
        turn.add(
            "wonder",
            f"{turn.name(seat)}'s {colour} wonder becomes a great wonder: nobody can take it now.",
            seat=seat,
            improvement=colour,
            great=True,
            vertex=int(wonder["town"]),
        )


def fence(turn: Turn, seat: str, order: Order, vertex: int) -> None:
    if wrong_mode(turn, seat, order):
        return
    problem = fence_problem(turn, seat, vertex, free=False)
    if problem:
        return turn.failed(seat, order, problem)
    build_fence(turn, seat, vertex, free=False)


def fence_problem(turn: Turn, seat: str, vertex: int, free: bool) -> str | None:
    """Why a seat cannot fence its town at a vertex now (None if it can); free: the Engineer's."""
    state = turn.state
    building = state["buildings"].get(str(vertex))
    fences = sum(1 for b in state["buildings"].values() if b["owner"] == seat and b.get("fence"))
    if building is None or building["owner"] != seat or building["kind"] != "town":
        return f"vertex {vertex} is not a town of {turn.name(seat)}'s"
    if building.get("fence"):
        return f"the town at vertex {vertex} has a fence already"
    if fences >= FENCE_LIMIT:
        return f"{turn.name(seat)} has {FENCE_LIMIT} fences, the most a player may build"
    return None if free else turn.lacks(seat, COSTS["fence"])


def build_fence(turn: Turn, seat: str, vertex: int, free: bool) -> None:
    if not free:
        pay(turn.state, seat, COSTS["fence"])
    turn.state["buildings"][str(vertex)]["fence"] = True
    turn.add(
        "fence",
        f"{turn.name(seat)} builds a fence round its town at vertex {vertex}: it may hold 2 more cards on a seven.",
        seat=seat,
        vertex=vertex,
        free=free,
    )


# ----------------------------------------------------------------------------------------------
# Action cards from the event die, and the hand limit.


def give_card(turn: Turn, seat: str, colour: str, why: str, limit: bool = True) -> None:
    """A card of a colour's deck to a seat; limit=False leaves the hand limit to the caller (the
    event die deals every card first, as the implementation does)."""
    state = turn.state
    deck = state["decks"][colour]
    if not deck:
        turn.add(
            "deck_empty",
            f"{turn.name(seat)} would get a {colour} card ({why}), but that deck is empty.",
            seat=seat,
            improvement=colour,
        )
        return
    card = deck.pop(0)
    me = state["seats"][seat]
    if card in SHOWN_POINTS:
        me["shown_points"] += 1
        turn.add(
            "card_point",
            f"{turn.name(seat)} gets a {colour} card ({why}): {TITLES[card]}, 1 victory point, shown at once.",
            seat=seat,
            card=card,
            improvement=colour,
        )
        return
    me["cards"].append({"card": card, "round": state["round"], "bought": False})
    turn.add("card", f"{turn.name(seat)} gets a {colour} action card ({why}).", seat=seat, improvement=colour)
    turn.add("card_drawn", f"You get {TITLES[card]}.", (seat,), seat=seat, card=card)
    if limit and seat != turn.mover:
        hand_limit(turn, seat)


def hand_limit(turn: Turn, seat: str) -> None:
    """Outside its own turn a seat holds at most 4 action cards; the rest go back to the market."""
    me = turn.state["seats"][seat]
    while len(me["cards"]) > CARD_LIMIT:
        names = [c["card"] for c in me["cards"]]
        wanted = [c for c in me["standing"].get("drop", []) if c in names]
        card = wanted[0] if wanted else min(names, key=lambda c: DROP_ORDER.index(c) if c in DROP_ORDER else 99)
        me["cards"].remove(next(c for c in me["cards"] if c["card"] == card))
        turn.state["decks"][COLOUR_OF[card]].append(card)
        turn.add(
            "card_limit", f"{turn.name(seat)} holds more than {CARD_LIMIT} action cards and gives one back.", seat=seat
        )
        turn.add("card_dropped", f"You give back {TITLES[card]}.", (seat,), seat=seat, card=card)
