"""A seat's report JSON, read for its mail and its kit (gm.services.turn_kits.read_report): a file
gone, damaged or not a report gives the GM a clear message saying how to make it again, never a
traceback, and writes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from gm.errors import GMError
from gm.home import Home
from gm.services.turn_kits import read_report, write_kit


@pytest.mark.parametrize(
    "content",
    [None, b"", b"{not json", b"[1, 2, 3]", b'"a report"', b"\xff\xfe\x00garbage", b'{"a": NaN}'],
    ids=["gone", "empty", "damaged", "a list", "a string", "not utf-8", "NaN"],
)
def test_a_report_gone_or_damaged_is_a_clear_message_and_no_kit(tmp_path: Path, content: bytes | None) -> None:
    home = Home(tmp_path)
    path = Path("reports/g1/3/FR.json")
    if content is not None:
        (tmp_path / path).parent.mkdir(parents=True)
        (tmp_path / path).write_bytes(content)
    with pytest.raises(
        GMError,
        match=r"the report reports/g1/3/FR.json is missing or damaged; render it again with 'gm report render g1 --turn 3'",
    ):
        read_report(home, path, "'gm report render g1 --turn 3'")
    with pytest.raises(GMError, match="missing or damaged"):
        write_kit(home, path)
    assert not (tmp_path / path.with_suffix(".html")).exists()


def test_a_report_is_read_as_written(tmp_path: Path) -> None:
    home = Home(tmp_path)
    (tmp_path / "r.json").write_text('{"seat": "FR", "turn": 3, "names": ["Éire", "Ørsted"], "x": 0.00001}', "utf-8")
    assert read_report(home, "r.json") == {"seat": "FR", "turn": 3, "names": ["Éire", "Ørsted"], "x": 1e-05}
