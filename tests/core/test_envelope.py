"""The turn-file envelope: decoding, header keywords, quoted text, comments, problems."""

from __future__ import annotations

import codecs

import pytest
from hypothesis import given, settings, strategies as st

from gm.core.envelope import TurnFileError, clean_line, decode_turn_file, read_envelope, wrap_envelope


def test_envelope_fields_any_case_and_text_around_is_ignored():
    text = (
        "Hi GM, my orders:\n\ngame g1\nPlayer br\nPASSWORD abcd-efgh\nTurn 3\n"
        "> GAME quoted-from-last-report\nmove ENG BEL 4   # all in\n\nEND\n-- \nAnn\nGAME not-this\n"
    )
    env = read_envelope(text)
    assert (env.game, env.player, env.password, env.turn) == ("g1", "BR", "abcd-efgh", 3)
    assert env.lines == ((8, "move ENG BEL 4"),)
    assert env.ok and not env.final


def test_final_line_marks_orders_final():
    env = read_envelope("GAME g\nPLAYER A\nPASSWORD p\nFINAL\nPASS\nEND\n")
    assert env.final and env.lines == ((5, "PASS"),)


@pytest.mark.parametrize(
    "text, message",
    [
        (
            "no orders here",
            "no turn file found: the orders must start with a line 'GAME <game name>' and end with 'END'",
        ),
        ("GAME g\nPLAYER A\nPASSWORD p\nPASS\n", "the turn file has no END line: put END after the last order"),
        ("GAME g\nPASSWORD p\nEND\n", "the turn file has no PLAYER line"),
        ("GAME g\nPLAYER A\nEND\n", "the turn file has no PASSWORD line"),
        ("GAME g\nPLAYER A\nPASSWORD p\nTURN seven\nEND\n", "TURN must be a number, not 'seven'"),
        ("GAME g h\nPLAYER A\nPASSWORD p\nEND\n", "GAME needs exactly one value, as in 'GAME clash-1'"),
    ],
)
def test_envelope_problems(text, message):
    assert message in [p.message for p in read_envelope(text).problems]


def test_an_order_form_not_filled_in_asks_for_the_secret():
    """Issue 30: the form's own PASSWORD <your secret> said "PASSWORD needs exactly one value"."""
    said = (
        "PASSWORD needs your secret, written in place of <your secret> (gm gave it to you with your seat), "
        "as in 'PASSWORD 7f3k-29qa'"
    )
    form = wrap_envelope("g1", "BR", 1, ["CLAIM ENG"])
    assert [(p.line, p.message) for p in read_envelope(form).problems] == [(3, said)]
    bare = form.replace("PASSWORD <your secret>", "PASSWORD")
    assert [(p.line, p.message) for p in read_envelope(bare).problems] == [(3, said)]


def test_decode_bom_utf16_and_latin1_and_nbsp():
    assert decode_turn_file(codecs.BOM_UTF16_LE + "GAME é".encode("utf-16-le")) == ("GAME é", "utf-16-le")
    assert decode_turn_file("GAME é".encode("latin-1")) == ("GAME é", "cp1252")
    assert decode_turn_file(codecs.BOM_UTF8 + b"GAME x") == ("GAME x", "utf-8")
    env = read_envelope("GAME\u00a0g\nPLAYER\u00a0A\nPASSWORD p\nEND")
    assert env.game == "g" and env.player == "A"


def test_decode_utf16_without_bom():
    text = "GAME g1\nPLAYER BR\nPASSWORD x\nEND\n"
    assert decode_turn_file(text.encode("utf-16-le")) == (text, "utf-16-le")
    assert decode_turn_file(text.encode("utf-16-be")) == (text, "utf-16-be")


def test_decode_refuses_binary_and_oversized():
    with pytest.raises(TurnFileError, match="not text"):
        decode_turn_file(b"\x89PNG\r\n\x1a\n\x00\x00")
    with pytest.raises(TurnFileError, match=r"too large \(10.0 MB\); a turn file may be at most 1.0 MB"):
        decode_turn_file(b"x" * 10_000_000)
    # A byte over would print "(1.0 MB); ... at most 1.0 MB": over is said in bytes.
    with pytest.raises(
        TurnFileError, match=r"too large \(1,000,001 bytes\); a turn file may be at most 1,000,000 bytes$"
    ):
        decode_turn_file(b"x" * 1_000_001)


def test_wrap_envelope_reads_back():
    text = wrap_envelope("g1", "BR", 4, ["# help", "PASS"], password="s3cr-et")
    env = read_envelope(text)
    assert (env.game, env.player, env.password, env.turn, env.lines) == ("g1", "BR", "s3cr-et", 4, ((6, "PASS"),))


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_read_envelope_never_raises(text):
    env = read_envelope(text)
    assert env.ok or env.problems


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=2000))
def test_decode_never_raises_anything_but_turn_file_error(data):
    try:
        text, encoding = decode_turn_file(data)
    except TurnFileError:
        return
    assert isinstance(text, str) and encoding


ODD_SPACES = {"\u00a0": " ", "\u2007": " ", "\u202f": " ", "\u3000": " ", "\t": " ", "\ufeff": ""}


@given(st.text(alphabet=st.sampled_from(["a", "Z", "1", " ", "#", "é", *ODD_SPACES]), max_size=40))
def test_a_line_is_cleaned_alike_on_the_ascii_shortcut_and_off_it(line):
    """clean_line skips the odd spaces' replacements on a line of ASCII without a tab: what it
    gives is still the line with each odd space made plain (a BOM dropped), cut at #, stripped."""
    plain = "".join(ODD_SPACES.get(c, c) for c in line)
    assert clean_line(line) == plain.split("#", 1)[0].strip()
    assert clean_line(f"MOVE\u00a0A\tB # {line}") == "MOVE A B"
