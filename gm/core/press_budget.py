"""How much press one report prints: a budget in lines and characters, per sender and in all.

A report prints the press its seat received and sent in one turn. Printed whole, one player's
50 messages of 5,000 one-character lines made every report of a game 2,255 pages (issue 29). So
a report prints at most SENDER_LINES lines and SENDER_CHARACTERS characters of any one sender's
press, and at most REPORT_LINES and REPORT_CHARACTERS in all; the rest is in the reader's mail
and on the portal, and the report says so. Lines bound the short lines, characters the long
ones (a printed line holds at least LINE_CHARACTERS characters, even of the widest letters), so
the press of a report never prints more than about REPORT_LINES + REPORT_CHARACTERS /
LINE_CHARACTERS lines (bench/README.md, "press in a report").

The budget is spent in the order the messages were sent. "A sender" is what the reader knows of
one: a seat of signed press, "you", the GM, or all anonymous press together, so where the cut
falls tells the reader nothing the rules keep from it (D-ALL-5).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

SENDER_LINES = 100
SENDER_CHARACTERS = 6_000
REPORT_LINES = 200
REPORT_CHARACTERS = 12_000
# A message's head (who wrote to whom, when) and the space after it, in lines.
HEAD_LINES = 2
# The fewest characters a printed line of press holds (DejaVu Sans 9.5 pt on A4: 52 W's).
LINE_CHARACTERS = 52


@dataclass(frozen=True)
class PressBudget:
    """The most press one report prints: lines and characters of one sender, and of all."""

    sender_lines: int = SENDER_LINES
    sender_characters: int = SENDER_CHARACTERS
    report_lines: int = REPORT_LINES
    report_characters: int = REPORT_CHARACTERS


@dataclass(frozen=True)
class Printed:
    """What a report prints of one message.

    text: the part printed, whole lines from the start (a line longer than what is left is cut
        inside); "" when nothing is printed.
    shown: the message is in the report at all (its head, and `text`).
    lines_left, characters_left: how much of it is not printed (0, 0 when printed whole).
    """

    text: str
    shown: bool
    lines_left: int = 0
    characters_left: int = 0

    @property
    def whole(self) -> bool:
        return self.shown and not self.lines_left and not self.characters_left


def measure(text: str) -> tuple[int, int]:
    """(lines, characters) of a message's text."""
    return text.count("\n") + 1, len(text)


def fit(messages: Sequence[tuple[str, str]], budget: PressBudget = PressBudget()) -> list[Printed]:
    """What a report prints of each message, given as (sender as the reader knows it, text) in
    the order sent: each whole while its sender's budget and the report's allow, then the one
    that crosses a limit cut there, then nothing more of that sender (or of anyone, once the
    report's budget is spent)."""
    spent: dict[str, tuple[int, int]] = {}
    total_lines, total_characters = 0, 0
    printed = []
    for sender, text in messages:
        lines, characters = spent.get(sender, (0, 0))
        room_lines = min(budget.sender_lines - lines, budget.report_lines - total_lines) - HEAD_LINES
        room_characters = min(budget.sender_characters - characters, budget.report_characters - total_characters)
        done = _cut(text, room_lines, room_characters)
        printed.append(done)
        if done.shown:
            used_lines, used_characters = measure(done.text)
            used_lines += HEAD_LINES
            spent[sender] = (lines + used_lines, characters + used_characters)
            total_lines, total_characters = total_lines + used_lines, total_characters + used_characters
        if not done.whole:  # nothing after a cut: a reader never gets a later message before an earlier one
            spent[sender] = (budget.sender_lines, budget.sender_characters)
    return printed


def _cut(text: str, room_lines: int, room_characters: int) -> Printed:
    """The most of `text` that fits in the room: whole lines first, then part of the next."""
    lines, characters = measure(text)
    if lines <= room_lines and characters <= room_characters:
        return Printed(text, True)
    if room_lines < 1 or room_characters < 1:
        return Printed("", False, lines, characters)
    kept: list[str] = []
    left = room_characters
    for line in text.split("\n")[:room_lines]:
        if len(line) + (1 if kept else 0) > left:
            part = line[: max(left - (1 if kept else 0), 0)]
            if part:
                kept.append(part)
            break
        kept.append(line)
        left -= len(line) + (1 if len(kept) > 1 else 0)
    shown = "\n".join(kept)
    if not shown:
        return Printed("", False, lines, characters)
    shown_lines, shown_characters = measure(shown)
    return Printed(shown, True, lines - shown_lines, characters - shown_characters)
