"""Requests in a mail's own lines, without a turn file: RESIGN GAME, FORGET ME and EXPORT, from
the player's registered address (the code gm mails to it proves the mail came from there)."""

from __future__ import annotations

from dataclasses import dataclass

from gm.core.signup import own_words

HOW = "RESIGN and the game, FORGET ME or EXPORT, on a line of its own, from the address gm has for you"


@dataclass(frozen=True)
class PersonLine:
    """A request in a mail's lines. word: RESIGN, FORGET ME or EXPORT; game: the game a RESIGN
    names (None for the others)."""

    word: str
    game: str | None = None


def read_person_line(text: str) -> tuple[PersonLine | None, str | None]:
    """(the request, None), (None, what is wrong), or (None, None) when the text asks none.

    Only in capitals and only in the mail's own lines, as JOIN and CONFIRM: "Resign? never"
    in a letter, or a quoted line, asks nothing."""
    found: list[PersonLine | str] = []
    for words in own_words(text):
        if words[:1] == ["RESIGN"]:
            found.append(PersonLine("RESIGN", words[1]) if len(words) == 2 else "give the game after RESIGN")
        elif words == ["FORGET", "ME"]:
            found.append(PersonLine("FORGET ME"))
        elif words == ["EXPORT"]:
            found.append(PersonLine("EXPORT"))
    if not found:
        return None, None
    if len(found) > 1:
        return None, f"give one request in a mail: {HOW}"
    return (found[0], None) if isinstance(found[0], PersonLine) else (None, f"{found[0]}: {HOW}")
