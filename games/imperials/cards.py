"""Action cards: the decks of both modes, what each card is called, and drawing from a deck.

Basic (rule D-IM-2): one deck of 25 cards, bought for wool, wheat and ore. Wonders & Warriors:
three decks, one per improvement colour, dealt by the event die; the rule book names no cards
for them, so gm makes each deck of cards that work like the Basic ones or like the pieces of
this mode (see the ruleset's README, "Action cards in Wonders & Warriors").
"""

from __future__ import annotations

from random import Random

from gm.core.model import JSONObject

BASIC_DECK = {"warrior": 14, "point": 5, "roads": 2, "plenty": 2, "monopoly": 2}  # rule D-IM-2
WONDERS_DECKS = {
    "science": {"roads": 3, "irrigation": 3, "mining": 3, "engineer": 2, "printer": 1},
    "trade": {"plenty": 4, "monopoly": 4, "merchant": 4},
    "military": {"warlord": 4, "smith": 4, "bishop": 3, "constitution": 1},
}
TITLES = {
    "warrior": "Warrior",
    "point": "Victory Point",
    "roads": "Road Building",
    "plenty": "Year of Plenty",
    "monopoly": "Monopoly",
    "irrigation": "Irrigation",
    "mining": "Mining",
    "engineer": "Engineer",
    "printer": "Printer",
    "merchant": "Merchant",
    "warlord": "Warlord",
    "smith": "Smith",
    "bishop": "Bishop",
    "constitution": "Constitution",
}
WHAT = {
    "warrior": "move the robber and rob a player next to it; 3 played make an army",
    "point": "1 victory point, kept hidden in your hand until the game ends",
    "roads": "build 2 roads for free",
    "plenty": "take 2 resources of your choice from the bank",
    "monopoly": "every other player gives you all their cards of one resource",
    "irrigation": "2 wheat for each farm next to your settlements",
    "mining": "2 ore for each mine next to your settlements",
    "engineer": "a fence for free on one of your towns",
    "printer": "1 victory point, shown at once",
    "merchant": "every other player gives you 1 of a commodity you name",
    "warlord": "activate all your warriors for free",
    "smith": "upgrade up to 2 of your warriors for free",
    "bishop": "move the robber and rob every player next to it",
    "constitution": "1 victory point, shown at once",
}
SHOWN_POINTS = ("printer", "constitution")  # W&W victory points: shown at once, out of the hand
PLAYABLE = tuple(c for c in TITLES if c not in ("point", *SHOWN_POINTS))
COLOUR_OF = {card: colour for colour, deck in WONDERS_DECKS.items() for card in deck}
# Words a player may write after PLAY, besides a card's own name.
CARD_ALIASES = {
    "knight": "warrior",
    "roadbuilding": "roads",
    "road": "roads",
    "yearofplenty": "plenty",
    "year": "plenty",
    "vp": "point",
    "victory": "point",
}


def card_name(word: str) -> str | None:
    lower = word.lower().replace("-", "").replace("_", "")
    lower = CARD_ALIASES.get(lower, lower)
    return lower if lower in TITLES else None


def new_decks(mode: str, rng: Random) -> JSONObject:
    """The shuffled decks of a new game: {"basic": [...]} or one per colour."""
    decks = {"basic": BASIC_DECK} if mode == "basic" else WONDERS_DECKS
    shuffled = {}
    for name, contents in decks.items():
        cards = [card for card, n in contents.items() for _ in range(n)]
        rng.shuffle(cards)
        shuffled[name] = cards
    return shuffled


def draw(state: JSONObject, deck: str) -> str | None:
    """The top card of a deck (None when it is empty)."""
    cards = state["decks"][deck]
    return cards.pop(0) if cards else None


def held(seat: JSONObject) -> list[str]:
    """The action cards in a seat's hand, by name."""
    return [c["card"] for c in seat["cards"]]
