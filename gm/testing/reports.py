"""A seat's report of any ruleset without a GM home: robots play the first turns of its default
scenario, and the context report.html reads is built as gm builds it. gm's own tests hold their
rulesets' reports with it, and a plug-in's tests hold theirs, against golden files kept in the
plug-in (gm.testing.pytest_plugin's gm_golden).

    html = report_html(ruleset)                    # turn 1, the first seat, its own templates
"""

from __future__ import annotations

from gm.core.model import Event, JSONObject, SeatInfo
from gm.core.ruleset import Ruleset, TurnSeeds
from gm.render.environment import make_environment, render_report_html
from gm.rulesets import template_dirs
from gm.services.games import score_title
from gm.services.reports import seat_events
from gm.services.scores import score_rows
from gm.store.records import SeatRecord

DEADLINE = "Fri 2026-11-27 18:00 UTC"
CREATED = "2026-11-21T19:00:00Z"


def report_contexts(ruleset: Ruleset, seed: int = 3, turns: int = 1, seats: int | None = None) -> list[JSONObject]:
    """`turns` turns played by robots from the default scenario with `seats` seats (the
    ruleset's demo_seats by default); the context report.html reads of the last, every seat's."""
    scenario = ruleset.load_scenario(ruleset.scenario_text(ruleset.default_scenario()), "default")
    codes = ruleset.seat_codes(scenario)[: seats or ruleset.demo_seats]
    state = before = ruleset.new_game(scenario, [SeatInfo(c, f"Player {c}") for c in codes], TurnSeeds(seed, 0))
    events: tuple[Event, ...] = ()
    for turn in range(1, turns + 1):
        seeds = TurnSeeds(seed, turn)
        orders = {s: ruleset.robot_orders(state, s, seeds.rng(f"robot:{s}")) for s in codes}
        before, result = state, ruleset.resolve(state, orders, seeds)
        state, events = result.state, result.events
    return [context_of(ruleset, before, state, events, seat, turns, codes) for seat in codes]


def context_of(
    ruleset: Ruleset,
    before: JSONObject,
    state: JSONObject,
    events: tuple[Event, ...] | list[Event],
    seat: str,
    turn: int,
    codes: list[str],
) -> JSONObject:
    """The context report.html reads for `seat` after turn `turn`, played from `before` to
    `state`, of a game whose seats are `codes`."""
    view = ruleset.view(state, seat)
    seated = [SeatRecord(0, 0, c, f"{c.lower()}@example.org", f"Player {c}", "", "active") for c in codes]
    return {
        "game": {"name": f"{ruleset.name}-1", "title": view.get("title", ruleset.title), "ruleset": ruleset.name},
        "turn": turn,
        "turn_label": ruleset.turn_label(before),
        "next_label": ruleset.turn_label(state),
        "seat": seat,
        "player": f"Player {seat}",
        "deadline": DEADLINE,
        "created": CREATED,
        "view": view,
        "events": seat_events([e.to_json() for e in events], seat),
        "scores": score_rows(ruleset, state, view, seated),
        "score_title": score_title(ruleset, state),
        "order_form": "\n".join(ruleset.order_form(state, seat)),
        "order_grammar": grammar.to_json() if (grammar := ruleset.order_grammar(view, seat)) else None,
        "outcome": None,
    }


def report_html(ruleset: Ruleset, seed: int = 3, turns: int = 1, seat: int = 0, seats: int | None = None) -> str:
    """The HTML of a robot game's report (report_contexts), the `seat`-th seat's, rendered with
    gm's shared templates and the ruleset's own."""
    context = report_contexts(ruleset, seed, turns, seats)[seat]
    return render_report_html(make_environment(None, template_dirs(ruleset)), context)
