"""One bad message never stops the others: a turn file of tens of thousands of lines (well under the
1 MB a turn file may be) is refused whole before the ruleset reads a line of it. Each line is a
parse and, for a mistaken word, a "did you mean" search of the game's words (up to 0.4 ms); a file
of 88,000 mistaken lines took minutes, and intake took no other mail meanwhile."""

from __future__ import annotations

import random

import pytest

from gm.core.envelope import MOST_ORDER_LINES, read_envelope
from tests.intake.mails import mail, receive, rows, turn_file


def _junk(count: int) -> str:
    rng = random.Random(7)
    return "\n".join("".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") for _ in range(6)) + " 1 2" for _ in range(count))


def test_a_file_of_more_order_lines_than_the_limit_is_refused_unread(home, gm, mail_home, monkeypatch):
    lines = 40_000  # about 440 KB of mistakes
    raw = mail(turn_file(mail_home["BR"], _junk(lines)))
    ran = receive(gm, monkeypatch, raw, home)
    assert (ran.code, ran.err) == (0, "")
    assert (
        f"refused: line {4 + MOST_ORDER_LINES}: the turn file holds {lines:,} order lines; "
        f"gm reads at most {MOST_ORDER_LINES:,} in one file, so none of them was read"
    ) in ran.out, ran.out
    assert "answer: outbox 1" in ran.out and "Taken: 1 refused" in ran.out
    assert rows(home, "SELECT count(*) FROM submissions") == [(0,)]


@pytest.mark.parametrize("count", [MOST_ORDER_LINES, MOST_ORDER_LINES + 1])
def test_the_order_line_limit_is_a_number_of_lines(count):
    text = f"GAME g1\nPLAYER BR\nPASSWORD x\n{_junk(count)}\n# a comment is no order line\nEND\n"
    envelope = read_envelope(text)
    over = count > MOST_ORDER_LINES
    assert len(envelope.lines) == (0 if over else count)
    assert [p.line for p in envelope.problems] == ([4 + MOST_ORDER_LINES] if over else [])
