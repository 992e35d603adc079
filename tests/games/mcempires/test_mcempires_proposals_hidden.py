"""Rule D-ALL-5 for proposals: "a proposal is seen by the two empires it concerns only" (README,
"Seen and hidden"). hidden_variant changes one empire's standing orders and capital site, not
its proposals (a proposal is two empires' secret, so another seat's view would change with it),
so this holds what the contract's check cannot: a proposal between Red and Blue changes nothing
Yellow receives, neither its view and order form, nor the check's answers and warnings to its
own diplomatic orders, nor what it reads after the round is played."""

from __future__ import annotations

import copy
import json

from gm_games.mcempires import ruleset

from gm.core.model import SeatInfo
from gm.core.ruleset import TurnSeeds
from gm.services.reports import seat_events
from gm.testing.suite import scenario_of

YELLOWS = [
    "ACCEPT ALLY RE",
    "ACCEPT ALLY BL",
    "ACCEPT BORDERS RE",
    "ACCEPT BORDERS BL",
    "ALLY RE",
    "ALLY BL",
    "BORDERS RE BOTH",
    "BORDERS BL MINE",
]


def started() -> dict:
    """Red, Blue and Yellow after round 1, with open borders and alliances (optional rules)."""
    scenario = scenario_of(ruleset, "testbed", {"borders": True, "alliances": True})
    state = ruleset.new_game(scenario, [SeatInfo(c, f"Player {c}") for c in ("RE", "BL", "YE")], TurnSeeds(1, 0))
    return ruleset.resolve(state, {}, TurnSeeds(1, 1)).state


def with_proposals(state: dict) -> dict:
    """Red's proposals of last round to Blue, and Blue's to Red: due for an answer this round."""
    state = copy.deepcopy(state)
    last = state["round"] - 1
    state["proposals"] += [
        {"from": "RE", "to": "BL", "kind": "ally", "terms": None, "round": last},
        {"from": "BL", "to": "RE", "kind": "borders", "terms": "BOTH", "round": last},
    ]
    return state


def yellow_receives(state: dict) -> tuple[str, ...]:
    orders, problems = ruleset.parse_orders(list(enumerate(YELLOWS, 1)))
    assert not problems
    result = ruleset.resolve(state, {"YE": orders}, TurnSeeds(1, state["round"]))
    return (
        json.dumps(ruleset.view(state, "YE"), sort_keys=True),
        ruleset.order_form(state, "YE"),
        repr(ruleset.check_orders(state, "YE", orders)),
        repr(ruleset.order_warnings(state, "YE", orders)),
        json.dumps(seat_events([e.to_json() for e in result.events], "YE"), sort_keys=True),
        json.dumps(ruleset.view(result.state, "YE"), sort_keys=True),
    )


def test_a_proposal_between_two_empires_reaches_no_third():
    state = started()
    proposed = with_proposals(state)
    assert yellow_receives(proposed) == yellow_receives(state)
    # Blue, whom Red's proposal concerns, does read it (the check above looked at something).
    assert ruleset.view(proposed, "BL")["proposals"] != ruleset.view(state, "BL")["proposals"]
    # Yellow's acceptances fail as for any proposal never made, in Yellow's report alone.
    orders, _ = ruleset.parse_orders(list(enumerate(YELLOWS, 1)))
    reasons = [p.message for p in ruleset.check_orders(proposed, "YE", orders)]
    assert any("made no ally proposal to" in r for r in reasons), reasons
