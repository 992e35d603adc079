"""Arbitrary bytes into 'gm inbox receive': never a traceback, always archived, always an outcome."""

from __future__ import annotations

import hashlib
import re

from hypothesis import HealthCheck, given, settings, strategies as st

from tests.intake.clients import corpus
from tests.intake.mails import receive

SAMPLES = [raw for _, raw, _ in corpus("fuzz-secret", "fuzz-other")]
OUTCOME = re.compile(
    r"(Taken: 1 (accepted|rejected|refused|request|question|ignored|duplicate)|No new mail \(1 taken before\).)\n\Z"
)


@st.composite
def damaged_mails(draw) -> bytes:
    """A real mail shape with bytes cut, replaced or inserted anywhere (headers, boundaries, encodings)."""
    raw = bytearray(draw(st.sampled_from(SAMPLES)))
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, len(raw)))
        action = draw(st.sampled_from(["cut", "replace", "insert"]))
        chunk = draw(
            st.binary(min_size=1, max_size=40)
            | st.sampled_from(
                [
                    b"\r\n\r\n",
                    b"\n--",
                    b"=?utf-8?b?",
                    b"\x00",
                    b"\xff\xfe",
                    b'boundary="',
                    b"Content-Type: multipart/mixed\n",
                ]
            )
        )
        if action == "cut":
            del raw[at : at + len(chunk)]
        elif action == "replace":
            raw[at : at + len(chunk)] = chunk
        else:
            raw[at:at] = chunk
    return bytes(raw)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(raw=st.binary(max_size=2000) | damaged_mails())
def test_receive_never_fails_and_always_archives(home, gm, mail_home, monkeypatch, raw):
    ran = receive(gm, monkeypatch, raw, home)
    assert ran.code == 0, ran.err
    assert ran.err == "" and OUTCOME.search(ran.out), ran.out
    digest = hashlib.sha256(raw).hexdigest()
    assert (home / "archive" / digest[:2] / digest).read_bytes() == raw
