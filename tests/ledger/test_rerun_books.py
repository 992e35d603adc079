"""A re-run of a game's last turn through the books: its discount awards are reversed and given
again, never taking a discount below 0 nor counting an award twice in the end-of-game report."""

from __future__ import annotations

import sqlite3

from gm.services import credits, seats
from gm.store import ledger as books, records
from tests.cli.test_turnfiles import turn_file
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


def net_charges(home) -> list[tuple]:
    """Each seat's charge for each turn, all entries summed (a charge, its reversal, the new one)."""
    with sqlite3.connect(home / "gm.db") as conn:
        return conn.execute(
            "SELECT a.email, l.turn, l.seat, sum(l.credits) FROM ledger l JOIN accounts a ON a.id = l.account_id "
            "WHERE l.turn IS NOT NULL GROUP BY 1, 2, 3 HAVING sum(l.credits) != 0 ORDER BY 2, 3"
        ).fetchall()


def test_a_rerun_with_nothing_corrected_charges_the_seats_that_left_since_as_before(home, gm, game, tmp_path):
    """A seat whose player left after the re-run turn began (dropped out in it for missed orders,
    or resigned since) was played by that player in it: the re-run, nothing corrected, charges it
    to them as the first run did, so its books and every report (which says whether the turn was
    charged) come out byte for byte the same. They once came out free of charge."""
    assert gm("game", "set", "g1", "nmr-limit", "1", home=home).code == 0
    for code, claim in (("BR", "CLAIM ENG"), ("RU", "CLAIM SCO")):  # FR and GE miss turn 1 and drop out in it
        orders = tmp_path / f"{code}.txt"
        orders.write_text(turn_file(game[code], claim, seat=code))
        assert gm("submit", orders, home=home).code == 0
    assert gm("turn", "run", "g1", "--now", "--no-render", home=home).code == 0
    assert gm("seat", "resign", "g1", "BR", home=home).code == 0  # Ann leaves after turn 1
    first = net_charges(home)
    assert [(email, seat) for email, _, seat, _ in first] == [
        ("ann@example.org", "BR"),
        ("cy@example.org", "FR"),
        ("di@example.org", "GE"),
        ("bob@example.org", "RU"),
    ]
    ran = gm("turn", "rerun", "g1", "1", "--reason", "a check", "--yes", "--no-render", home=home)
    assert ran.code == 0, ran.err
    assert net_charges(home) == first
    assert gm("ledger", "check", home=home).code == 0
