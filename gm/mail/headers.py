"""The modern email policy with a header factory that does not redo its work (issue 32).

The standard library's HeaderRegistry makes a new class for every header it makes (`type(...)`
in its __getitem__, about 20 microseconds a header), and parses a header's value anew every time
it is set or read. gm makes and reads thousands of mails a run: a report mail sets a dozen headers
and a run-due at 1,000 seats spent 1.5 s of its profile making those classes alone.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from email import policy
from email.headerregistry import BaseHeader, HeaderRegistry
from functools import lru_cache
from typing import Any


class _KeptClasses(HeaderRegistry):
    """HeaderRegistry making each header name's class once: it depends on the name alone (and
    the registry's mapping of names to types, which gm never changes)."""

    def __init__(self) -> None:
        super().__init__()
        self._classes: dict[str, type[BaseHeader]] = {}

    def __getitem__(self, name: str) -> type[BaseHeader]:
        key = name.lower()
        made = self._classes.get(key)
        if made is None:
            made = self._classes[key] = super().__getitem__(name)
        return made


class KeptHeaders:
    """A header factory for the modern policy: the registry's classes made once a name, and the
    header objects of text values remembered.

    A header object depends only on (name, value) and is never changed, so the one made before
    is the one the registry would make now; most mail carries the same few Content-Type,
    Content-Transfer-Encoding and From values, and the parser asks for a part's Content-Type
    three times or more. Long values are not remembered, nor values that are not text (an
    Address given to `message["To"]`)."""

    LONGEST = 500

    def __init__(self) -> None:
        self.registry = _KeptClasses()
        self.remembered = lru_cache(maxsize=2048)(self._made)

    def __getitem__(self, name: str) -> type[BaseHeader]:
        """The header's class, as HeaderRegistry gives it (the policy asks it for max_count)."""
        return self.registry[name]

    def __call__(self, name: str, value: Any) -> BaseHeader:
        if not isinstance(value, str) or len(value) > self.LONGEST:
            return self._made(name, value)
        return self.remembered(name, value)

    def _made(self, name: str, value: Any) -> BaseHeader:
        """A header object the registry makes now: the one costly step."""
        return self.registry(name, value)


# The modern policy (structured headers, RFC 2047 words decoded), with KeptHeaders: what gm
# parses mail with and builds its own mails in. It writes what policy.default writes.
MODERN = policy.default.clone(header_factory=KeptHeaders())


class HeadersTooLong(Exception):
    """The header values of one mail asked more of the registry's parse than
    CutHeaders.MOST_A_MAIL characters (see header_budget)."""


# Characters the registry has parsed for the mail being read (header_budget); None: no budget.
_SPENT: ContextVar[list[int] | None] = ContextVar("gm_header_characters_parsed", default=None)


class CutHeaders(KeptHeaders):
    """KeptHeaders for reading mail from outside: a value longer than MOST characters is parsed
    only as far as that. The registry's parse grows faster than the value: one Subject, From or
    Content-Type of 400 kB of RFC 2047 words took 10-18 CPU-s, a mail of 10 MB would have taken
    hours; 2,000 characters take about 4 ms, and hold any From, Subject or file name a person
    writes. Only for parsing: gm never writes mail with this policy.

    Within header_budget() the values parsed for one mail count, MOST_A_MAIL characters at most
    (values remembered from before are free); past that HeadersTooLong is raised. The parse costs
    2-20 microseconds a character whatever the length, and the email package reads a part's
    Content-Type several times: a 1 MB mail of 500 parts, each with a Content-Type of 2,000
    characters of parameters, took 47 CPU-s. 100,000 characters are about 2 CPU-s at worst, and
    hundreds of times what a mail of the corpora needs (300 at most; tests/intake/test_reading.py)."""

    MOST = 2_000
    MOST_A_MAIL = 100_000

    def __call__(self, name: str, value: Any) -> BaseHeader:
        if isinstance(value, str) and len(value) > self.MOST:
            value = value[: self.MOST]
        return super().__call__(name, value)

    def _made(self, name: str, value: Any) -> BaseHeader:
        spent = _SPENT.get()
        if spent is not None and isinstance(value, str):
            spent[0] += len(value)
            if spent[0] > self.MOST_A_MAIL:
                raise HeadersTooLong(f"more than {self.MOST_A_MAIL:,} characters of headers")
        return super()._made(name, value)


@contextmanager
def header_budget() -> Iterator[list[int]]:
    """Count the header characters READING's registry parses within the block, at most
    CutHeaders.MOST_A_MAIL (HeadersTooLong past that); yields [characters parsed so far]."""
    spent = [0]
    token = _SPENT.set(spent)
    try:
        yield spent
    finally:
        _SPENT.reset(token)


# MODERN for reading a mail someone sent (gm.intake.letter), every value parsed as far as
# CutHeaders.MOST.
READING = policy.default.clone(header_factory=CutHeaders())
