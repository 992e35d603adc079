"""What gm doctor's checks return: findings, each with its problems and what to do about them."""

from __future__ import annotations

import re
from dataclasses import dataclass

from gm.core.model import JSONObject

# gm's messages say "what happened. What to do.": the advice starts at the first sentence after.
_ADVICE = re.compile(r"\.\s+(?=[A-Z])")


@dataclass(frozen=True)
class Problem:
    """Something wrong in the home: what it is, and what the GM should do about it."""

    what: str
    fix: str

    @classmethod
    def from_message(cls, message: str, fix: str) -> Problem:
        """A GMError's message as a problem: its advice, if it gives one, else `fix`."""
        parts = _ADVICE.split(message, maxsplit=1)
        return cls(parts[0], parts[1]) if len(parts) == 2 else cls(message.rstrip("."), fix)


@dataclass(frozen=True)
class Finding:
    """One check's result: its name, what it saw when all is well, and its problems (none: OK)."""

    check: str
    summary: str
    problems: tuple[Problem, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.problems

    def to_json(self) -> JSONObject:
        return {
            "check": self.check,
            "ok": self.ok,
            "summary": self.summary,
            "problems": [{"problem": p.what, "fix": p.fix} for p in self.problems],
        }
