"""A ruleset's lines of a prefilled turn file, kept so they survive being copied out of a PDF."""

from __future__ import annotations

import re
from collections.abc import Sequence

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


def wrapped_comment(
    head: str, items: Sequence[str], indent: str = "#   ", separator: str = "", width: int = FORM_WIDTH
) -> list[str]:
    """`head item item ...` as comment lines of at most `width` characters, continuation lines
    starting with `indent` (an item too long for any line still gets one of its own).
    separator follows every item but the last: "," reads better for names with spaces."""
    lines, line, empty = [], head.rstrip(), True
    for number, item in enumerate(items, 1):
        piece = item + (separator if number < len(items) else "")
        if not empty and len(line) + 1 + len(piece) > width:
            lines.append(line)
            line = indent + piece
        else:
            line = f"{line} {piece}"
        empty = False
    return lines + [line]
