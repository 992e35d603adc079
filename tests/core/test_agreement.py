"""The counting of draw and concession votes (gm/core/agreement.py, rule H-2) and the vote
lines of a turn file's envelope."""

from __future__ import annotations

from gm.core.agreement import Vote, is_vote, read_vote, settle
from gm.core.envelope import read_envelope
from gm.core.model import Problem

DRAW, TO_BR = Vote("draw"), Vote("concede", "BR")
BOTH = {"draw": "all", "concede": "all"}


def test_a_draw_needs_every_voter_and_is_shared_by_every_survivor():
    votes = {"BR": DRAW, "FR": DRAW}
    # GE is a robot's seat still in the game: it casts no vote, stops none, and shares the draw.
    agreed = settle(votes, ["BR", "FR"], ["BR", "FR", "GE"], BOTH)
    assert agreed == {"kind": "draw", "to": "", "winners": ["BR", "FR", "GE"], "voters": ["BR", "FR"], "rule": "all"}
    assert settle(votes, ["BR", "FR", "RU"], ["BR", "FR", "RU"], BOTH) is None
    assert settle(votes, ["BR", "FR"], ["BR", "FR"], {"draw": "off", "concede": "all"}) is None
    assert settle({}, [], ["GE"], BOTH) is None  # nobody left to vote: no agreement


def test_a_concession_needs_every_other_voter_to_name_the_same_seat():
    assert settle({"FR": TO_BR, "RU": TO_BR}, ["BR", "FR", "RU"], ["BR", "FR", "RU"], BOTH) == {
        "kind": "concede",
        "to": "BR",
        "winners": ["BR"],
        "voters": ["BR", "FR", "RU"],
        "rule": "all",
    }
    split = {"FR": TO_BR, "RU": Vote("concede", "FR")}
    assert settle(split, ["BR", "FR", "RU"], ["BR", "FR", "RU"], BOTH) is None
    assert settle({"FR": TO_BR, "RU": TO_BR}, ["FR", "RU"], ["FR", "RU"], BOTH) is None  # BR is out
    assert settle({"FR": TO_BR, "RU": TO_BR}, ["BR", "FR", "RU"], ["BR", "FR", "RU"], {"draw": "all"}) is None


def test_vote_lines_are_read_apart_from_the_orders():
    assert [is_vote(line) for line in ("DRAW", "no draw", "Concede br", "NO", "NOTE x", "DRAWN")] == [
        True,
        True,
        True,
        False,
        False,
        False,
    ]
    assert read_vote(4, "concede br") == (4, "concede", "BR")
    assert read_vote(4, "NO CONCEDE") == (4, "none", "")
    assert read_vote(4, "CONCEDE") == Problem(
        4, "CONCEDE needs the one seat you concede the game to, as in 'CONCEDE BR'"
    )
    envelope = read_envelope("GAME g1\nPLAYER BR\nPASSWORD x\nCLAIM ENG\nDRAW\nEND\n")
    assert envelope.vote == (5, "draw", "") and envelope.lines == ((4, "CLAIM ENG"),)
    twice = read_envelope("GAME g1\nPLAYER BR\nPASSWORD x\nDRAW\nCONCEDE FR\nEND\n")
    assert twice.problems == (Problem(5, "a turn file holds one vote; line 4 has one already"),)
