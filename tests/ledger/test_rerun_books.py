"""A re-run of a game's last turn through the books: its discount awards are reversed and given
again, never taking a discount below 0 nor counting an award twice in the end-of-game report."""

from __future__ import annotations

from gm.services import credits, seats
from gm.store import ledger as books, records
from tests.ledger.test_books_property import CLOCK, PLAYERS, _turn, seated_games

ANN = PLAYERS[0]


def _two_games(tmp_path):
    db = seated_games(tmp_path)
    _turn(db, "e1", 1)
    _turn(db, "e1", 2, "BR", "runaway")  # e1 over: BR (ann) wins 3 bonus turns (H-1)
    return db


def test_a_rerun_of_the_last_turn_counts_its_award_once(tmp_path):
    db = _two_games(tmp_path)
    e1 = records.game_by_name(db, "e1")
    assert books.discount_awarded(db, e1.id, ANN) == 3
    _turn(db, "e1", 2, "BR", "runaway")  # gm turn rerun e1 2: the same end again
    assert books.discount_awarded(db, e1.id, ANN) == 3
    assert credits.account_position(db, ANN).discount == 3
    assert credits.check_books(db) == []


def test_a_rerun_after_a_drop_out_never_takes_the_discount_below_zero(tmp_path):
    db = _two_games(tmp_path)
    seats.drop_out(db, CLOCK, "e2", "BR")  # D-EMP-15: ann forfeits all 3, e1's award with them
    _turn(db, "e1", 2, "BR", "runaway")
    mine = credits.account_entries(db, ANN)
    assert min(e.discount_after for e in mine) == 0
    reversal = next(e for e in mine if e.kind == "adjustment" and e.discount <= 0 and e.credits == 0)
    assert (reversal.discount, reversal.memo) == (
        0,
        "reversal of entry 7: e1 turn 2 was discarded by gm turn rerun; 3 of its 3 bonus turns were forfeited since",
    )
    assert credits.check_books(db) == []
    assert books.discount_awarded(db, records.game_by_name(db, "e1").id, ANN) == 3
