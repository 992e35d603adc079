"""How a report names a place or a seat: as the map labels it, the name once beside the code.

The map shows codes (NAP, FR, tile M, city RE2); a sentence that says only "Benevento" or
"France" sends the player hunting for it. Every ruleset writes a place or a seat in its events,
tables and lists as `named(name, code)`: "Benevento (NAP)", "France (FR)", the code alone when
it has no other name. tests/games/test_names.py holds it for every installed ruleset.
"""

from __future__ import annotations


def named(name: object, code: str) -> str:
    """ "Benevento (NAP)": the name a sentence reads and the code the map shows; the code alone
    when the thing has no name of its own, the name alone when it is the code in other letters
    (Imperials' seat "Red" is RED)."""
    text = str(name).strip() if name is not None else ""
    if not text:
        return code
    return text if text.casefold() == code.casefold() else f"{text} ({code})"


def possessive(label: str) -> str:
    """ "France (FR)'s", "Papal States'": a named thing as the owner of something."""
    return label + ("'" if label.endswith("s") else "'s")
