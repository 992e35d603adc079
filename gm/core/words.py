"""How a message counts things: "1 entry", "2 entries", never "1 entries"."""

from __future__ import annotations


def counted(number: int, one: str, many: str | None = None) -> str:
    """'1 file', '3 files', '0 files'; `many` for a plural that is not `one` + 's' ('entries').
    The number as written (thousands with commas: '1,204 files')."""
    word = one if number == 1 else many if many is not None else one + "s"
    return f"{number:,} {word}"
