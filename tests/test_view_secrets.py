"""Property: whatever the players are called and however the game goes, no report (the view
and everything else a seat receives) holds any seat's secret."""

from __future__ import annotations

import json
import tempfile
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from gm.clock import FixedClock
from gm.core.ruleset import TurnSeeds
from gm.home import Home, create_home
from gm.rulesets import installed
from gm.services import games, turns
from gm.services.reports import report_context
from gm.store import records
from gm.store.database import open_database
from gm.testing.suite import Breach, HiddenCheck, new_game, robot_orders, scenario_of

CLOCK = FixedClock(datetime(2026, 11, 21, 12, 0, tzinfo=UTC))
# Any name gm seats: printable (gm.services.games.check_player), so no control, format,
# private-use, unassigned or separator character but the space.
names = st.text(
    st.characters(blacklist_categories=("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp", "Zs"), whitelist_characters=" "),
    min_size=1,
    max_size=20,
).filter(str.strip)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1), players=st.lists(names, min_size=2, max_size=4), turn_count=st.integers(1, 6))
def test_no_report_holds_a_secret(seed, players, turn_count):
    with tempfile.TemporaryDirectory() as folder:
        home = Home(Path(folder))
        create_home(home)
        db = open_database(home.database)
        games.create_game(db, CLOCK, "g", "clash", None, seed)
        secrets = [games.join_game(db, CLOCK, "g", f"p{i}@example.org", name)[1] for i, name in enumerate(players)]
        for _ in range(turn_count):
            turns.run_turn(db, home, CLOCK, "g")
        game = records.game_by_name(db, "g")
        ruleset, _ = games.game_ruleset(game)
        seats = records.seats_of(db, game.id)
        stored = records.turns_of(db, game.id, 0)
        for before, turn in zip(stored, stored[1:]):
            for seat in seats:
                context = report_context(game, ruleset, turn, seat, seats, None, before.state)
                text = json.dumps(context, ensure_ascii=False)
                assert not any(secret in text or secret.upper() in text for secret in secrets)
                assert json.loads(text)["view"]["seat"] == seat.code
        db.conn.close()


class VPTable:
    """Empires as it would be if its score table printed VP while the game runs."""

    def __init__(self, ruleset) -> None:
        self.ruleset = ruleset

    def __getattr__(self, name: str) -> object:
        return getattr(self.ruleset, name)

    def scores(self, state: dict) -> dict[str, int]:
        return dict(state["vp"])


def test_a_score_table_that_tells_a_seats_secret_breaks_the_contract():
    """D-ALL-5 and Empires 11.3: every report prints the score table, which report_context takes
    from the whole state, not from the view; the contract holds it to what every seat may know
    (a table of every country's VP, while only the leader's may be told, fails it)."""
    ruleset = installed()["empires"]
    scenario = scenario_of(ruleset, ruleset.default_scenario(), {})
    state, codes = new_game(ruleset, scenario, 4, 7)
    for turn in range(1, 7):  # past the first census (turn 3, 4 or 5): the countries have VP
        state = ruleset.resolve(state, robot_orders(ruleset, state, codes, 7, turn), TurnSeeds(7, turn)).state
    assert len(set(state["vp"].values())) > 1
    HiddenCheck(ruleset).check(state, codes, 7)  # the table gm ships keeps the secrets
    with pytest.raises(Breach, match="what only .* may know shows in the scores every report prints"):
        HiddenCheck(VPTable(ruleset)).check(state, codes, 7)
