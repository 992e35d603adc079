"""A ruleset's lines of a prefilled turn file, kept so they survive being copied out of a PDF."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence

from gm.core.model import Order, Problem

# Characters that fit the report's order-form box. A longer line wraps in the PDF and, copied
# out of it, its second half loses the '#' that made it a comment. The contract test holds it.
FORM_WIDTH = 84


# pdftotext (and PDF viewers that copy text the same way) reads a gap of three spaces or more
# as a column break: "#   TAXES 1 a gold" comes out as "#", a blank line and "TAXES 1 a gold",
# an order line. Two spaces stay inside the line, so a form never holds a longer run.
_WIDE_GAP = re.compile(r" {3,}")


def copyable(line: str) -> str:
    """A form line with every run of three or more spaces cut to two (and no trailing blanks):
    still indented to the eye, and one line again when copied out of the PDF."""
    return _WIDE_GAP.sub("  ", line.rstrip())


# Where a comment line breaks into pieces a player may copy on their own: two spaces or more
# (the gap that sets an example off, `# For example:  CLAIM ENG HOL BEL`), a colon or a
# semicolon. No order of any ruleset holds one of them.
_PIECE_BREAK = re.compile(r" {2,}|:\s+|;\s+")


def copy_pieces(lines: Sequence[str]) -> list[str]:
    """Every piece of a form's comment lines a player might copy out as an order line: each
    comment as it survives a copy (`copyable`), without its '#', split where two spaces, a colon
    or a semicolon break it, a full stop or comma at the end left off. The contract suite
    (gm.testing.suite.form_examples) calls a piece that reads as an order an example, and
    checks each one as the player would send it."""
    pieces = []
    for line in lines:
        text = copyable(line)
        if text.startswith("#"):
            pieces += [piece.strip().rstrip(".,") for piece in _PIECE_BREAK.split(text.lstrip("#"))]
    return [piece for piece in pieces if piece]


def wrapped_comment(
    head: str, items: Sequence[str], indent: str = "#   ", separator: str = "", width: int = FORM_WIDTH
) -> list[str]:
    """`head item item ...` as comment lines of at most `width` characters, continuation lines
    starting with `indent` (an item too long for any line still gets one of its own).
    separator follows every item but the last: "," reads better for names with spaces."""
    lines, line, empty = [], head.rstrip(), True
    for number, item in enumerate(items, 1):
        piece = item + (separator if number < len(items) else "")
        # The first item goes beside the head unless only a line of its own holds it.
        if len(line) + 1 + len(piece) > width and (not empty or len(indent) + len(piece) <= width):
            lines.append(line)
            line = indent + piece
        else:
            line = f"{line} {piece}"
        empty = False
    return lines + [line]


def spaced_examples(items: Sequence[str], indent: str = "#   ", width: int = FORM_WIDTH) -> list[str]:
    """Example orders as comment lines of at most `width` characters, two spaces between them
    (the gap copy_pieces breaks at), so that each copies out of the form on its own."""
    lines, line = [], ""
    for item in items:
        if line and len(line) + 2 + len(item) > width:
            lines.append(line)
            line = ""
        line = f"{line}  {item}" if line else indent + item
    return lines + ([line] if line else [])


def not_possible(reasons: Sequence[str]) -> list[str]:
    """The form's lines naming the order words that have no example now, each with why
    ("VILLAGE (no free corner at the end of your roads)"), a reason kept on one line where it
    fits and wrapped word by word where it does not (the check's words may be long); none when
    every word has its example."""
    pieces = []
    for number, reason in enumerate(reasons, 1):
        text = reason + ("," if number < len(reasons) else "")
        pieces += [text] if len(text) <= FORM_WIDTH - 4 else text.split()
    return wrapped_comment("# Not possible now:", pieces) if pieces else []


def first_example(
    candidates: Iterable[str],
    parse: Callable[[list[tuple[int, str]]], tuple[list[Order], list[Problem]]],
    check: Callable[[list[Order]], list[Problem]],
) -> tuple[str | None, str | None]:
    """The first candidate line that reads as one order (parse: the ruleset's parse_orders)
    which the GM's check passes (check: its check_orders for the reader now): an example a form
    may offer its reader, true when copied; and, when none is, what the check said of the first
    one it refused (None when there was none to try), for the form to say why."""
    refused = None
    for line in candidates:
        orders, problems = parse([(1, line)])
        if len(orders) != 1 or problems:
            continue
        said = check(orders)
        if not said:
            return line, None
        refused = refused or said[0].message
    return None, refused
