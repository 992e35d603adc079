"""A report context for any installed ruleset: its default scenario, robots' first turns, a seat's view."""

from __future__ import annotations

from gm.core.model import SeatInfo
from gm.core.ruleset import TurnSeeds
from gm.rulesets import get_ruleset
from gm.services.games import score_title
from gm.services.reports import seat_events
from gm.services.scores import score_rows
from gm.store.records import SeatRecord

SEATS = {"empires": 16, "conqueror": 8, "clash": 4}


def report_context(ruleset_name: str, seed: int = 3) -> dict:
    """Turn 1 played by robots; the context report.html reads, for the first seat."""
    return report_contexts(ruleset_name, seed)[0]


def report_contexts(ruleset_name: str, seed: int = 3, turns: int = 1) -> list[dict]:
    """`turns` turns played by robots; the context report.html reads of the last, for every seat."""
    ruleset = get_ruleset(ruleset_name)
    scenario = ruleset.load_scenario(ruleset.scenario_text(ruleset.default_scenario()), "default")
    seats = int(SEATS.get(ruleset_name, ruleset.demo_seats))
    codes = ruleset.seat_codes(scenario)[:seats]
    state = ruleset.new_game(scenario, [SeatInfo(c, f"Player {c}") for c in codes], TurnSeeds(seed, 0))
    for turn in range(1, turns + 1):
        seeds = TurnSeeds(seed, turn)
        orders = {s: ruleset.robot_orders(state, s, seeds.rng(f"robot:{s}")) for s in codes}
        before, result = state, ruleset.resolve(state, orders, seeds)
        state = result.state
    return [context_of(ruleset, before, state, result.events, seat, turns) for seat in codes]


def context_of(ruleset, before: dict, state: dict, events, seat: str, turn: int) -> dict:
    """The context report.html reads for `seat` after a turn played from `before` to `state`."""
    codes = list(state["seating"])
    view = ruleset.view(state, seat)
    seated = [SeatRecord(0, 0, c, f"{c.lower()}@example.org", f"Player {c}", "", "active") for c in codes]
    rows = score_rows(ruleset, state, view, seated)
    return {
        "game": {"name": f"{ruleset.name}-1", "title": view.get("title", ruleset.title), "ruleset": ruleset.name},
        "turn": turn,
        "turn_label": ruleset.turn_label(before),
        "next_label": ruleset.turn_label(state),
        "seat": seat,
        "player": f"Player {seat}",
        "deadline": "Fri 2026-11-27 18:00 UTC",
        "created": "2026-11-21T19:00:00Z",
        "view": view,
        "events": seat_events([e.to_json() for e in events], seat),
        "scores": rows,
        "score_title": score_title(ruleset, state),
        "order_form": "\n".join(ruleset.order_form(state, seat)),
        "outcome": None,
    }
