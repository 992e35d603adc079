"""counted(): one thing in the singular, any other number in the plural."""

from gm.core.words import counted


def test_counted():
    assert [counted(n, "file") for n in (0, 1, 2, 1204)] == ["0 files", "1 file", "2 files", "1,204 files"]
    assert [counted(n, "entry", "entries") for n in (1, 3)] == ["1 entry", "3 entries"]
