"""werkzeug's multipart form parser, without compiling two regular expressions per upload.

werkzeug's MultipartDecoder compiles two patterns that embed the boundary, and a browser sends a
new boundary with every form, so each turn-file upload paid for two `re.compile` calls (a tenth of
a portal cycle's CPU) and pushed other patterns out of `re`'s cache. `BoundarySearch` finds exactly
what those patterns find with `bytes.find` and one pattern compiled once; everything else is
werkzeug's own code, run unchanged. tests/web/test_fast_multipart.py compares the two decoders
event by event on generated bodies fed in random chunks. `FewFields` holds a urlencoded form to
the limits werkzeug holds only a multipart one to (fields and bytes).
"""

from __future__ import annotations

import io
import re
import types
from collections.abc import Callable
from importlib.metadata import PackageNotFoundError, version
from typing import IO, Any, TypeVar, cast

import flask
from werkzeug import formparser
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.sansio.multipart import MultipartDecoder, State

# What follows "--" and the boundary in werkzeug's two patterns (its group 1): "--" for the last
# boundary, then blanks and an optional line break; or blanks and a required line break.
_SUFFIX = re.compile(rb"--[^\S\n\r]*(?:\r\n|\n|\r)?|[^\S\n\r]*(?:\r\n|\n|\r)")
_CR, _LF = 13, 10


class _Found:
    """The parts of a match werkzeug reads: start(), end() and group(1)."""

    __slots__ = ("_start", "_suffix")

    def __init__(self, start: int, suffix: re.Match[bytes]):
        self._start, self._suffix = start, suffix

    def start(self) -> int:
        return self._start

    def end(self) -> int:
        return self._suffix.end()

    def group(self, index: int) -> bytes:
        if index != 1:
            raise IndexError("only group 1 is kept")
        found: bytes = self._suffix.group()  # (typeshed allows for a group that matched nothing)
        return found


class BoundarySearch:
    """`search(data, pos)` as werkzeug's compiled pattern `LB?--boundary(suffix)` (preamble) or
    `LB--boundary(suffix)` (between parts) answers it, where LB is \\r\\n, \\n or \\r.

    The leftmost match is the first "--boundary" at or after `pos` followed by a valid suffix:
    a match starts at most two bytes before its "--", and the byte before a later "--boundary"
    that close is a "-", never a line break, so no later one can start earlier. The match then
    starts at the line break just before the "--" as the regex takes it (\\r\\n before \\n before
    \\r, never before `pos`); without one it starts at the "--" when the line break is optional,
    and is no match when it is required.
    """

    def __init__(self, boundary: bytes, line_break_required: bool):
        self.marker = b"--" + boundary
        self.line_break_required = line_break_required

    def search(self, data: bytes | bytearray, pos: int = 0) -> _Found | None:
        marker, pos = self.marker, max(pos, 0)
        at = data.find(marker, pos)
        while at != -1:
            start = self._start(data, at, pos)
            if start is not None:
                suffix = _SUFFIX.match(data, at + len(marker))
                if suffix is not None:
                    return _Found(start, suffix)
            at = data.find(marker, at + 1)
        return None

    def _start(self, data: bytes | bytearray, at: int, pos: int) -> int | None:
        if at - 2 >= pos and data[at - 2] == _CR and data[at - 1] == _LF:
            return at - 2
        if at - 1 >= pos and data[at - 1] in (_CR, _LF):
            return at - 1
        return None if self.line_break_required else at


class BoundaryDecoder(MultipartDecoder):
    """werkzeug's decoder with its two per-boundary patterns replaced by `BoundarySearch`.

    The attributes are werkzeug 3.1's `__init__`'s, which is not called because compiling is what
    it costs; a test checks that both decoders start with the same attributes."""

    def __init__(
        self, boundary: bytes, max_form_memory_size: int | None = None, *, max_parts: int | None = None
    ) -> None:
        self.buffer = bytearray()
        self.complete = False
        self.max_form_memory_size = max_form_memory_size
        self.max_parts = max_parts
        self.state = State.PREAMBLE
        self.boundary = boundary
        # werkzeug types these as compiled patterns and calls only their search(), which
        # BoundarySearch answers as the pattern would.
        self.preamble_re = BoundarySearch(boundary, line_break_required=False)  # type: ignore[assignment]
        self.boundary_re = BoundarySearch(boundary, line_break_required=True)  # type: ignore[assignment]
        self._search_position = 0
        self._parts_decoded = 0


# werkzeug's parsers name MultipartDecoder and MultiPartParser as module globals. Their methods are
# run here with those two names pointing at the subclasses: the same code, limits and errors.
_GLOBALS = {**vars(formparser), "MultipartDecoder": BoundaryDecoder}


_Method = TypeVar("_Method", bound=Callable[..., Any])


def _rebound(function: _Method) -> _Method:
    """A copy of werkzeug's `function` that finds its module's globals in _GLOBALS."""
    if not isinstance(function, types.FunctionType):
        raise TypeError(f"{function!r} is not a function of werkzeug's: this werkzeug cannot be sped up")
    copy = types.FunctionType(
        function.__code__, _GLOBALS, function.__name__, function.__defaults__, function.__closure__
    )
    copy.__kwdefaults__ = function.__kwdefaults__
    copy.__qualname__, copy.__doc__ = function.__qualname__, function.__doc__
    return cast(_Method, copy)  # the same code, so the same signature


class _MultiPartParser(formparser.MultiPartParser):
    parse = _rebound(formparser.MultiPartParser.parse)


_GLOBALS["MultiPartParser"] = _MultiPartParser


# The largest urlencoded form the portal reads: its largest are a press message (press-length,
# at most 10,000 characters: 90 kB percent-encoded at worst) and a GM's answer (20,000
# characters: 180 kB). Decoding takes about 0.1 CPU-s a MB of percent escapes.
MOST_URLENCODED_BYTES = 262_144
MOST_URLENCODED_FIELDS = 1_000  # as werkzeug's max_form_parts for a multipart form; the portal's have a dozen


class FormTooLarge(RequestEntityTooLarge):
    """413 for a form (not an upload) past what the portal reads, saying so in the page's words."""

    description = (
        f"That form is too large (more than {MOST_URLENCODED_BYTES:,} bytes or {MOST_URLENCODED_FIELDS:,} "
        "fields); the portal's forms are far smaller. Shorten the text and send it again."
    )


class FewFields(formparser.FormDataParser):
    """werkzeug's form parser, refusing with 413 a urlencoded body of more than
    MOST_URLENCODED_FIELDS fields or MOST_URLENCODED_BYTES: werkzeug holds only multipart bodies
    to such limits and decodes a urlencoded one whole, so 2 MB of `a&a&...` (a million fields,
    within the portal's request size) held a form thread for 0.6-2 CPU-s, and eight clients
    sending it kept a player's sign-in waiting 14 s; 1 MB of `%41%41...`, 5 s."""

    def _parse_urlencoded(
        self, stream: IO[bytes], mimetype: str, content_length: int | None, options: dict[str, str]
    ) -> Any:
        body = stream.read(MOST_URLENCODED_BYTES + 1)
        if len(body) > MOST_URLENCODED_BYTES or body.count(b"&") >= MOST_URLENCODED_FIELDS:
            raise FormTooLarge()
        return super()._parse_urlencoded(io.BytesIO(body), mimetype, content_length, options)


class FormParser(FewFields):
    """werkzeug's form parser, its multipart bodies read by `BoundaryDecoder`."""

    _parse_multipart = _rebound(formparser.FormDataParser._parse_multipart)


def _werkzeug_3_1() -> bool:
    try:
        return version("werkzeug").startswith("3.1.")
    except PackageNotFoundError:
        return False


class PortalRequest(flask.Request):
    """Flask's request, its forms read by `FormParser`: only on werkzeug 3.1, whose decoder's
    insides this relies on; any other werkzeug parses with its own code, only slower."""

    form_data_parser_class = FormParser if _werkzeug_3_1() else FewFields
