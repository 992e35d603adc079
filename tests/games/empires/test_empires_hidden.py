"""What the rules keep from a country never reaches another (D-ALL-5), by implication either:
the others' VP (11.3: only the leader's score is given) in what a possible-win warning says."""

from __future__ import annotations

from gm_games.empires import ruleset

from gm.core.model import SeatInfo
from gm.core.ruleset import TurnSeeds
from gm.render.environment import make_environment, render_report_html
from gm.rulesets import template_dirs
from gm.services.reports import _json_bytes
from gm.testing.reports import context_of

SEATS = ["AL", "BR", "CA"]


def warned(brega: int) -> dict[str, tuple[str, bytes]]:
    """Turn 2 of the duchies, no census, Alba leading with 30 VP and Caldor at 5: a knockout
    holds whatever Brega has, a runaway too when Brega has 15 but not 16. What Alba and Caldor
    receive after the turn: the report's HTML and its JSON twin."""
    scenario = ruleset.load_scenario(ruleset.scenario_text("duchies"), "duchies")
    state = ruleset.new_game(scenario, [SeatInfo(c, f"Player {c}") for c in SEATS], TurnSeeds(3, 0))
    state = ruleset.resolve(state, {c: [] for c in SEATS}, TurnSeeds(3, 1)).state
    state["census"]["turns"] = [4]
    state["vp"] = {"AL": 30, "BR": brega, "CA": 5}
    result = ruleset.resolve(state, {c: [] for c in SEATS}, TurnSeeds(3, 2))
    assert result.state["victory"]["holds"] == (["runaway", "knockout"] if brega == 15 else ["knockout"])
    env = make_environment(None, template_dirs(ruleset))
    seen = {}
    for seat in ("AL", "CA"):
        context = context_of(ruleset, state, result.state, result.events, seat, 2, SEATS)
        seen[seat] = (render_report_html(env, context), _json_bytes(context, "turn"))
    return seen


def test_the_warning_tells_no_country_whether_the_others_are_below_half_the_leader():
    # 11.6 gives "a warning ... when a possible win has been achieved"; naming the runaway would
    # tell Caldor that Brega has at most half of Alba's 30 VP.
    runaway, knockout = warned(15), warned(16)
    assert runaway == knockout
    assert "Possible win" in runaway["CA"][0] and "runaway" not in runaway["CA"][0]
