"""Press: the messages players send each other through gm, as written in a turn file.

A press block, after the envelope's header and before END (as njudge players write it):

    PRESS TO FR, GE          (one seat or several; PRESS TO ALL or BROADCAST: everyone)
    The message, on as many lines as the player likes. A # here is text, not a comment.
    ENDPRESS

or on one line: `PRESS TO FR: Shall we share Burgundy?`. Lines quoted with `>` are left out,
as everywhere in a turn file. Who may send what to whom is the game's (gm/services/press.py);
this module only reads what was written and says who it reaches.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

HOW = "PRESS TO FR,GE (or PRESS TO ALL), the message on the lines below, then ENDPRESS"
EVERYONE_WORDS = ("ALL", "EVERYONE")
_SEPARATORS = re.compile(r"[\s,;:]+")
# What a message may not carry to another seat's report, mail and page: control characters but
# the tab and the line break (C0, DEL, C1: an escape sequence or backspaces for a terminal mail
# reader, a bell, a C1 CSI) and the bidi
# embeddings, overrides and isolates, which turn text around past where the sender's words end.
# The marks (LRM, RLM, ALM) stay: right-to-left writing needs them, and they turn nothing around.
# The same characters gm.cli.shown spells out for the GM's terminal (it adds lone surrogates).
ACTING_CHARACTERS = "\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069"
_NOT_PASSED_ON = re.compile(f"[{ACTING_CHARACTERS}]")


@dataclass(frozen=True)
class PressDraft:
    """A press message as the player wrote it.

    line: the line of its PRESS (or BROADCAST) keyword; 0 when it came from the portal's form.
    to: the seat codes it names, upper case, in the order written, each once (empty for everyone).
    everyone: addressed to every seat (PRESS TO ALL, BROADCAST).
    text: the message, blank lines at its start and end taken off.
    problem: why it cannot be sent as written (no ENDPRESS, no recipients, no text), else None.
    """

    line: int
    to: tuple[str, ...]
    everyone: bool
    text: str
    problem: str | None = None


def passed_on(text: str) -> str:
    """A message's text as gm passes it on: every line end made \\n (CR LF, CR, and the form
    feed, NEL and line separator, as the lines of a mailed turn file are split), and the
    characters that could drive a reader's terminal or turn its page around left out."""
    return _NOT_PASSED_ON.sub("", "\n".join(text.splitlines()))


def is_press_head(line: str) -> bool:
    """Whether a line (comment removed) starts a press message: its first word is PRESS or BROADCAST."""
    word = line.split(maxsplit=1)[0].upper() if line.strip() else ""
    return word in ("PRESS", "BROADCAST")


def opens_block(raw: str, cleaned: str) -> bool:
    """Whether a line starts a press block (a PRESS line without the one-line form's text), so
    that the lines up to ENDPRESS are the message, whatever they say."""
    return is_press_head(cleaned) and _after_colon(raw) is None


def is_press_end(line: str) -> bool:
    """ENDPRESS (or END PRESS) closes a press block."""
    return " ".join(line.upper().split()) in ("ENDPRESS", "END PRESS")


class PressReader:
    """Reads the press blocks of a turn file line by line, for the envelope's reader (which
    hands over every line between a PRESS and its ENDPRESS, blank ones included)."""

    def __init__(self) -> None:
        self.drafts: list[PressDraft] = []
        self._open: tuple[int, tuple[str, ...], bool, str | None] | None = None
        self._body: list[str] = []

    @property
    def in_block(self) -> bool:
        return self._open is not None

    def head(self, number: int, raw: str, cleaned: str) -> None:
        """A PRESS or BROADCAST line: raw as written, cleaned without its comment. The one-line
        form's text is taken from the raw line, so a # in it stays."""
        words = cleaned.split(maxsplit=1)
        rest = words[1] if len(words) > 1 else ""
        keyword = words[0].upper()
        one_line = _after_colon(raw)
        if one_line is not None:
            rest = rest.split(":", 1)[0]
        to, everyone, problem = _addressees(keyword, rest)
        if one_line:
            self.drafts.append(PressDraft(number, to, everyone, one_line, problem))
            return
        self._open, self._body = (number, to, everyone, problem), []

    def body(self, raw: str) -> None:
        self._body.append(raw.replace("\ufeff", "").rstrip())

    def close(self, ended_properly: bool = True) -> None:
        """The block ends: at its ENDPRESS, or (not properly) at the turn file's END or end."""
        if self._open is None:
            return
        number, to, everyone, problem = self._open
        text = "\n".join(self._body).strip("\n")
        if problem is None and not ended_properly:
            problem = f"the press on line {number} has no ENDPRESS line: write ENDPRESS after the message"
        if problem is None and not text.strip():
            problem = "the press has no text: write the message on the lines between PRESS and ENDPRESS"
        self.drafts.append(PressDraft(number, to, everyone, text, problem))
        self._open, self._body = None, []


def _after_colon(raw: str) -> str | None:
    """The one-line form's message (after the first colon), or None for a block."""
    head, colon, text = raw.partition(":")
    if not colon or "#" in head:
        return None
    return text.strip() or None


def _addressees(keyword: str, rest: str) -> tuple[tuple[str, ...], bool, str | None]:
    """(seat codes, everyone, problem) from what follows PRESS or BROADCAST."""
    if keyword == "BROADCAST":
        return (), True, None if not rest.strip() else "BROADCAST goes to everyone: write it alone on its line"
    words = [w.upper() for w in _SEPARATORS.split(rest.strip()) if w]
    if not words or words[0] != "TO" or len(words) == 1:
        return (), False, f"say whom the press is for: {HOW}"
    codes = words[1:]
    if any(c in EVERYONE_WORDS for c in codes):
        if len(codes) > 1:
            return (), False, "PRESS TO ALL goes to everyone: name no seats beside ALL"
        return (), True, None
    return tuple(dict.fromkeys(codes)), False, None


def addressed(draft: PressDraft, seats: Sequence[str], sender: str | None) -> tuple[tuple[str, ...], str | None]:
    """(the seats a draft reaches, in the game's seat order; a problem or None).

    seats: the game's seat codes in order; sender: the sending seat (None: the GM), never one
    of its own recipients. Everyone means every other seat."""
    if draft.everyone:
        return tuple(s for s in seats if s != sender), None
    unknown = [c for c in draft.to if c not in seats]
    if unknown:
        return (), (f"there is no seat {', '.join(unknown)} in this game; its seats are {', '.join(seats)}")
    if sender in draft.to:
        return (), f"{sender} is your own seat: press goes to the other seats"
    return tuple(s for s in seats if s in draft.to), None


def addressee_text(recipients: Sequence[str], everyone: bool, signed: bool, reader: str | None) -> str:
    """Whom a message went to, as `reader` may read it: every seat named when the press is
    signed; in anonymous press a recipient learns only how many others got it (a list of names
    would narrow down who sent it). reader None: the sender, or the GM, who see the list."""
    if everyone:
        return "everyone"
    if signed or reader is None or reader not in recipients:
        return ", ".join("you" if code == reader else code for code in recipients)
    others = len(recipients) - 1
    return "you" if not others else f"you and {others} other seat{'s' if others > 1 else ''}"
