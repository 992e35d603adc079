"""Property: random payments, turns, game ends, drop-outs, resignations and reruns through the
store always leave books that `gm ledger check` passes, with balances equal to their sums."""

from __future__ import annotations

import tempfile
from datetime import UTC, datetime
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

from gm.clock import FixedClock
from gm.core import ledger
from gm.core.model import Outcome
from gm.services import credits, games, seats, turn_charges
from gm.store import records
from gm.store.database import open_database, transaction

CLOCK = FixedClock(datetime(2026, 11, 21, 12, tzinfo=UTC))
NOW = "2026-11-21T12:00:00Z"
PLAYERS = ["ann@example.org", "bob@example.org", "cy@example.org"]
GAMES = ["e1", "e2"]

operation = st.one_of(
    st.tuples(st.just("pay"), st.sampled_from(PLAYERS), st.integers(1, 25), st.sampled_from([None, *GAMES])),
    st.tuples(st.just("turn"), st.sampled_from(GAMES), st.none(), st.none()),
    st.tuples(
        st.just("end"),
        st.sampled_from(GAMES),
        st.sampled_from(["runaway", "knockout", "points"]),
        st.sampled_from(["BR", "RU", "FR"]),
    ),
    st.tuples(st.just("drop"), st.sampled_from(GAMES), st.sampled_from(["BR", "RU", "FR"]), st.booleans()),
    st.tuples(st.just("rerun"), st.sampled_from(GAMES), st.none(), st.none()),
)


def _store_fake_turn(db, game, number: int) -> None:
    db.execute("DELETE FROM turns WHERE game_id = ? AND number >= ?", [game.id, number])
    db["turns"].insert(
        {
            "game_id": game.id,
            "number": number,
            "seed": 1,
            "ruleset_version": "x",
            "orders": "{}",
            "events": "[]",
            "state": "{}",
            "state_hash": "",
            "resolved": NOW,
        }
    )


def _turn(db, name: str, number: int, winner: str | None = None, condition: str | None = None) -> None:
    game = records.game_by_name(db, name)
    codes = [s.code for s in records.seats_of(db, game.id)]
    final = {"victory": {"condition": condition}} if winner else {}
    with transaction(db):
        _store_fake_turn(db, game, number)
        turn_charges.settle_turn(
            db,
            game,
            number,
            {c: {"by": "robot"} for c in codes},
            {},
            final,
            Outcome((winner,), "won", {}) if winner else None,
            NOW,
        )
        db.execute(
            "UPDATE games SET turn = ?, status = ? WHERE id = ?", [number + 1, "over" if winner else "running", game.id]
        )


def seated_games(folder: Path):
    """A database with the clash games GAMES, each seating PLAYERS as BR, RU and FR."""
    db = open_database(folder / "gm.db")
    for name in GAMES:
        games.create_game(db, CLOCK, name, "clash", None, 1)
        for email in PLAYERS:
            games.join_game(db, CLOCK, name, email, email.split("@")[0])
    return db


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(operation, max_size=25))
def test_the_books_always_balance(operations):
    with tempfile.TemporaryDirectory() as folder:
        db = seated_games(Path(folder))
        for op, target, a, b in operations:
            game = records.game_by_name(db, target) if op != "pay" else None
            if op == "pay":
                credits.buy(db, CLOCK, target, a, a * 250, b)
            elif game.status == "over":
                continue
            elif op == "turn":
                _turn(db, target, game.turn)
            elif op == "end":
                _turn(db, target, game.turn, b, a)
            elif op == "drop":
                seat = records.seat_by_code(db, game, a)
                if seat.status == "active":
                    (seats.resign(db, CLOCK, target, a, True) if b else seats.drop_out(db, CLOCK, target, a))
            elif op == "rerun" and game.turn > 2:
                _turn(db, target, game.turn - 2)
        assert credits.check_books(db) == []
        for email in PLAYERS:
            mine = credits.account_entries(db, email)
            position = credits.account_position(db, email)
            assert position.balance == sum(e.credits for e in mine) == (mine[-1].balance if mine else 0)
            assert 0 <= position.discount <= ledger.MAX_DISCOUNT
            played = {
                (g, n) for g, n in db.execute("SELECT g.name, t.number FROM turns t JOIN games g ON g.id = t.game_id")
            }
            reversed_ = {e.ref for e in mine if e.kind == "adjustment" and e.ref}
            assert {(e.game, e.turn) for e in mine if e.kind == "turn charge" and e.number not in reversed_} <= played
        db.conn.close()
