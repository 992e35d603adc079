"""The turn file's words: every order's shape and the parser (never raises; a bad line becomes a
problem with its line number). What an order needs of the game is checked in orders.py."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TypeGuard

from gm.core.maps import parse_lines, shown as _shown
from gm.core.model import JSONObject, Order, OrderArgs, Problem
from gm.core.warnings import did_you_mean

from .board import parse_edge
from .cards import TITLES, card_name
from .goods import COMMODITIES, IMPROVEMENTS, RESOURCES, good_name

ACTIONS = (
    "ROAD",
    "VILLAGE",
    "TOWN",
    "BUY",
    "PLAY",
    "MARKET",
    "OFFER",
    "IMPROVE",
    "FENCE",
    "WARRIOR",
    "ACTIVATE",
    "UPGRADE",
    "MOVE",
    "CHASE",
)
# Answers for what happens outside the seat's own actions: read before its turn or in others'.
# WITHDRAW and CHOOSE are the maker's decisions on its offers, read before its turn carries them
# out (rule D-IM-9); like ACCEPT they count for the round they are sent in.
STANDING = ("ACCEPT", "WITHDRAW", "CHOOSE", "DISCARD", "ROBBER", "GOLD", "DEMOTE", "DRAGON", "DROP")
SETUP = ("SETTLE",)
VERBS = SETUP + ACTIONS + STANDING
CARD_WORDS = tuple(card.upper() for card in TITLES)  # what a "did you mean" offers for a card
WONDERS_ONLY = ("IMPROVE", "FENCE", "WARRIOR", "ACTIVATE", "UPGRADE", "MOVE", "CHASE", "DEMOTE", "DRAGON", "DROP")
USAGE = {
    "SETTLE": "SETTLE <vertex> [<edge>]",
    "ROAD": "ROAD <edge>",
    "VILLAGE": "VILLAGE <vertex>",
    "TOWN": "TOWN <vertex>",
    "BUY": "BUY",
    "PLAY": "PLAY <card> ...",
    "MARKET": "MARKET <card you give> FOR <card you get>",
    "OFFER": "OFFER <seat|ALL> <n> <card> ... FOR <n> <card> ...",
    "WITHDRAW": "WITHDRAW <offer>",
    "CHOOSE": "CHOOSE <offer> <seat> ...",
    "IMPROVE": "IMPROVE <science|trade|military> [<town vertex>]",
    "FENCE": "FENCE <town vertex>",
    "WARRIOR": "WARRIOR <vertex>",
    "ACTIVATE": "ACTIVATE <vertex>",
    "UPGRADE": "UPGRADE <vertex>",
    "MOVE": "MOVE <from vertex> <to vertex>",
    "CHASE": "CHASE <vertex> [<tile> [<seat>]]",
    "ACCEPT": "ACCEPT <offer> ...",
    "DISCARD": "DISCARD <card> ...",
    "ROBBER": "ROBBER <tile> [<seat>]",
    "GOLD": "GOLD <resource> ...",
    "DEMOTE": "DEMOTE <town vertex> ...",
    "DRAGON": "DRAGON <science|trade|military>",
    "DROP": "DROP <action card> ...",
}
# What a PLAY order names after its card: (how many words it needs, the kind of each word it may
# give). The card effects read them in this order (rule D-IM-10 for the Wonders & Warriors cards).
CARD_ARGS: dict[str, tuple[int, tuple[str, ...]]] = {
    "warrior": (0, ("tile", "seat")),
    "roads": (1, ("edge", "edge")),
    "plenty": (2, ("resource", "resource")),
    "monopoly": (1, ("resource",)),
    "alchemist": (2, ("die", "die")),
    "crane": (1, ("colour", "vertex")),
    "engineer": (1, ("vertex",)),
    "inventor": (2, ("tile", "tile")),
    "irrigation": (0, ()),
    "medicine": (1, ("vertex",)),
    "mining": (0, ()),
    "smith": (1, ("vertex", "vertex")),
    "harbor": (0, ("resource",) * 5),
    "mastermerchant": (1, ("seat", "good", "good")),
    "merchant": (1, ("tile",)),
    "fleet": (1, ("good",)),
    "resourcemonopoly": (1, ("resource",)),
    "trademonopoly": (1, ("commodity",)),
    "bishop": (0, ("tile",)),
    "deserter": (1, ("seat", "vertex")),
    "diplomat": (1, ("edge", "edge")),
    "intrigue": (1, ("vertex",)),
    "saboteur": (0, ()),
    "spy": (1, ("seat", "card")),
    "warlord": (0, ()),
    "wedding": (0, ()),
}
PLAY_USAGE = {
    "warrior": "PLAY WARRIOR [<tile> [<seat>]]",
    "roads": "PLAY ROADS <edge> [<edge>]",
    "plenty": "PLAY PLENTY <resource> <resource>",
    "monopoly": "PLAY MONOPOLY <resource>",
    "alchemist": "PLAY ALCHEMIST <white die> <red die>",
    "crane": "PLAY CRANE <science|trade|military> [<town vertex>]",
    "engineer": "PLAY ENGINEER <town vertex>",
    "inventor": "PLAY INVENTOR <tile> <tile>",
    "irrigation": "PLAY IRRIGATION",
    "medicine": "PLAY MEDICINE <village vertex>",
    "mining": "PLAY MINING",
    "smith": "PLAY SMITH <vertex> [<vertex>]",
    "harbor": "PLAY HARBOR [<resource you give> ...]",
    "mastermerchant": "PLAY MASTERMERCHANT <seat> [<card> [<card>]]",
    "merchant": "PLAY MERCHANT <tile>",
    "fleet": "PLAY FLEET <card>",
    "resourcemonopoly": "PLAY RESOURCEMONOPOLY <resource>",
    "trademonopoly": "PLAY TRADEMONOPOLY <commodity>",
    "bishop": "PLAY BISHOP [<tile>]",
    "deserter": "PLAY DESERTER <seat> [<vertex>]",
    "diplomat": "PLAY DIPLOMAT <edge> [<edge>]",
    "intrigue": "PLAY INTRIGUE <vertex>",
    "saboteur": "PLAY SABOTEUR",
    "spy": "PLAY SPY <seat> [<card>]",
    "warlord": "PLAY WARLORD",
    "wedding": "PLAY WEDDING",
}
assert set(PLAY_USAGE) == set(CARD_ARGS)
COLOURS = {
    "science": "science",
    "green": "science",
    "trade": "trade",
    "yellow": "trade",
    "military": "military",
    "blue": "military",
}
NUMBER = re.compile(r"#?([0-9]{1,4})")
TILE = re.compile(r"[A-Za-z]{1,2}")
SEAT = re.compile(r"[A-Za-z][A-Za-z0-9]{0,5}")


# A reader turns one word into an argument (or raises Bad); a parser, the words after a verb.
Reader = Callable[[str], str | int]
Parser = Callable[[list[str]], OrderArgs]


def make_order(verb: str, *args: object) -> Order:
    """An order as the robot or the order form writes it (line 0, text rebuilt)."""
    return Order(verb, tuple(args), 0, order_line(verb, args))


def order_line(verb: str, args: Sequence[object]) -> str:
    words = [verb]
    for arg in args:
        if isinstance(arg, dict):
            words.append(" ".join(f"{n} {g}" for g, n in arg.items()))
        elif arg is not None:
            words.append(str(arg))
    if verb == "OFFER" and len(args) == 3:
        return f"OFFER {args[0]} {words[2]} FOR {words[3]}"
    if verb == "MARKET" and len(args) == 2:
        return f"MARKET {args[0]} FOR {args[1]}"
    if verb == "MARKET" and len(args) == 3:
        return f"MARKET {args[2]} {args[0]} FOR {args[1]}"
    return " ".join(words)


def parse_orders(lines: list[tuple[int, str]]) -> tuple[list[Order], list[Problem]]:
    """Parse the body lines of a turn file. Never raises: bad lines become problems."""
    return parse_lines(lines, _parse_words)


class Bad(Exception):
    """A word that does not fit: its message becomes the line's problem."""


def _parse_words(words: list[str]) -> tuple[str, OrderArgs] | str:
    verb, rest = words[0].upper(), words[1:]
    if verb not in VERBS:
        return (
            f"{_shown(words[0])} is not an order{did_you_mean(words[0], VERBS)}; orders are {', '.join(SETUP + ACTIONS)}, "
            f"and the answers read before or outside your turn {', '.join(STANDING)}"
        )
    try:
        return verb, PARSERS[verb](rest)
    except Bad as bad:
        return str(bad)
    except IndexError:
        return f"{verb} needs more: {USAGE[verb]}"


def _none(rest: list[str], verb: str) -> OrderArgs:
    if rest:
        raise Bad(f"{verb} takes nothing after it")
    return ()


def vertex(word: str) -> int:
    match = NUMBER.fullmatch(word)
    if not match:
        raise Bad(f"{_shown(word)} is not a vertex: vertices are the numbers on the map, like 12")
    return int(match[1])


def edge(word: str) -> str:
    ends = parse_edge(word)
    if ends is None or ends[0] == ends[1]:
        raise Bad(f"{_shown(word)} is not an edge: name it by the vertices at its ends, like 12-13")
    return f"{ends[0]}-{ends[1]}"


def offer_number(word: str) -> int:
    match = NUMBER.fullmatch(word)
    if not match:
        raise Bad(f"{_shown(word)} is not an offer: offers are numbered in the report, like #3")
    return int(match[1])


def tile(word: str) -> str:
    if not TILE.fullmatch(word):
        raise Bad(f"{_shown(word)} is not a tile: tiles are the letters on the map, like H")
    return word.upper()


def seat(word: str) -> str:
    if not SEAT.fullmatch(word):
        raise Bad(f"{_shown(word)} is not a seat: seats are colour codes, like BLUE")
    return word.upper()


def good(word: str, allowed: tuple[str, ...] = RESOURCES + COMMODITIES) -> str:
    name = good_name(word)
    if name is None or name not in allowed:
        raise Bad(f"{_shown(word)} is not a card here{did_you_mean(word, allowed)}; write one of {', '.join(allowed)}")
    return name


def colour(word: str) -> str:
    name = COLOURS.get(word.lower())
    if name is None:
        raise Bad(f"{_shown(word)} is not an improvement; write science, trade or military")
    return name


def _exactly(rest: list[str], low: int, high: int, verb: str) -> list[str]:
    if not low <= len(rest) <= high:
        raise Bad(f"{verb} is written {USAGE[verb]}")
    return rest


# Numbers as the book writes them ("two wheat and three ore", "any 4 cards"), for a count of cards.
NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8}


def card_count(word: str) -> int | None:
    """A count of cards, in digits or in words as the book writes it ('4', 'two'); None if none."""
    if NUMBER.fullmatch(word) and not word.startswith("#"):
        return int(word)
    return NUMBER_WORDS.get(word.lower())


def _cards(words: list[str], what: str) -> JSONObject:
    """'2 wood 1 ore', 'two wood and one ore' or 'wood wood ore' -> {'wood': 2, 'ore': 1}."""
    cards: dict[str, int] = {}
    count = None
    for word in words:
        if word.lower() == "and" and count is None and cards:  # "two wheat and three ore"
            continue
        number = card_count(word)
        if number is not None:
            if count is not None:
                raise Bad(f"two numbers in a row in {what}")
            count = number
            if count < 1:
                raise Bad(f"the number of cards must be at least 1 in {what}")
            continue
        name = good(word)
        cards[name] = cards.get(name, 0) + (1 if count is None else count)
        count = None
    if count is not None:
        raise Bad(f"a number without a card in {what}")
    if not cards:
        raise Bad(f"{what} names no cards: each side of a trade gives at least one card")
    return cards


def _offer(rest: list[str]) -> OrderArgs:
    upper = [w.upper() for w in rest]
    if "FOR" not in upper or len(rest) < 3:
        raise Bad(f"OFFER needs who, what you give and what you want: {USAGE['OFFER']}")
    split = upper.index("FOR")
    to = "ALL" if upper[0] in ("ALL", "ANY", "ANYONE") else seat(rest[0])
    give = _cards(rest[1:split], "what you give")
    get = _cards(rest[split + 1 :], "what you want")
    return to, give, get


def _choose(rest: list[str]) -> OrderArgs:
    if len(rest) < 2:
        raise Bad(f"CHOOSE names your offer and whom you trade with, first choice first: {USAGE['CHOOSE']}")
    return (offer_number(rest[0]), *(seat(w) for w in rest[1:]))


# The market's rates: "any 4 cards of the same type", "3 cards" at a general port, "2 cards" at a
# resource port (and the guild's, the merchant's and the Merchant Fleet's 2).
MARKET_RATES = (2, 3, 4)


def _market(rest: list[str]) -> OrderArgs:
    """'wood FOR ore', or with the book's numbers '4 wood FOR 1 ore': the number given is the most
    the player gives; the market takes its rate for the player (checked when the trade runs)."""
    upper = [w.upper() for w in rest]
    if upper.count("FOR") > 1 or not rest:
        raise Bad(f"MARKET needs the card you give and the card you get: {USAGE['MARKET']}")
    split = upper.index("FOR") if "FOR" in upper else len(rest) - 1  # FOR may be left out
    give, get = rest[:split], rest[split + ("FOR" in upper) :]
    most = _count(give)
    if _count(get) not in (None, 1):
        raise Bad("the market gives one card a trade: write a MARKET line for each card you take")
    if len(give) != 1 or len(get) != 1:
        raise Bad(f"MARKET needs the card you give and the card you get: {USAGE['MARKET']}")
    if most is not None and most not in MARKET_RATES:
        raise Bad(
            f"the market takes 4 cards of one type for one card (3 at a general port, 2 at a port of that"
            f" resource), not {most}: write MARKET {give[0]} FOR {get[0]} and it takes your rate"
        )
    cards = good(give[0]), good(get[0])
    return cards if most is None else (*cards, most)


def _count(words: list[str]) -> int | None:
    """A number written before a MARKET card ('4 wood'), taken off the words; None without one."""
    number = card_count(words[0]) if len(words) == 2 else None
    if number is not None:
        words.pop(0)
    return number


def _play(rest: list[str]) -> OrderArgs:
    if not rest:
        raise Bad(f"PLAY needs a card: {USAGE['PLAY']}")
    card, args = _card_words(rest)
    if card in ("point", "printer", "constitution"):
        raise Bad("victory point cards are never played: they count while you hold them")
    low, kinds = CARD_ARGS[card]
    if not low <= len(args) <= len(kinds):
        raise Bad(f"PLAY {card.upper()} is written {PLAY_USAGE[card]}")
    return (card, *(WORD_READERS[kind](word) for kind, word in zip(kinds, args)))


def _card_words(rest: list[str]) -> tuple[str, list[str]]:
    """The card a PLAY names, in one word or up to three ("MERCHANT FLEET", "YEAR OF PLENTY"),
    and the words after it."""
    for n in (3, 2, 1):
        card = card_name("".join(rest[:n])) if len(rest) >= n else None
        if card is not None:
            return card, rest[n:]
    raise Bad(f"{_shown(rest[0])} is not an action card{did_you_mean(rest[0], CARD_WORDS)}")


def die(word: str) -> int:
    if not (word.isascii() and word.isdigit() and 1 <= int(word) <= 6):  # int('²') raises
        raise Bad(f"{_shown(word)} is not what a die shows: write 1 to 6")
    return int(word)


def action_card(word: str) -> str:
    card = card_name(word)
    if card is None:
        raise Bad(f"{_shown(word)} is not an action card{did_you_mean(word, CARD_WORDS)}")
    return card


def _list(read: Reader, verb: str) -> Parser:
    def parse(rest: list[str]) -> OrderArgs:
        if not rest:
            raise Bad(f"{verb} needs at least one: {USAGE[verb]}")
        if verb == "DISCARD":
            cards = _cards(rest, "DISCARD")
            return tuple(g for g, n in cards.items() for _ in range(n))
        return tuple(read(w) for w in rest)

    return parse


def _with_optional(first: Reader, *optional: Reader, verb: str) -> Parser:
    def parse(rest: list[str]) -> OrderArgs:
        _exactly(rest, 1, 1 + len(optional), verb)
        readers = (first, *optional)
        values: list[str | int | None] = [read(word) for read, word in zip(readers, rest)]
        return tuple(values + [None] * (1 + len(optional) - len(values)))

    return parse


def _one(read: Reader, verb: str) -> Parser:
    def parse(rest: list[str]) -> OrderArgs:
        _exactly(rest, 1, 1, verb)
        return (read(rest[0]),)

    return parse


PARSERS: dict[str, Parser] = {
    "SETTLE": _with_optional(vertex, edge, verb="SETTLE"),
    "ROAD": _one(edge, "ROAD"),
    "VILLAGE": _one(vertex, "VILLAGE"),
    "TOWN": _one(vertex, "TOWN"),
    "BUY": lambda rest: _none(rest, "BUY"),
    "PLAY": _play,
    "MARKET": _market,
    "OFFER": _offer,
    "WITHDRAW": _one(offer_number, "WITHDRAW"),
    "CHOOSE": _choose,
    "IMPROVE": _with_optional(colour, vertex, verb="IMPROVE"),
    "FENCE": _one(vertex, "FENCE"),
    "WARRIOR": _one(vertex, "WARRIOR"),
    "ACTIVATE": _one(vertex, "ACTIVATE"),
    "UPGRADE": _one(vertex, "UPGRADE"),
    "MOVE": lambda rest: tuple(vertex(w) for w in _exactly(rest, 2, 2, "MOVE")),
    "CHASE": _with_optional(vertex, tile, seat, verb="CHASE"),
    "ACCEPT": _list(offer_number, "ACCEPT"),
    "DISCARD": _list(good, "DISCARD"),
    "ROBBER": _with_optional(tile, seat, verb="ROBBER"),
    "GOLD": _list(lambda w: good(w, RESOURCES), "GOLD"),
    "DEMOTE": _list(vertex, "DEMOTE"),
    "DRAGON": _one(colour, "DRAGON"),
    "DROP": _list(action_card, "DROP"),
}


# ----------------------------------------------------------------------------------------------
# The shapes the parser gives, so that resolve never trusts an order object it is handed.


def _integer(a: object) -> bool:
    return isinstance(a, int) and not isinstance(a, bool)


def _text(a: object) -> bool:
    return isinstance(a, str)


def _cards_table(a: object) -> bool:
    return (
        isinstance(a, dict)
        and bool(a)
        and all(isinstance(g, str) and good_name(g) == g and _integer(n) and n > 0 for g, n in a.items())
    )


def _goods(args: OrderArgs, allowed: tuple[str, ...] = RESOURCES + COMMODITIES) -> bool:
    return bool(args) and all(isinstance(a, str) and a in allowed for a in args)


SHAPES: dict[str, Callable[[OrderArgs], bool]] = {
    "SETTLE": lambda a: len(a) == 2 and _integer(a[0]) and (a[1] is None or _text(a[1])),
    "ROAD": lambda a: len(a) == 1 and _text(a[0]),
    "BUY": lambda a: not a,
    "PLAY": lambda a: len(a) >= 1 and _text(a[0]) and _play_shaped(a[0], a[1:]),
    "MARKET": lambda a: (
        (len(a) == 2 and _goods(a)) or (len(a) == 3 and _goods(a[:2]) and _integer(a[2]) and a[2] in MARKET_RATES)
    ),
    "OFFER": lambda a: len(a) == 3 and _text(a[0]) and _cards_table(a[1]) and _cards_table(a[2]),
    "IMPROVE": lambda a: len(a) == 2 and a[0] in IMPROVEMENTS and (a[1] is None or _integer(a[1])),
    "MOVE": lambda a: len(a) == 2 and all(_integer(x) for x in a),
    "CHASE": lambda a: len(a) == 3 and _integer(a[0]) and all(x is None or _text(x) for x in a[1:]),
    "ACCEPT": lambda a: bool(a) and all(_integer(x) for x in a),
    "CHOOSE": lambda a: len(a) >= 2 and _integer(a[0]) and all(_text(x) for x in a[1:]),
    "DISCARD": lambda a: _goods(a),
    "ROBBER": lambda a: len(a) == 2 and _text(a[0]) and (a[1] is None or _text(a[1])),
    "GOLD": lambda a: _goods(a, RESOURCES),
    "DEMOTE": lambda a: bool(a) and all(_integer(x) for x in a),
    "DRAGON": lambda a: len(a) == 1 and a[0] in IMPROVEMENTS,
    "DROP": lambda a: bool(a) and all(card_name(x) == x for x in a if _text(x)) and all(_text(x) for x in a),
}
for _verb in ("VILLAGE", "TOWN", "WITHDRAW", "FENCE", "WARRIOR", "ACTIVATE", "UPGRADE"):
    SHAPES[_verb] = lambda a: len(a) == 1 and _integer(a[0])


WORD_READERS: dict[str, Reader] = {
    "tile": tile,
    "seat": seat,
    "edge": edge,
    "vertex": vertex,
    "die": die,
    "colour": colour,
    "card": action_card,
    "resource": lambda w: good(w, RESOURCES),
    "commodity": lambda w: good(w, COMMODITIES),
    "good": good,
}
ARG_SHAPES: dict[str, Callable[[object], bool]] = {
    "tile": lambda x: _text(x) and TILE.fullmatch(str(x)) is not None,
    "seat": _text,
    "edge": _text,
    "vertex": _integer,
    "die": lambda x: _integer(x) and 1 <= int(str(x)) <= 6,
    "colour": lambda x: x in IMPROVEMENTS,
    "card": lambda x: _text(x) and card_name(str(x)) == x,
    "resource": lambda x: x in RESOURCES,
    "commodity": lambda x: x in COMMODITIES,
    "good": lambda x: x in RESOURCES + COMMODITIES,
}


def _play_shaped(card: str, args: OrderArgs) -> bool:
    if card not in CARD_ARGS:
        return False
    low, kinds = CARD_ARGS[card]
    return low <= len(args) <= len(kinds) and all(ARG_SHAPES[k](a) for k, a in zip(kinds, args))


def well_formed(order: object) -> TypeGuard[Order]:
    """Whether an order has the shape the parser gives its verb."""
    if not isinstance(order, Order) or not isinstance(order.args, (tuple, list)):
        return False
    shape = SHAPES.get(order.verb)
    return shape is not None and shape(tuple(order.args))
