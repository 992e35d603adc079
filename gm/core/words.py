"""How a message counts things: "1 entry", "2 entries", never "1 entries"; and sizes against their limits."""

from __future__ import annotations


def counted(number: int, one: str, many: str | None = None) -> str:
    """'1 file', '3 files', '0 files'; `many` for a plural that is not `one` + 's' ('entries').
    The number as written (thousands with commas: '1,204 files')."""
    word = one if number == 1 else many if many is not None else one + "s"
    return f"{number:,} {word}"


def sizes_apart(size: int, limit: int, bytes_below: int = 0) -> tuple[str, str]:
    """A size and the limit it is weighed against, in words a reader can compare: in MB to one
    decimal ('2,000.0 MB'), in bytes under `bytes_below`, and both in bytes when they differ
    but would print the same ('2,000,000,001 bytes' past '2,000,000,000 bytes', never
    '2,000.0 MB' past '2,000.0 MB')."""
    shown = megabytes(size, bytes_below), megabytes(limit, bytes_below)
    if size != limit and shown[0] == shown[1]:
        return f"{size:,} bytes", f"{limit:,} bytes"
    return shown


def megabytes(size: int, bytes_below: int = 0) -> str:
    """'2,000.0 MB' (to one decimal); in bytes under `bytes_below` ('12,345 bytes')."""
    return f"{size / 1_000_000:,.1f} MB" if size >= bytes_below else f"{size:,} bytes"
