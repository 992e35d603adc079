"""Warnings beside a turn file's errors, as echeck gives them: what is probably a slip, not a fault."""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Set

from gm.core.model import JSONObject, Order, Problem
from gm.core.ruleset import Ruleset


def view_codes(view: JSONObject) -> set[str]:
    """Every code a seat's view names: seats, map places, and what the ruleset lists under
    view["codes"] (cities, groups, areas a grid or hex game keeps out of view["map"])."""
    codes = {s.get("code") for s in view.get("seats") or [] if isinstance(s, dict)}
    territories = (view.get("map") or {}).get("territories") or [] if isinstance(view.get("map"), dict) else []
    codes |= {t.get("code") for t in territories if isinstance(t, dict)}
    codes |= set(view.get("codes") or [])
    return {str(c).upper() for c in codes if c}


def near_codes(
    lines: Iterable[tuple[int, str]], searched: set[int], codes: Set[str], ignore: frozenset[str] = frozenset()
) -> list[Problem]:
    """'did you mean ENG?' for each word after the first of the searched lines that is no code
    but close to one; words in `ignore` (order words a form names, like ALL) are never codes.

    The GM's check searches only lines already in trouble: there a word that is no code is an
    error, and on a line that checks it is an order's own word (ALL, SOLDIERS), where a hint
    would be noise."""
    found = []
    for number, text in lines:
        if number not in searched:
            continue
        for word in text.split()[1:]:
            bare = word.strip(",;:()").upper()
            close = [] if bare in ignore else close_to(bare, codes)
            if close:
                found.append(Problem(number, f"{word} is not a code in this game; did you mean {' or '.join(close)}?"))
    return found


def close_to(word: str, words: Iterable[str]) -> list[str]:
    """The words one slip away from `word` (a seat's code, an order word, a card, a city like
    RE2): the same length or one letter more or less, alike without regard to case, as written
    in `words`, most alike first, at most two; none when `word` is one of them. Like is told
    from like: a word of letters from words of letters, one with digits (RE11) from words with
    digits (RE1); a number alone (a vertex, a count) is nobody's slip."""
    spelled = {w.upper(): w for w in words}
    key = word.upper()
    if len(key) < 2 or not key.isalnum() or key.isdigit() or key in spelled:
        return []
    alike = [w for w in spelled if abs(len(w) - len(key)) <= 1 and w.isalpha() == key.isalpha()]
    return [spelled[w] for w in difflib.get_close_matches(key, sorted(alike), n=2, cutoff=0.6)]


def did_you_mean(word: str, words: Iterable[str]) -> str:
    """The words after a ruleset's "SETLE is not an order": " (did you mean SETTLE?)" when a
    word of `words` is one slip away, else "". The GM's check, the acknowledgement, the portal
    and the player's own check all say what the ruleset's parser says."""
    close = close_to(word, words)
    return f" (did you mean {' or '.join(close)}?)" if close else ""


def meant_name(name: str, names: Iterable[str]) -> str:
    """ "did you mean 'clash-1'?" when a name of `names` (a game's) is one slip away from
    `name` (a letter off, a dash left out, other capitals), at most two, most alike first;
    "" when none is, or `name` is one of them. The caller chooses `names`: a player is offered
    only the games they are seated in, never another's (D-ALL-5)."""
    spelled = {n.casefold(): n for n in names}
    if not name or name in spelled.values():
        return ""
    close = [spelled[n] for n in difflib.get_close_matches(name.casefold(), sorted(spelled), n=2, cutoff=0.6)]
    return f"did you mean {' or '.join(repr(n) for n in close)}?" if close else ""


def ruleset_warnings(ruleset: Ruleset, state: JSONObject, seat: str, orders: list[Order]) -> list[Problem]:
    """The ruleset's own warnings (units or money left unused, an order likely to fail), from its
    `order_warnings(state, seat, orders)` (none by default)."""
    return list(ruleset.order_warnings(state, seat, orders))


def order_warnings(
    ruleset: Ruleset,
    state: JSONObject,
    seat: str,
    lines: Iterable[tuple[int, str]],
    orders: list[Order],
    problems: list[Problem],
    codes: Callable[[], Set[str]] | None = None,
) -> list[Problem]:
    """Every warning for a seat's checked orders, by line: near codes (the seat's view says
    which codes exist; asked only when a line has a problem), then the ruleset's own, except on
    a line that has a problem already (the error says why it fails; a guess beside it is noise).
    codes: the view_codes of the seat's view, from a caller that keeps them (mail intake reads
    many turn files of one seat and turn); default: the view made here."""
    troubled = {p.line for p in problems}
    near = []
    if troubled:
        near = near_codes(lines, troubled, codes() if codes else view_codes(ruleset.view(state, seat)))
    own = [w for w in ruleset_warnings(ruleset, state, seat, orders) if w.line not in troubled]
    return sorted(near + own, key=lambda p: p.line)
