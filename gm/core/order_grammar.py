"""A ruleset's order grammar as data: its order words, what each argument must be, and the facts
of a seat's position an argument must match (a place of the board, a piece of the seat, a card
held), so that the player's own check in Python (`gm orders check --report`) and the turn kit's
check in the browser (templates/kit.js) read one declaration and give the same findings.

A ruleset declares it with `order_grammar(view, seat)` (None by default: free text only, and
neither check has anything to add to the parser's); the report carries it as `order_grammar`
(docs/report-format.md). `check_lines` is the declaration's check; kit.js does the same steps in
the same order with the same words, and tests/web/test_kit_check.py holds the two to each other.

The messages are the ruleset's own: each finding is a template with `{word}` (the word as
written, cut at 20 characters as gm.core.maps.shown cuts it) and `{near}` (" (did you mean X?)"
when a word of the list is one slip away, gm.core.warnings.did_you_mean).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from gm.core.maps import shown
from gm.core.model import JSONObject, Problem
from gm.core.warnings import did_you_mean

# What a declaration may hold, far past any ruleset's (a report file may be anything): more is
# refused where a report is read (gm/services/offline.py), never half-used.
MAX_WORDS = 100
MAX_ARGUMENTS = 12
MAX_FACTS = 50_000  # values across every fact of one seat's position
MAX_TEXT = 400  # characters of a message, a usage line, a pattern
# An action number in front of an order ("3", "3.", "3)", "3:"), for a numbered grammar.
ACTION_NUMBER = r"[0-9]{1,3}[.):]?"
# Two numbers and the comma between them, spaces around it or not: one word x,y in a grammar of
# pairs (Minecraft EMPIRES' blocks, "12, 40" and "(12,40)" alike).
PAIR = re.compile(r"([0-9]+)\s*,\s*([0-9]+)")


@dataclass(frozen=True)
class Argument:
    """One argument of an order word.

    name: what the usage and the order builder call it ("from", "territory").
    fact: the grammar's fact the value must be one of ("place", "piece", "card"), "" for none.
    pattern: what else the value may be, a regular expression matched whole and without regard
        to case ("[0-9]{1,6}|ALL"), "" for nothing else. With neither, any word will do.
    wrong: the finding for a value that is neither, with {word} and {near} (the fact's values).
    optional: the argument may be left off (only trailing arguments are).
    offer: the fact the order builder offers first (the seat's own places for a move's start),
        "" for `fact`; it checks nothing.
    beside: the index of an earlier argument whose neighbours (the grammar's next_to) the
        builder offers first once it is chosen (a move's destination beside its start); -1 for
        none; it checks nothing.
    shape: what every value of `fact` looks like, a regular expression matched whole and with
        regard to case ("[A-Za-z]{3}"), "" for none; misshapen: the finding, with {word}, for a
        value `wrong` would refute that is not of that shape (the parser's words: "... is not a
        territory code; codes are three letters"), "" to say `wrong` of it too.
    """

    name: str
    fact: str = ""
    pattern: str = ""
    wrong: str = "{word} is not a {name}{near}"
    optional: bool = False
    offer: str = ""
    beside: int = -1
    shape: str = ""
    misshapen: str = ""

    def accepts(self, value: str, facts: Mapping[str, frozenset[str]]) -> bool:
        if not self.fact and not self.pattern:
            return True
        if self.pattern and re.fullmatch(f"(?:{self.pattern})", value, re.IGNORECASE):
            return True
        return bool(self.fact) and value.upper() in facts.get(self.fact, frozenset())

    def finding(self, value: str, grammar_facts: Mapping[str, Sequence[str]]) -> str:
        """What is said of a value it does not accept: `misshapen` for one not of its shape,
        else `wrong` with the fact's near values."""
        if self.misshapen and self.shape and not re.fullmatch(f"(?:{self.shape})", value):
            return _say(self.misshapen, value, "", self.name)
        near = did_you_mean(value, grammar_facts.get(self.fact, ())) if self.fact else ""
        return _say(self.wrong, value, near, self.name)

    def to_json(self) -> JSONObject:
        data: JSONObject = {
            "name": self.name,
            "fact": self.fact,
            "pattern": self.pattern,
            "wrong": self.wrong,
            "optional": self.optional,
            "offer": self.offer or self.fact,
            "beside": self.beside,
        }
        if self.misshapen and self.shape:  # only then: a declaration without them reads as before
            data.update(shape=self.shape, misshapen=self.misshapen)
        return data


@dataclass(frozen=True)
class OrderWord:
    """One order word: word (upper case), its arguments in order, whether the last repeats
    (CLAIM A B C ...), the finding for a wrong number of arguments (`count`, with {word}), and
    the usage line the builder shows."""

    word: str
    arguments: tuple[Argument, ...] = ()
    repeats: bool = False
    count: str = "{word} takes other arguments"
    usage: str = ""

    def fewest(self) -> int:
        return sum(1 for a in self.arguments if not a.optional)

    def most(self) -> int | None:
        return None if self.repeats else len(self.arguments)

    def argument(self, index: int) -> Argument:
        return self.arguments[min(index, len(self.arguments) - 1)]

    def to_json(self) -> JSONObject:
        return {
            "word": self.word,
            "arguments": [a.to_json() for a in self.arguments],
            "repeats": self.repeats,
            "count": self.count,
            "usage": self.usage or " ".join([self.word, *(f"<{a.name}>" for a in self.arguments)]),
        }


@dataclass(frozen=True)
class OrderGrammar:
    """A ruleset's orders as data, with the facts of one seat's position.

    words: every order word, in the order the builder lists them.
    unknown: the finding for a first word that is no order, with {word} and {near}.
    numbered: an order may start with an action number (Empires' "3. MOVE ...").
    facts: each fact's values as the seat's report knows them ({"place": [...], "card": [...]}),
        compared without regard to case; the builder offers them as choices.
    now: the words the builder offers this turn (the phase's), () for all; the check takes
        every word, and leaves an order of the wrong phase to the ruleset's check.
    hinted: the words an unknown word's {near} is picked from, () for all (not an alias the
        parser takes but never suggests, as Conqueror's BUILD).
    next_to: each place's neighbours as the map shows them, for the builder (Argument.beside).
    pairs: how the line is cut into words. False (every ruleset's parser but one): a comma is a
        space. True (Minecraft EMPIRES'): brackets are spaces and a comma between two numbers
        joins them into one word, "12, 40" and "(12,40)" both 12,40; any other comma stays in its
        word. In the report only when true, so that the other grammars read as they always did.
    """

    words: tuple[OrderWord, ...]
    unknown: str = "{word} is not an order{near}"
    numbered: bool = False
    facts: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    now: tuple[str, ...] = ()
    hinted: tuple[str, ...] = ()
    next_to: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    pairs: bool = False

    def to_json(self) -> JSONObject:
        data: JSONObject = {
            "words": [w.to_json() for w in self.words],
            "unknown": self.unknown,
            "numbered": self.numbered,
            "facts": {kind: list(values) for kind, values in sorted(self.facts.items())},
            "now": list(self.now or (w.word for w in self.words)),
            "hinted": list(self.hinted or (w.word for w in self.words)),
            "next_to": {place: list(near) for place, near in sorted(self.next_to.items())},
        }
        if self.pairs:
            data["pairs"] = True
        return data


def from_json(data: JSONObject) -> OrderGrammar:
    """The grammar a report holds; ValueError saying in a few words what is wrong with it."""
    words = _list(data.get("words"), "words", MAX_WORDS)
    facts = data.get("facts") or {}
    if not isinstance(facts, dict):
        raise ValueError("its facts are not an object")
    values = {
        str(kind): tuple(_text(v, "a fact") for v in _list(vs, "facts of one kind", MAX_FACTS))
        for kind, vs in facts.items()
    }
    if sum(len(v) for v in values.values()) > MAX_FACTS:
        raise ValueError(f"it has more than {MAX_FACTS:,} facts")
    return OrderGrammar(
        words=tuple(_word(w) for w in words),
        unknown=_text(data.get("unknown", "{word} is not an order{near}"), "unknown"),
        numbered=data.get("numbered") is True,
        facts=values,
        hinted=tuple(_text(w, "a hinted word") for w in _list(data.get("hinted", []), "hinted words", MAX_WORDS)),
        pairs=data.get("pairs") is True,
    )


def _word(data: object) -> OrderWord:
    if not isinstance(data, dict):
        raise ValueError("an order word is not an object")
    arguments = tuple(_argument(a) for a in _list(data.get("arguments", []), "arguments", MAX_ARGUMENTS))
    word = _text(data.get("word"), "a word").upper()
    if not re.fullmatch(r"[A-Z][A-Z0-9_-]{0,39}", word):
        raise ValueError("an order word is not a word")
    return OrderWord(
        word=word,
        arguments=arguments,
        repeats=data.get("repeats") is True and bool(arguments),
        count=_text(data.get("count", "{word} takes other arguments"), "count"),
        usage=_text(data.get("usage", ""), "usage"),
    )


def _argument(data: object) -> Argument:
    if not isinstance(data, dict):
        raise ValueError("an argument is not an object")
    pattern, shape = _text(data.get("pattern", ""), "a pattern"), _text(data.get("shape", ""), "a shape")
    try:
        re.compile(pattern)
        re.compile(shape)
    except re.error:
        raise ValueError("a pattern is no regular expression") from None
    return Argument(
        name=_text(data.get("name"), "a name"),
        fact=_text(data.get("fact", ""), "a fact"),
        pattern=pattern,
        wrong=_text(data.get("wrong", "{word} is not a {name}{near}"), "wrong"),
        optional=data.get("optional") is True,
        shape=shape,
        misshapen=_text(data.get("misshapen", ""), "misshapen"),
    )


def _list(value: object, what: str, most: int) -> list[object]:
    if not isinstance(value, list):
        raise ValueError(f"its {what} are not a list")
    if len(value) > most:
        raise ValueError(f"it has more than {most:,} {what}")
    return value


def _text(value: object, what: str) -> str:
    if not isinstance(value, str) or len(value) > MAX_TEXT:
        raise ValueError(f"{what} is not text of up to {MAX_TEXT} characters")
    return value


def check_lines(grammar: OrderGrammar, lines: Iterable[tuple[int, str]]) -> list[Problem]:
    """The declaration's findings for the order lines of a turn file (as the envelope gives
    them: numbered, comments gone), at most one a line: an unknown word, a wrong number of
    arguments, or the first argument that matches neither its pattern nor its fact."""
    facts = {kind: frozenset(v.upper() for v in values) for kind, values in grammar.facts.items()}
    by_word = {w.word: w for w in grammar.words}
    found = []
    for number, text in lines:
        message = line_finding(grammar, by_word, facts, text)
        if message is not None:
            found.append(Problem(number, message))
    return found


def line_finding(
    grammar: OrderGrammar, by_word: Mapping[str, OrderWord], facts: Mapping[str, frozenset[str]], text: str
) -> str | None:
    """The finding of one order line, or None."""
    words = line_words(grammar, text)
    if grammar.numbered and len(words) > 1 and re.fullmatch(ACTION_NUMBER, words[0]):
        words = words[1:]
    if not words:
        return None
    order = by_word.get(words[0].upper())
    if order is None:
        return _say(grammar.unknown, words[0], did_you_mean(words[0], grammar.hinted or by_word))
    given, most = words[1:], order.most()
    if len(given) < order.fewest() or (most is not None and len(given) > most):
        return _say(order.count, words[0], "")
    for index, value in enumerate(given):
        argument = order.argument(index)
        if not argument.accepts(value, facts):
            return argument.finding(value, grammar.facts)
    return None


def line_words(grammar: OrderGrammar, text: str) -> list[str]:
    """An order line's words as the grammar cuts it (OrderGrammar.pairs)."""
    if grammar.pairs:
        return PAIR.sub(r"\1,\2", text.replace("(", " ").replace(")", " ")).split()
    return text.replace(",", " ").split()


def _say(template: str, word: str, near: str, name: str = "") -> str:
    """A finding's template filled in (plain replacement: a player's word is never a template)."""
    return template.replace("{name}", name).replace("{near}", near).replace("{word}", shown(word))
