"""Press as written in a turn file: blocks, the one-line form, whom it reaches, what each reader sees."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from gm.core.envelope import read_envelope
from gm.core.press import PressDraft, addressed, addressee_text
from gm.intake.finding import find_turn_files
from gm.intake.letter import Text

HEAD = "GAME g1\nPLAYER BR\nPASSWORD p\n"


def test_a_block_keeps_its_lines_and_its_hash_and_is_not_an_order():
    env = read_envelope(HEAD + "CLAIM ENG\nPRESS TO fr, ge\nHello # not a comment\n\n  indented\nENDPRESS\nEND\n")
    assert env.lines == ((4, "CLAIM ENG"),)
    assert env.press == (PressDraft(5, ("FR", "GE"), False, "Hello # not a comment\n\n  indented"),)
    assert env.ok and not env.press_only


def test_one_line_form_broadcast_and_every_way_of_naming_seats():
    env = read_envelope(
        HEAD + "PRESS TO FR: meet at #3\nBROADCAST\nTo all.\nENDPRESS\n"
        "press to ge;it ge\nx\nEND PRESS\nPRESS TO ALL: hi\nEND\n"
    )
    assert [(d.line, d.to, d.everyone, d.text, d.problem) for d in env.press] == [
        (4, ("FR",), False, "meet at #3", None),
        (5, (), True, "To all.", None),
        (8, ("GE", "IT"), False, "x", None),
        (11, (), True, "hi", None),
    ]
    assert env.press_only


def test_quoted_lines_are_left_out_of_a_message_as_everywhere():
    env = read_envelope(HEAD + "PRESS TO FR\n> what FR wrote\nMy answer\nENDPRESS\nEND\n")
    assert env.press[0].text == "My answer"


@pytest.mark.parametrize(
    "body, problem",
    [
        (
            "PRESS\nhi\nENDPRESS\n",
            "say whom the press is for: PRESS TO FR,GE (or PRESS TO ALL), the message on the "
            "lines below, then ENDPRESS",
        ),
        (
            "PRESS FR\nhi\nENDPRESS\n",
            "say whom the press is for: PRESS TO FR,GE (or PRESS TO ALL), the message on the "
            "lines below, then ENDPRESS",
        ),
        ("PRESS TO ALL FR\nhi\nENDPRESS\n", "PRESS TO ALL goes to everyone: name no seats beside ALL"),
        ("BROADCAST TO FR\nhi\nENDPRESS\n", "BROADCAST goes to everyone: write it alone on its line"),
        (
            "PRESS TO FR\n\n\nENDPRESS\n",
            "the press has no text: write the message on the lines between PRESS and ENDPRESS",
        ),
        ("PRESS TO FR\nhi\n", "the press on line 4 has no ENDPRESS line: write ENDPRESS after the message"),
    ],
)
def test_a_message_written_wrong_has_a_problem_of_its_own(body, problem):
    env = read_envelope(HEAD + body + "END\n")
    assert [d.problem for d in env.press] == [problem]
    assert env.ok, "a bad press message never refuses the turn file"


def test_a_bare_end_inside_a_message_ends_the_file_and_cuts_the_message_short():
    env = read_envelope(HEAD + "PRESS TO FR\nThe end\nEND\nCLAIM ENG\nEND\n")
    assert env.press[0].text == "The end" and "no ENDPRESS" in env.press[0].problem
    assert env.lines == () and env.ok


def test_a_file_without_end_still_reports_the_open_message():
    env = read_envelope(HEAD + "PRESS TO FR\nhello")
    assert not env.ok and env.press[0].problem.endswith("write ENDPRESS after the message")


def test_final_and_absent_make_a_file_more_than_press():
    assert not read_envelope(HEAD + "FINAL\nPRESS TO FR: hi\nEND\n").press_only
    assert not read_envelope(HEAD + "ABSENT 2026-12-01 2026-12-03\nPRESS TO FR: hi\nEND\n").press_only
    assert not read_envelope(HEAD + "END\n").press_only


def test_mail_intake_finds_one_turn_file_whatever_the_message_says():
    text = HEAD + "PRESS TO FR\nGAME on!\ngame over\nEnd of story\nENDPRESS\nCLAIM ENG\nEND\n"
    found = find_turn_files([Text("body", "Hello\n" + text)])
    assert [f.text for f in found] == [text]
    assert read_envelope(found[0].text).press[0].text == "GAME on!\ngame over\nEnd of story"


SEATS = ["BR", "FR", "GE", "RU"]


@pytest.mark.parametrize(
    "draft, reached, problem",
    [
        (PressDraft(1, ("RU", "FR"), False, "x"), ("FR", "RU"), None),
        (PressDraft(1, (), True, "x"), ("FR", "GE", "RU"), None),
        (
            PressDraft(1, ("FR", "XX", "YY"), False, "x"),
            (),
            "there is no seat XX, YY in this game; its seats are BR, FR, GE, RU",
        ),
        (PressDraft(1, ("BR",), False, "x"), (), "BR is your own seat: press goes to the other seats"),
    ],
)
def test_whom_a_message_reaches(draft, reached, problem):
    assert addressed(draft, SEATS, "BR") == (reached, problem)


def test_the_gm_reaches_every_seat():
    assert addressed(PressDraft(0, (), True, "x"), SEATS, None) == (tuple(SEATS), None)


def test_anonymous_press_names_no_other_recipient_signed_press_names_them_all():
    assert addressee_text(["FR", "GE"], False, True, "FR") == "you, GE"
    assert addressee_text(["FR", "GE", "RU"], False, False, "FR") == "you and 2 other seats"
    assert addressee_text(["FR", "GE"], False, False, "FR") == "you and 1 other seat"
    assert addressee_text(["FR"], False, False, "FR") == "you"
    assert addressee_text(["FR", "GE"], False, False, None) == "FR, GE"  # the sender, the GM
    assert addressee_text(["FR", "GE"], True, False, "FR") == "everyone"


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "PRESS TO FR",
                "PRESS",
                "BROADCAST",
                "ENDPRESS",
                "END",
                "END PRESS",
                "PRESS TO:",
                "PRESS TO FR: x",
                "> q",
                "",
                "# c",
                "CLAIM ENG",
                "GAME g2",
                "PRESS TO ALL FR",
            ]
        )
        | st.text(max_size=20),
        max_size=12,
    )
)
def test_reading_press_never_raises_and_every_line_is_an_order_or_press_or_envelope(lines):
    env = read_envelope(HEAD + "\n".join(lines) + "\nEND\n")
    heads = {d.line for d in env.press}
    assert not heads & {n for n, _ in env.lines}
    assert all(d.problem or d.text.strip() for d in env.press)
