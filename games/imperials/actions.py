"""A player's building actions in their own turn, in the order written: roads, villages, towns and
buying action cards; playing them is play.py, the market and offers trade.py, the Wonders &
Warriors actions wonders.py and warriors.py. Each action checks what it needs when it comes to
run (rule D-ALL-3): an order that cannot run fails alone, with an event saying why (to its seat
alone, rule D-ALL-5), and changes nothing."""

from __future__ import annotations

from gm.core.model import Order

from .awards import longest
from .cards import TITLES
from .goods import COSTS, Cards, pay
from .places import road_problem, town_problem, village_problem
from .produce import reveal_fog
from .turn import Turn, voice


def build_road(turn: Turn, seat: str, order: Order, edge: str, free: bool = False) -> bool:
    state = turn.state
    problem = road_problem(state, turn.geo, seat, edge, voice(state, seat, you=False))
    problem = problem or (None if free else turn.lacks(seat, COSTS["road"]))
    if problem:
        turn.failed(seat, order, problem)
        return False
    if not free:
        pay(state, seat, COSTS["road"])
    state["roads"][edge] = seat
    turn.add(
        "road",
        f"{turn.name(seat)} builds a road on {edge}{' for free' if free else ''}.",
        seat=seat,
        edge=edge,
        free=free,
    )
    reveal_fog(turn, edge, seat)
    longest(turn)
    return True


def build_village(turn: Turn, seat: str, order: Order, vertex: int) -> None:
    state = turn.state
    problem = village_problem(state, turn.geo, seat, vertex, voice(state, seat, you=False))
    problem = problem or turn.lacks(seat, COSTS["village"])
    if problem:
        return turn.failed(seat, order, problem)
    pay(state, seat, COSTS["village"])
    state["buildings"][str(vertex)] = {"owner": seat, "kind": "village", "fence": False, "wonder": None}
    turn.add("village", f"{turn.name(seat)} builds a village at vertex {vertex}.", seat=seat, vertex=vertex)
    longest(turn)  # a village can interrupt another player's route


def build_town(turn: Turn, seat: str, order: Order, vertex: int, cost: Cards | None = None) -> None:
    state = turn.state
    cost = COSTS["town"] if cost is None else cost
    problem = town_problem(state, turn.geo, seat, vertex, voice(state, seat, you=False))
    problem = problem or turn.lacks(seat, cost)
    if problem:
        return turn.failed(seat, order, problem)
    pay(state, seat, cost)
    state["buildings"][str(vertex)]["kind"] = "town"
    turn.add(
        "town",
        f"{turn.name(seat)} makes the village at vertex {vertex} a town.",
        seat=seat,
        vertex=vertex,
        cost=dict(cost),
    )


def buy_card(turn: Turn, seat: str, order: Order) -> None:
    state = turn.state
    if not state["decks"]["basic"]:
        return turn.failed(seat, order, "the deck of action cards is empty")
    problem = turn.lacks(seat, COSTS["card"])
    if problem:
        return turn.failed(seat, order, problem)
    pay(state, seat, COSTS["card"])
    card = state["decks"]["basic"].pop(0)
    state["seats"][seat]["cards"].append({"card": card, "round": state["round"], "bought": True})
    turn.add("buy", f"{turn.name(seat)} buys an action card.", seat=seat)
    turn.add("card_drawn", f"You draw {TITLES[card]}.", (seat,), seat=seat, card=card)
