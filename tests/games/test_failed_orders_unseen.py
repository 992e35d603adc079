"""Rule D-ALL-5 by difference: "an order that fails for want of something is reported to its own
seat only with the reason; the others see only what happened on the board (nothing, for a failed
order)". In robot games of Imperials, Minecraft EMPIRES, Empires and Conqueror!, each turn is
played again with one seat's orders followed by orders that fail (for want of cards, E$, BPs,
gold or armies, or against the board), and every other seat must receive exactly what it
received without them: its view, the events it reads, the scores and labels every report
prints, and its order form. Not only the failure's own event: a failed order may not move a
counter (an offer's number, a group's), an order of events or a total that another seat sees.
(Clash of Empires is not here: a seat has one action a round, and one that fails is the book's
"nothing", which a seat sending no action would not be: it passes.)"""

from __future__ import annotations

import json

import pytest

from gm.core.model import Event, Order
from gm.core.ruleset import Ruleset, TurnSeeds
from gm.rulesets import installed
from gm.services.reports import seat_events
from gm.testing.suite import new_game, robot_orders, scenario_of

TURNS = 8
SEED = 9


def imperials_failing(state: dict, seat: str) -> list[str]:
    """Orders that fail whatever the seat holds: an offer of 30 wool (the bank has 24; its reason
    says how many wool the seat lacks), a town on another's village or a free corner, a village
    on a taken corner, a road on a taken edge, a withdrawal of no offer."""
    taken = sorted(int(v) for v in state["buildings"])
    mine = {int(v) for v, b in state["buildings"].items() if b["owner"] == seat}
    other = next((v for v in taken if v not in mine), taken[0])
    road = next(iter(state["roads"]), None)
    listed = [
        "OFFER ALL 30 wool FOR 1 ore",
        f"TOWN {other}",
        f"VILLAGE {taken[0]}",
        "WITHDRAW 999",
    ]
    return listed + ([f"ROAD {road}"] if road else [])


def mcempires_failing(state: dict, seat: str) -> list[str]:
    """Orders that fail whatever the empire holds: a payment of more E$ than any game has, an
    acceptance of a proposal nobody made, a group that is not there, land past the world's edge."""
    other = next(code for code in state["seats"] if code != seat)
    return [
        f"PAY {other} 999999",
        f"ACCEPT PEACE {other}",
        f"ACCEPT ALLY {other}",
        "MOVE G9999 1,1",
        "LAND 0,0 159,159",
    ]


def empires_failing(state: dict, seat: str) -> list[str]:
    """Orders that fail whatever the country holds: a gift and a reserve past any treasury, and a
    move of more armies than a game has (its reason says how many are there)."""
    other = next(code for code in state["seating"] if code != seat)
    mine = sorted(code for code, area in state["areas"].items() if area["owner"] == seat)
    near = next(n for n in state["scenario"]["areas"] if n["code"] == mine[0])["neighbours"]
    return [f"14 GIFT - {other} 999999", f"15 RESERVE {mine[0]} - 999999", f"16 MOVE {mine[0]} {near[0]} 999999"]


def conqueror_failing(state: dict, seat: str) -> list[str]:
    """Orders that fail whatever the nation holds, outside the order stacks (whose draw counts
    every move, a failed one too): a rush-buy past any treasury, a castle without a keep."""
    mine = sorted(code for code, province in state["provinces"].items() if province["owner"] == seat)
    return [f"BUY {mine[0]} 999999", f"PRODUCE {mine[-1]} CASTLE"]


FAILING = {
    "imperials": imperials_failing,
    "mcempires": mcempires_failing,
    "empires": empires_failing,
    "conqueror": conqueror_failing,
}


def parsed(ruleset: Ruleset, lines: list[str]) -> list[Order]:
    orders, problems = ruleset.parse_orders(list(enumerate(lines, 900)))
    assert not problems, problems
    return orders


def received(ruleset: Ruleset, state: dict, events: list[Event], seat: str) -> tuple[str, ...]:
    """Everything of the turn's result that reaches the seat: report_context's parts."""
    return (
        json.dumps(ruleset.view(state, seat), sort_keys=True),
        json.dumps(seat_events([e.to_json() for e in events], seat), sort_keys=True),
        json.dumps([ruleset.scores(state), ruleset.score_label(state), ruleset.turn_label(state)], sort_keys=True),
        ruleset.order_form(state, seat),
    )


def failures(events: list[Event], seat: str) -> int:
    return sum(1 for e in events if e.kind == "order_failed" and e.data.get("seat") == seat)


@pytest.mark.parametrize(
    ("name", "options"),
    [("imperials", {}), ("imperials", {"mode": "wonders"}), ("mcempires", {}), ("empires", {}), ("conqueror", {})],
)
def test_an_order_that_fails_leaves_nothing_another_seat_receives(name, options):
    ruleset = installed()[name]
    state, codes = new_game(ruleset, scenario_of(ruleset, ruleset.default_scenario(), options), 4, SEED)
    compared, setup = 0, 0
    while state["phase"] != "play":  # Imperials' set-up rounds place pieces; the play starts after
        setup += 1
        state = ruleset.resolve(state, robot_orders(ruleset, state, codes, SEED, setup), TurnSeeds(SEED, setup)).state
    for turn in range(setup + 1, setup + TURNS + 1):
        seeds = TurnSeeds(SEED, turn)
        orders = robot_orders(ruleset, state, codes, SEED, turn)
        played = ruleset.resolve(state, orders, seeds)
        for failing in codes:
            extra = parsed(ruleset, FAILING[name](state, failing))
            result = ruleset.resolve(state, {**orders, failing: [*orders[failing], *extra]}, seeds)
            # Every extra order failed, each with its reason to its own seat: nothing else moved.
            assert failures(result.events, failing) == failures(played.events, failing) + len(extra)
            for seat in codes:
                if seat != failing:
                    compared += 1
                    assert received(ruleset, result.state, result.events, seat) == received(
                        ruleset, played.state, played.events, seat
                    ), f"turn {turn}: {failing}'s failed orders show in what {seat} receives"
            assert received(ruleset, result.state, result.events, failing) != received(
                ruleset, played.state, played.events, failing
            ), f"turn {turn}: {failing} reads nothing of its own failed orders"
        state = played.state
    assert compared == TURNS * len(codes) * (len(codes) - 1)
