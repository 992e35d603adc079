"""Action cards: the decks of both modes, what each card is called and does, and drawing.

Basic (rule D-IM-2): one deck of 25 cards, bought for wool, wheat and ore. Wonders & Warriors
(rule D-IM-10): the game's implementation's progress cards, three decks of its kinds and counts,
one per improvement colour, dealt by the event die; a card played goes back under its deck. What
each card does, and what gm reads from a turn file for it, is in the ruleset's README.
"""

from __future__ import annotations

from random import Random

from gm.core.model import JSONObject

BASIC_DECK = {"warrior": 14, "point": 5, "roads": 2, "plenty": 2, "monopoly": 2}  # rule D-IM-2
# rule D-IM-10: the implementation's progress cards, by the improvement colour that deals them.
WONDERS_DECKS = {
    "science": {
        "alchemist": 2,
        "crane": 2,
        "engineer": 2,
        "inventor": 1,
        "irrigation": 2,
        "medicine": 2,
        "mining": 2,
        "printer": 1,
        "roads": 2,
        "smith": 1,
    },
    "trade": {"harbor": 2, "mastermerchant": 2, "merchant": 6, "fleet": 2, "resourcemonopoly": 4, "trademonopoly": 2},
    "military": {
        "bishop": 2,
        "constitution": 1,
        "deserter": 2,
        "diplomat": 2,
        "intrigue": 2,
        "saboteur": 2,
        "spy": 3,
        "warlord": 2,
        "wedding": 2,
    },
}
TITLES = {
    "warrior": "Warrior",
    "point": "Victory Point",
    "roads": "Road Building",
    "plenty": "Year of Plenty",
    "monopoly": "Monopoly",
    "alchemist": "Alchemist",
    "crane": "Crane",
    "engineer": "Engineer",
    "inventor": "Inventor",
    "irrigation": "Irrigation",
    "medicine": "Medicine",
    "mining": "Mining",
    "printer": "Printer",
    "smith": "Smith",
    "harbor": "Commercial Harbor",
    "mastermerchant": "Master Merchant",
    "merchant": "Merchant",
    "fleet": "Merchant Fleet",
    "resourcemonopoly": "Resource Monopoly",
    "trademonopoly": "Trade Monopoly",
    "bishop": "Bishop",
    "constitution": "Constitution",
    "deserter": "Deserter",
    "diplomat": "Diplomat",
    "intrigue": "Intrigue",
    "saboteur": "Saboteur",
    "spy": "Spy",
    "warlord": "Warlord",
    "wedding": "Wedding",
}
WHAT = {
    "warrior": "move the robber and rob a player next to it; 3 played make an army",
    "point": "1 victory point, kept hidden in your hand until the game ends",
    "roads": "build 2 roads for free",
    "plenty": "take 2 resources of your choice from the bank",
    "monopoly": "every other player gives you all their cards of one resource",
    "alchemist": "before your roll: you choose what the white and red dice show",
    "crane": "your next improvement of a kind costs one commodity less",
    "engineer": "a fence for free on one of your towns",
    "inventor": "swap the numbers of two tiles (not 2, 12, 6 or 8)",
    "irrigation": "2 wheat for each farm next to your villages and towns",
    "medicine": "a village of yours becomes a town for 2 ore and 1 wheat",
    "mining": "2 ore for each mine next to your villages and towns",
    "printer": "1 victory point, shown at once",
    "smith": "upgrade up to 2 of your warriors for free",
    "harbor": "each other player with a commodity gives you one for a resource you give",
    "mastermerchant": "take 2 cards of your choice from a player with more points",
    "merchant": "the merchant on a tile at your pieces: 2:1 for its resource and 1 point while yours",
    "fleet": "this turn the market takes 2 of one card (you name it) for 1",
    "resourcemonopoly": "every other player gives you up to 2 of a resource you name",
    "trademonopoly": "every other player gives you 1 of a commodity you name",
    "bishop": "move the robber and take a card from every player at its tile",
    "constitution": "1 victory point, shown at once",
    "deserter": "a player gives up a warrior; you place one of its level",
    "diplomat": "remove an open road; your own you may place again",
    "intrigue": "displace another player's warrior at one of your roads",
    "saboteur": "every player with as many points as you or more discards half their cards",
    "spy": "take an action card of your choice from another player",
    "warlord": "activate all your warriors for free",
    "wedding": "every player with more points than you gives you 2 cards of their choice",
}
SHOWN_POINTS = ("printer", "constitution")  # W&W victory points: shown at once, out of the hand
WONDERS_CARDS = tuple(dict.fromkeys(card for deck in WONDERS_DECKS.values() for card in deck))
# The cards a PLAY order names in each mode: every card but the victory points.
PLAYABLE = {
    "basic": ("warrior", "roads", "plenty", "monopoly"),
    "wonders": tuple(c for c in WONDERS_CARDS if c not in SHOWN_POINTS),
}
COLOUR_OF = {card: colour for colour, deck in WONDERS_DECKS.items() for card in deck}
# Words a player may write after PLAY, besides a card's own name (spaces, - and _ left out).
CARD_ALIASES = {
    "knight": "warrior",
    "roadbuilding": "roads",
    "roadbuilder": "roads",
    "road": "roads",
    "yearofplenty": "plenty",
    "year": "plenty",
    "harvest": "plenty",
    "vp": "point",
    "victory": "point",
    "victorypoint": "point",
    "commercialharbor": "harbor",
    "commercialharbour": "harbor",
    "harbour": "harbor",
    "merchantfleet": "fleet",
}


def other_mode(card: str, mode: str) -> str | None:
    """Why a card cannot be played in a game of `mode` (None when it can): it is the other mode's."""
    if card in PLAYABLE[mode]:
        return None
    if card == "warrior":
        return "Warrior is a card of the Basic game; in Wonders & Warriors build warriors with WARRIOR"
    if mode == "basic":
        return f"{TITLES[card]} is a card of Wonders & Warriors; this game plays the Basic rules"
    return f"{TITLES[card]} is a card of the Basic game; Wonders & Warriors deals its own (rule D-IM-10)"


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
