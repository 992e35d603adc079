"""The press budget of a report (gm/core/press_budget.py): no sender prints more than its share in
lines or characters, the report no more than its whole, cut where the budget ends and never
out of order; where the cut falls depends only on what the reader may know of the senders."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from gm.core.press_budget import (
    HEAD_LINES,
    REPORT_CHARACTERS,
    REPORT_LINES,
    SENDER_CHARACTERS,
    SENDER_LINES,
    PressBudget,
    Printed,
    fit,
    measure,
)

SMALL = PressBudget(sender_lines=10, sender_characters=100, report_lines=16, report_characters=150)


def test_the_budget_numbers_are_those_the_docs_give():
    """README "Press and announcements" and docs/mail.md give these numbers to GMs and players."""
    assert (SENDER_LINES, SENDER_CHARACTERS, REPORT_LINES, REPORT_CHARACTERS) == (100, 6_000, 200, 12_000)
    assert PressBudget() == PressBudget(100, 6_000, 200, 12_000)


def test_messages_within_the_budget_are_printed_whole():
    printed = fit([("FR", "Shall we share Burgundy?"), ("GE", "No.\nNever."), ("FR", "Pity.")], SMALL)
    assert printed == [Printed("Shall we share Burgundy?", True), Printed("No.\nNever.", True), Printed("Pity.", True)]
    assert all(p.whole for p in printed)


def test_a_flood_of_one_character_lines_is_cut_at_the_senders_lines_and_nothing_more_of_it_follows():
    flood = "\n".join("x" * 50)
    printed = fit([("BR", flood), ("BR", "later"), ("FR", "Hello")], SMALL)
    assert printed[0] == Printed("\n".join("x" * (10 - HEAD_LINES)), True, 50 - 8, 99 - 15)
    assert not printed[0].whole
    assert printed[1] == Printed("", False, 1, 5)  # after a cut, none of that sender: never out of order
    assert printed[2] == Printed("Hello", True)  # the others still get their share


def test_one_long_line_is_cut_inside_at_the_senders_characters():
    printed = fit([("BR", "W" * 500), ("FR", "w" * 60)], SMALL)
    assert printed[0] == Printed("W" * 100, True, 0, 400)
    assert printed[1] == Printed("w" * 50, True, 0, 10)  # 150 in all for the report


def test_the_report_budget_stops_every_sender_once_spent():
    senders = [(code, "\n".join("y" * 4)) for code in ("BR", "FR", "GE", "RU", "IT")]
    printed = fit(senders, SMALL)
    assert [p.shown for p in printed] == [True, True, True, False, False]
    assert printed[2].text == "y\ny" and not printed[2].whole  # 6 + 6 lines of 16, then 2 and a head


def test_anonymous_press_shares_one_budget_whoever_wrote_it():
    """Where the cut falls must not tell the reader which anonymous messages came from one seat
    (D-ALL-5): every anonymous message spends the one "anonymous" budget."""
    printed = fit([("anonymous", "a" * 60), ("anonymous", "b" * 60), ("FR", "c")], SMALL)
    assert [p.text for p in printed] == ["a" * 60, "b" * 40, "c"]


def test_measure_counts_lines_and_characters():
    assert measure("") == (1, 0)
    assert measure("ab\ncd\n") == (3, 6)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["FR", "GE", "you", "anonymous", "the GM"]),
            st.text(alphabet=st.sampled_from("ab W\n漢\u0301"), max_size=400),
        ),
        max_size=30,
    )
)
def test_no_sender_and_no_report_ever_prints_past_the_budget(messages):
    printed = fit(messages, SMALL)
    spent: dict[str, list[int]] = {}
    for (sender, text), part in zip(messages, printed):
        assert text.startswith(part.text)
        if not part.shown:
            assert part.text == ""
            continue
        lines, characters = measure(part.text)
        spent.setdefault(sender, [0, 0])
        spent[sender][0] += lines + HEAD_LINES
        spent[sender][1] += characters
        assert (part.lines_left, part.characters_left) == (
            measure(text)[0] - lines,
            len(text) - characters,
        )
    for lines, characters in spent.values():
        assert lines <= SMALL.sender_lines and characters <= SMALL.sender_characters
    assert sum(s[0] for s in spent.values()) <= SMALL.report_lines
    assert sum(s[1] for s in spent.values()) <= SMALL.report_characters
    # A sender's messages print in order: none after one that was cut or left out.
    for sender in spent:
        flags = [p.whole for (s, _), p in zip(messages, printed) if s == sender]
        shown = [p.shown for (s, _), p in zip(messages, printed) if s == sender]
        first_short = next((i for i, whole in enumerate(flags) if not whole), len(flags))
        assert not any(shown[first_short + 1 :])
