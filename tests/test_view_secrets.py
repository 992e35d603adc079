"""Property: whatever the players are called and however the game goes, no report (the view
and everything else a seat receives) holds any seat's secret."""

from __future__ import annotations

import json
import tempfile
from datetime import UTC, datetime
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

from gm.clock import FixedClock
from gm.home import Home, create_home
from gm.services import games, turns
from gm.services.reports import report_context
from gm.store import records
from gm.store.database import open_database

CLOCK = FixedClock(datetime(2026, 11, 21, 12, 0, tzinfo=UTC))
names = st.text(st.characters(blacklist_categories=("Cc", "Cs")), min_size=1, max_size=20).filter(str.strip)


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
