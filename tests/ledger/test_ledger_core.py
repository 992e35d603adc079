"""The pure books (gm/core/ledger.py): the discount rules of D-EMP-15 and every check's message."""

from __future__ import annotations

import dataclasses

from hypothesis import given, settings, strategies as st

from gm.core import ledger
from gm.core.ledger import Entry, Position, make_entry, position, purchase

DATE = "2026-11-21T12:00:00Z"
ANN = "ann@example.org"


def books(*steps) -> list[Entry]:
    """Entries from (kind, fields) steps for ANN, numbered and balanced as the service does."""
    out: list[Entry] = []
    for kind, fields in steps:
        fields = dict(fields)
        who = fields.pop("account", ANN)
        if kind == "purchase":
            out += purchase(
                len(out) + 1,
                DATE,
                who,
                position(out, who),
                fields["credits"],
                fields.get("money", 0),
                fields.get("game", "e1"),
                "pay",
            )
        else:
            out.append(make_entry(len(out) + 1, DATE, who, kind, position(out, who), **fields))
    return out


def test_a_payment_of_ten_adds_the_discount_once():
    entries = books(
        ("discount award", {"discount": 3, "game": "e1", "turn": 9}),
        ("purchase", {"credits": 10, "money": 2500}),
        ("purchase", {"credits": 25, "money": 6000}),
        ("purchase", {"credits": 9, "money": 2250}),
    )
    assert [(e.kind, e.credits, e.ref) for e in entries[1:]] == [
        ("payment", 10, None),
        ("bonus", 3, 2),
        ("payment", 25, None),
        ("bonus", 3, 4),
        ("payment", 9, None),
    ]
    assert position(entries, ANN) == Position(50, 3)
    assert ledger.check(entries, set()) == []


def test_awards_stop_at_ten():
    assert [ledger.award_for(have, 3) for have in (0, 7, 8, 10)] == [3, 3, 2, 0]
    assert ledger.bonus_for(10, 0) == 0 and ledger.bonus_for(10, 10) == 10


def test_check_names_each_fault_by_entry():
    good = books(
        ("purchase", {"credits": 10, "money": 2500}),
        ("turn charge", {"credits": -1, "game": "e1", "turn": 1, "seat": "FR"}),
    )
    assert ledger.check(good, {("e1", 1)}) == []
    tampered = [good[0], dataclasses.replace(good[1], balance=10)]
    assert [str(e) for e in ledger.check(tampered, {("e1", 1)})] == [
        "entry 2: balance 10 does not equal the sum of the entries of ann@example.org, 9"
    ]
    assert [str(e) for e in ledger.check(good, set())] == [
        "entry 2: a turn charge for e1 turn 1, which was never played"
    ]
    twice = list(good)
    twice.append(make_entry(3, DATE, ANN, "turn charge", Position(9, 0), credits=-1, game="e1", turn=1))
    assert [str(e) for e in ledger.check(twice, {("e1", 1)})] == [
        "entry 3: a second charge to ann@example.org for e1 turn 1"
    ]


def test_no_bonus_without_a_qualifying_payment():
    small = books(
        ("discount award", {"discount": 2, "game": "e0", "turn": 5}), ("purchase", {"credits": 5, "money": 1250})
    )
    small.append(make_entry(3, DATE, ANN, "bonus", position(small, ANN), credits=2, game="e1", ref=2))
    assert [str(e) for e in ledger.check(small, set())] == [
        "entry 3: a bonus without a qualifying payment: entry 2 bought 5 credits, fewer than 10"
    ]
    stray = [make_entry(1, DATE, ANN, "bonus", Position(), credits=2, game="e1")]
    assert [str(e) for e in ledger.check(stray, set())][0] == "entry 1: a bonus without a qualifying payment"


def test_discount_never_above_ten():
    entries = books(
        ("discount award", {"discount": 9, "game": "e1", "turn": 4}),
        ("discount award", {"discount": 3, "game": "e2", "turn": 4}),
    )
    assert [str(e) for e in ledger.check(entries, set())] == ["entry 2: discount 12 is above 10"]


def test_forfeit_takes_everything_and_reversals_undo_exactly():
    entries = books(
        ("discount award", {"discount": 3, "game": "e1", "turn": 4}), ("forfeit", {"discount": -2, "game": "e2"})
    )
    assert [str(e) for e in ledger.check(entries, set())] == [
        "entry 2: a forfeit takes the whole discount (3) and no credits"
    ]
    charge = books(
        ("turn charge", {"credits": -1, "game": "e1", "turn": 2}),
        ("adjustment", {"credits": 2, "ref": 1, "memo": "rerun"}),
    )
    assert [str(e) for e in ledger.check(charge, set())] == [
        "entry 2: a reversal of entry 1 must undo it exactly, for the same account"
    ]


def test_adjustments_need_a_reason_and_transfers_two_halves():
    entries = books(("adjustment", {"credits": 1, "memo": "  "}), ("transfer", {"credits": -1, "memo": "to bob"}))
    assert [str(e) for e in ledger.check(entries, set())] == [
        "entry 1: an adjustment needs a reason",
        "entry 2: a transfer without its other half",
    ]


# ----------------------------------------------------------------------------------------------
# Property: whatever happens, in whatever order, the books the rules make always check clean.

ACCOUNTS = [ANN, "bob@example.org", "cy@example.org"]
operation = st.one_of(
    st.tuples(st.just("pay"), st.sampled_from(ACCOUNTS), st.integers(1, 30)),
    st.tuples(st.just("turn"), st.sampled_from(["e1", "e2"]), st.sets(st.sampled_from(ACCOUNTS), min_size=1)),
    st.tuples(
        st.just("end"), st.sampled_from(["e1", "e2"]), st.dictionaries(st.sampled_from(ACCOUNTS), st.integers(1, 3))
    ),
    st.tuples(st.just("drop"), st.sampled_from(ACCOUNTS), st.none()),
)


@settings(max_examples=200)
@given(st.lists(operation, max_size=40))
def test_the_rules_keep_the_books_clean(operations):
    entries: list[Entry] = []
    played: set = set()
    turn = {"e1": 0, "e2": 0}

    def add(who, kind, **fields):
        entries.append(make_entry(len(entries) + 1, DATE, who, kind, position(entries, who), **fields))

    for op, target, arg in operations:
        if op == "pay":
            entries += purchase(len(entries) + 1, DATE, target, position(entries, target), arg, arg * 250, "e1", "pay")
        elif op == "turn":
            turn[target] += 1
            played.add((target, turn[target]))
            for who in sorted(arg):
                add(who, "turn charge", credits=-1, game=target, turn=turn[target])
        elif op == "end":
            for who, earned in sorted(arg.items()):
                given_ = ledger.award_for(position(entries, who).discount, earned)
                if given_:
                    add(who, "discount award", discount=given_, game=target, turn=turn[target])
        elif position(entries, target).discount:
            add(target, "forfeit", discount=-position(entries, target).discount, game="e1")
    assert ledger.check(entries, played) == []
    for who in ACCOUNTS:
        mine = [e for e in entries if e.account == who]
        assert position(entries, who).balance == sum(e.credits for e in mine)
        assert (mine[-1].balance if mine else 0) == position(entries, who).balance
        assert 0 <= position(entries, who).discount <= ledger.MAX_DISCOUNT


def test_a_reversal_of_an_award_takes_what_is_left_of_it():
    """A drop-out forfeited the award before a re-run reversed it: the reversal takes no more than
    the account held since (rule D-EMP-15: discounts stop at 0 as at 10), and no less."""
    award = ("discount award", {"discount": 3, "game": "e1", "turn": 4})
    forfeit = ("forfeit", {"discount": -3, "game": "e2"})
    later = ("discount award", {"discount": 2, "game": "e3", "turn": 9})
    assert [ledger.reversal_takes(3, low) for low in (5, 3, 1, 0)] == [3, 3, 1, 0]
    for taken, faults in [
        (0, []),
        (-2, ["entry 4: a reversal of entry 1 must undo it exactly, for the same account"]),
        (
            -3,
            [
                "entry 4: a reversal of entry 1 must undo it exactly, for the same account",
                "entry 4: discount -1 is below 0",
            ],
        ),
    ]:
        entries = books(award, forfeit, later, ("adjustment", {"discount": taken, "ref": 1, "memo": "rerun"}))
        assert [str(e) for e in ledger.check(entries, set())] == faults, taken
    kept = books(award, ("adjustment", {"discount": -3, "ref": 1, "memo": "rerun"}))
    assert ledger.check(kept, set()) == []


def test_a_reference_belongs_to_one_payment():
    entries = books(
        ("purchase", {"credits": 2, "money": 500}),
        ("purchase", {"credits": 3, "money": 750}),
        ("adjustment", {"credits": 1, "memo": "x", "reference": "R-2"}),
    )
    entries[0:2] = [dataclasses.replace(entries[0], reference="r-1"), dataclasses.replace(entries[1], reference="R-1")]
    assert [str(e) for e in ledger.check(entries, set())] == [
        "entry 2: payment reference R-1 was booked in entry 1 already",
        "entry 3: a reference on an entry of kind 'adjustment'; only payments carry one",
    ]


def test_a_wrong_balance_is_named_once_where_it_shows():
    """An entry edited or deleted puts every later balance of its account off by as much: the
    check named each of them, a screen of faults for one edit; it names the entry where the
    difference shows, once, with how many later entries carry it, and a new difference again."""
    entries = books(*[("purchase", {"credits": 2, "money": 500})] * 5)
    edited = [entries[0], dataclasses.replace(entries[1], credits=7), *entries[2:]]
    assert [str(e) for e in ledger.check(edited, set())] == [
        "entry 2: balance 4 does not equal the sum of the entries of ann@example.org, 9; the same difference "
        "carries on into 3 later entries of the account"
    ]
    gone = [entries[0], entries[2], entries[4]]  # entries 2 and 4 deleted: two differences
    assert [str(e) for e in ledger.check(gone, set())] == [
        "entry 3: balance 6 does not equal the sum of the entries of ann@example.org, 4",
        "entry 5: balance 10 does not equal the sum of the entries of ann@example.org, 6",
    ]
    stated = [entries[0], dataclasses.replace(entries[1], balance=9), *entries[2:]]  # one stated balance wrong
    assert [str(e) for e in ledger.check(stated, set())] == [
        "entry 2: balance 9 does not equal the sum of the entries of ann@example.org, 4"
    ]
