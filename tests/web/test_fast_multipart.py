"""gm.web.multipart finds what werkzeug's compiled boundary patterns find, so the portal's uploads
decode event for event as werkzeug decodes them, without a regex compiled per request."""

from __future__ import annotations

import random
import re
import uuid

from hypothesis import given, settings, strategies as st
from werkzeug.sansio.multipart import Epilogue, MultipartDecoder, NeedData

from gm.web.multipart import BoundaryDecoder, BoundarySearch, PortalRequest
from tests.web.test_portal import orders

# Pieces that make boundaries hard to find: line breaks of every kind, blanks, dashes, and
# boundaries that are prefixes or extensions of each other.
_BOUNDARIES = [b"b", b"-", b"--", b"ab", b"a-b", b"----WebKitFormBoundaryx7Q", b"bb", b"-b"]
_BLANKS = [b" ", b"\t", b"\x0b", b"\x0c"]
_BREAKS = [b"\r\n", b"\n", b"\r", b"\n\r", b"\r\r", b"\r\n\r\n"]


def _pieces(boundary: bytes) -> list[bytes]:
    return (
        [
            b"--" + boundary,
            b"--" + boundary + b"--",
            b"--" + boundary[:-1],
            boundary,
            b"-",
            b"--",
            b"x",
            b"\x00",
            b"--" + boundary + b"x",
            boundary + boundary,
        ]
        + _BLANKS
        + _BREAKS
    )


def _found(pattern, data: bytes, pos: int):
    match = pattern.search(data, pos)
    return None if match is None else (match.start(), match.end(), bytes(match.group(1)))


def _stock_patterns(boundary: bytes):
    stock = MultipartDecoder(boundary)
    return stock.preamble_re, stock.boundary_re


def _same_search(boundary: bytes, data: bytes, pos: int) -> None:
    preamble, between = _stock_patterns(boundary)
    for stock, required in ((preamble, False), (between, True)):
        ours = BoundarySearch(boundary, line_break_required=required)
        for buffer in (data, bytearray(data)):
            assert _found(ours, buffer, pos) == _found(stock, buffer, pos), (boundary, data, pos, required)


@settings(max_examples=400, deadline=None)
@given(st.data())
def test_the_search_finds_what_the_regex_finds(draw):
    boundary = draw.draw(st.sampled_from(_BOUNDARIES) | st.binary(min_size=1, max_size=4))
    parts = draw.draw(st.lists(st.sampled_from(_pieces(boundary)) | st.binary(max_size=3), max_size=14))
    data = b"".join(parts)
    pos = draw.draw(st.integers(-2, len(data) + 2))
    _same_search(boundary, data, pos)


def test_the_search_on_many_seeded_random_buffers():
    rng = random.Random(20240611)
    for _ in range(20_000):
        boundary = rng.choice(_BOUNDARIES)
        data = b"".join(rng.choice(_pieces(boundary)) for _ in range(rng.randint(0, 12)))
        _same_search(boundary, data, rng.randint(0, len(data) + 1))


def test_the_search_keeps_only_group_one():
    found = BoundarySearch(b"b", line_break_required=True).search(b"x\r\n--b\r\n")
    assert (found.start(), found.end(), found.group(1)) == (1, 8, b"\r\n")
    try:
        found.group(0)
    except IndexError:
        pass
    else:
        raise AssertionError("group(0) must not pretend to be the whole match")


def test_the_decoder_starts_as_werkzeugs_does():
    """BoundaryDecoder does not call werkzeug's __init__ (compiling is what it costs); this fails
    when a werkzeug upgrade gives the decoder new state."""
    stock, ours = MultipartDecoder(b"xyz", 1000, max_parts=7), BoundaryDecoder(b"xyz", 1000, max_parts=7)
    assert vars(stock).keys() == vars(ours).keys()
    for name in vars(stock).keys() - {"preamble_re", "boundary_re"}:
        assert getattr(stock, name) == getattr(ours, name), name


def _decoded(decoder_class, boundary: bytes, chunks: list[bytes], memory: int | None, parts: int | None) -> list:
    """Every event, state and buffer, fed as werkzeug's MultiPartParser feeds them; errors as events."""
    decoder = decoder_class(boundary, memory, max_parts=parts)
    seen = []
    try:
        for data in [*chunks, None]:
            decoder.receive_data(data)
            event = decoder.next_event()
            seen.append(event)
            while not isinstance(event, (Epilogue, NeedData)):
                event = decoder.next_event()
                seen.append(event)
            seen.append((decoder.state, bytes(decoder.buffer)))
    except Exception as exc:  # noqa: BLE001 - the same error is part of the same behaviour
        seen.append((type(exc), str(exc)))
    return seen


def _body(rng: random.Random, boundary: bytes) -> bytes:
    """A form body, mostly well made, with tricky data and now and then something broken."""

    def br():
        return rng.choice([b"\r\n"] * 6 + [b"\n", b"\r"])

    def data():
        return b"".join(
            rng.choice(_pieces(boundary) + [b"orders ", b"CLAIM ENG\r\n", b"\xff"]) for _ in range(rng.randint(0, 8))
        )

    out = [data() if rng.random() < 0.3 else b""]
    for n in range(rng.randint(0, 4)):
        blanks = rng.choice([b"", b" ", b"\t ", b"\x0c"])
        out.append((br() if out[-1] or rng.random() < 0.5 else b"") + b"--" + boundary + blanks + br())
        name = b'form-data; name="f%d"' % n
        if rng.random() < 0.4:
            name += b'; filename="orders.txt"'
        headers = [b"Content-Disposition: " + name]
        if rng.random() < 0.3:
            headers.append(b"Content-Type: text/plain")
        if rng.random() < 0.05:
            headers = [b"X-Nothing: here"]  # no Content-Disposition: werkzeug refuses the part
        if rng.random() < 0.1:
            headers[0] = headers[0][:12] + br() + b" " + headers[0][12:]  # a continued header line
        line = br()
        out.append(line.join(headers) + line + line + data())
    if rng.random() < 0.9:
        out.append(br() + b"--" + boundary + b"--" + rng.choice([b"", b" ", b"\r\n", b"\n", b"  \r"]))
        if rng.random() < 0.3:
            out.append(data())
    return b"".join(out)


def _chunks(rng: random.Random, body: bytes) -> list[bytes]:
    chunks, at = [], 0
    while at < len(body):
        size = rng.choice([1, 1, 2, 3, 5, 8, 64, 65536])
        chunks.append(body[at : at + size])
        at += size
    return chunks


def test_the_decoder_gives_werkzeugs_events_on_random_bodies_in_random_chunks():
    rng = random.Random(77)
    for _ in range(4_000):
        boundary = rng.choice(_BOUNDARIES + [b"----bench" + uuid.UUID(int=rng.getrandbits(128)).hex.encode()])
        body = _body(rng, boundary)
        chunks = _chunks(rng, body)
        memory, parts = rng.choice([(None, None), (None, None), (40, None), (None, 2), (500_000, 1000)])
        stock = _decoded(MultipartDecoder, boundary, chunks, memory, parts)
        assert _decoded(BoundaryDecoder, boundary, chunks, memory, parts) == stock, (boundary, chunks)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_the_decoder_gives_werkzeugs_events_on_any_body(draw):
    boundary = draw.draw(st.sampled_from(_BOUNDARIES))
    pieces = _pieces(boundary) + [b'Content-Disposition: form-data; name="a"', b'; filename="f"']
    body = b"".join(draw.draw(st.lists(st.sampled_from(pieces) | st.binary(max_size=4), max_size=20)))
    cuts = sorted(draw.draw(st.lists(st.integers(0, len(body)), max_size=6)))
    chunks = [body[a:b] for a, b in zip([0, *cuts], [*cuts, len(body)]) if body[a:b]]
    assert _decoded(BoundaryDecoder, boundary, chunks, None, None) == _decoded(
        MultipartDecoder, boundary, chunks, None, None
    )


def test_the_portal_reads_uploads_without_compiling_the_boundary(app, signed_in):
    """Each browser form has a new boundary; compiling it cost a tenth of a portal cycle."""
    assert app.request_class is PortalRequest
    boundary = "----gmtest" + uuid.uuid4().hex
    body = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="csrf"\r\n\r\n{signed_in.token}\r\n'
        f'--{boundary}\r\nContent-Disposition: form-data; name="action"\r\n\r\ncheck\r\n'
        f'--{boundary}\r\nContent-Disposition: form-data; name="turn_file"; filename="orders.txt"\r\n'
        f"Content-Type: text/plain\r\n\r\n{orders('CLAIM ENG SCO WAL')}\r\n--{boundary}--\r\n"
    ).encode()
    page = signed_in.client.post("/orders", data=body, content_type=f"multipart/form-data; boundary={boundary}")
    assert page.status_code == 200 and "no problems" in page.text
    assert not any(boundary.encode() in key[1] for key in list(re._cache) if isinstance(key[1], bytes))
