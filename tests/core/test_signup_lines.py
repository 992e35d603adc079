"""Reading a sign-up mail's JOIN, NAME and SEATS lines (gm/core/signup.py)."""

from __future__ import annotations

from hypothesis import given, strategies as st

from gm.core.signup import Join, read_join
from gm.core.slip import ALL, NEXT, Slip, read_slip


def test_join_with_name_and_seats():
    text = "Hi,\nJOIN clash-1   # please\nNAME  Ann   Example\nSEATS fr ge\n-- \nJOIN other\n"
    assert read_join(text) == (Join("clash-1", "Ann Example", ("FR", "GE")), None)


def test_prose_and_quotes_are_not_a_join():
    assert read_join("Join me in the next game?\n> JOIN clash-1\n") == (None, None)


def test_a_bad_join_says_what_to_write():
    join, problem = read_join("JOIN clash-1 now\n")
    assert join is None and problem.startswith("give one JOIN line with one game or ruleset: JOIN GAME")


@given(st.text())
def test_reading_never_raises(text):
    read_join(text)
    read_slip([(n, line) for n, line in enumerate(text.split("\n"), start=1)])


def test_slip_lines():
    slip, problems = read_slip([(4, "SLIP JOIN"), (5, "SLIP TRANSFER all TO Bob@Example.org")])
    assert (slip, problems) == (Slip(NEXT, True, False, "bob@example.org", ALL), [])
    slip, problems = read_slip([(4, "SLIP CARRY"), (5, "SLIP TRANSFER 3 TO b@x.org")])
    assert [p.line for p in problems] == [5] and slip.carry


def test_person_lines_are_read_in_capitals_from_the_writers_own_lines():
    from gm.core.person_lines import PersonLine, read_person_line

    assert read_person_line("Hello,\nRESIGN clash-1\nAnn") == (PersonLine("RESIGN", "clash-1"), None)
    assert read_person_line("FORGET ME") == (PersonLine("FORGET ME"), None)
    assert read_person_line("EXPORT\n-- \nEXPORT") == (PersonLine("EXPORT"), None)  # the signature is not read
    assert read_person_line("Resign? Never. Forget me not.\n> EXPORT") == (None, None)
    assert read_person_line("RESIGN")[1].startswith("give the game after RESIGN: ")
    assert read_person_line("EXPORT\nFORGET ME")[1].startswith("give one request in a mail: ")
