"""Real-world mail shapes: each message ends accepted, refused with a reason, a question for the GM, or ignored;
none crashes, none is lost."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from tests.intake.clients import corpus
from tests.intake.mails import rows


def _cpython_messages() -> list[Path]:
    try:
        import test.test_email
    except ImportError:
        return []
    return sorted((Path(test.test_email.__file__).parent / "data").glob("msg_*.txt"))


CPYTHON = _cpython_messages()


def test_mail_programs_shapes(home, gm, mail_home, tmp_path):
    mails = corpus(mail_home["BR"], mail_home["FR"])
    folder = tmp_path / "corpus"
    folder.mkdir()
    for n, (_, raw, _) in enumerate(mails):
        (folder / f"{n:02}.eml").write_bytes(raw)
    ran = gm("inbox", "import", folder, home=home)
    assert ran.code == 0 and ran.err == ""
    outcomes = dict(rows(home, "SELECT source, outcome FROM mail_taken"))
    results = dict(rows(home, "SELECT source, results FROM mail_taken"))
    for n, (name, _, expected) in enumerate(mails):
        where = str(folder / f"{n:02}.eml")
        assert outcomes.get(where) == expected, (name, results.get(where))
        if expected == "refused":
            assert all(r["reason"] for r in json.loads(results[where])), name
    # The new orders, never the quoted old ones (CLAIM WAL), were taken from every reply.
    orders = [json.loads(o) for (o,) in rows(home, "SELECT orders FROM submissions WHERE verdict = 'accepted'")]
    assert all(o[0]["args"] in (["ENG", "SCO"], ["BRI"]) for o in orders)
    assert len(orders) == sum(expected == "accepted" for _, _, expected in mails) + 1  # two files in one mail


@pytest.mark.skipif(not CPYTHON, reason="this Python has no test.test_email data (Debian: libpython3-testsuite)")
def test_pythons_own_email_test_messages(home, gm, mail_home, tmp_path):
    folder = tmp_path / "cpython"
    folder.mkdir()
    for path in CPYTHON:
        (folder / f"{path.stem}.eml").write_bytes(path.read_bytes())
    ran = gm("inbox", "import", folder, home=home)
    assert ran.code == 0 and ran.err == ""
    taken = rows(home, "SELECT digest, outcome, results FROM mail_taken")
    assert {d for d, _, _ in taken} == {hashlib.sha256(p.read_bytes()).hexdigest() for p in CPYTHON}  # none lost
    for digest, outcome, results in taken:
        assert outcome in ("accepted", "rejected", "refused", "question", "ignored", "duplicate"), digest
        assert outcome != "refused" or all(r["reason"] for r in json.loads(results))
    archived = {p.name for p in (home / "archive").rglob("*") if p.is_file()}
    assert {d for d, _, _ in taken} <= archived
