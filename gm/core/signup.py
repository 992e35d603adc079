"""A sign-up by mail: the JOIN, NAME and SEATS lines of a mail without a turn file, the
CONFIRM line that makes it count, and the LIST line that asks which games take players."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from gm.core.envelope import clean_line

HOW = "JOIN GAME (or JOIN RULESET for its next game), then NAME your name and SEATS codes you prefer"
CONFIRM_HOW = "CONFIRM and the code, on a line of its own, in a mail from the address that signed up"
MAX_PREFERENCES = 12


@dataclass(frozen=True)
class Join:
    """What a sign-up mail asks for.

    target: a game's name, or a ruleset's name for the next game of that ruleset.
    name: the name to play under, or None to take the mail's display name.
    preferences: seat codes (upper case) wanted, best first; empty for any seat.
    """

    target: str
    name: str | None = None
    preferences: tuple[str, ...] = ()


def read_join(text: str) -> tuple[Join | None, str | None]:
    """(the sign-up, None), (None, what is wrong), or (None, None) when the text asks no JOIN.

    JOIN counts only in capitals, as the keywords are written; NAME and SEATS only after it.
    Only the mail's own lines count (see own_words), so a reply that quotes an earlier JOIN
    does not join again.
    """
    join, name = None, None
    seats: tuple[str, ...] = ()
    for words in own_words(text):
        keyword = words[0].upper() if words else ""
        if words and words[0] == "JOIN":  # in capitals: "Join me ..." in a letter is a question
            if join is not None or len(words) != 2:
                return None, f"give one JOIN line with one game or ruleset: {HOW}"
            join = words[1]
        elif keyword == "NAME" and join is not None:
            name = " ".join(words[1:]) or None
        elif keyword == "SEATS" and join is not None:
            seats = tuple(w.upper() for w in words[1:])
            if len(seats) > MAX_PREFERENCES:
                return None, f"give at most {MAX_PREFERENCES} seats on the SEATS line"
    if join is None:
        return None, None
    return Join(join, name, seats), None


def read_list(text: str) -> tuple[bool, str | None]:
    """(True, a ruleset's name or None) when the text asks for the games open for sign-up: a
    LIST line (in capitals, the mail's own lines, as JOIN), with a ruleset to list its games
    only; (False, None) when it does not."""
    for words in own_words(text):
        if words and words[0] == "LIST" and len(words) <= 2:
            return True, words[1].lower() if len(words) == 2 else None
    return False, None


def read_confirm(text: str) -> tuple[str | None, str | None]:
    """(the code, None), (None, what is wrong), or (None, None) when the text confirms nothing.

    CONFIRM counts only in capitals and only in the mail's own lines, as JOIN does: the line
    quoted from gm's own mail (a reply's "> CONFIRM ...", an auto-reply quoting it) confirms
    nothing; the player writes it."""
    codes = [words[1:] for words in own_words(text) if words and words[0] == "CONFIRM"]
    if not codes:
        return None, None
    if len(codes) > 1 or len(codes[0]) != 1:
        return None, f"give one CONFIRM line with the code from gm's mail: {CONFIRM_HOW}"
    return codes[0][0].lower(), None


def own_words(text: str) -> Iterator[list[str]]:
    """The words of each line the mail's writer wrote: quoted lines (">") and everything after
    a line that starts a signature ("-- ") are left out."""
    for raw in text.split("\n"):
        if raw.rstrip() == "--":
            return
        if not raw.lstrip().startswith(">"):
            yield clean_line(raw).split()
