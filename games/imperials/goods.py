"""Cards and costs: resources, commodities, what each tile yields, what each thing costs, the
bank, and moving cards between a hand and the bank (nothing else ever creates or destroys one)."""

from __future__ import annotations

from gm.core.model import JSONObject

RESOURCES = ("wood", "brick", "wool", "wheat", "ore")
COMMODITIES = ("paper", "cloth", "coin")  # rule book, Commodities & Improvements
GOODS = RESOURCES + COMMODITIES
# Words a player may write for a card, besides its own name.
ALIASES = {
    "lumber": "wood",
    "clay": "brick",
    "sheep": "wool",
    "grain": "wheat",
    "stone": "ore",
    "coins": "coin",
    "papers": "paper",
    "woods": "wood",
    "bricks": "brick",
    "wools": "wool",
    "wheats": "wheat",
    "ores": "ore",
    "cloths": "cloth",
}

KINDS = ("forest", "kiln", "pasture", "farm", "mine", "desert", "gold")
YIELDS = {"forest": "wood", "kiln": "brick", "pasture": "wool", "farm": "wheat", "mine": "ore"}
# "Towns on wood produce one wood and one paper ..." (Wonders & Warriors)
COMMODITY_OF = {"forest": "paper", "pasture": "cloth", "mine": "coin"}
IMPROVEMENT_OF = {"paper": "science", "cloth": "trade", "coin": "military"}
IMPROVEMENTS = ("science", "trade", "military")
COMMODITY_FOR = {v: k for k, v in IMPROVEMENT_OF.items()}

COSTS = {
    "road": {"wood": 1, "brick": 1},
    "village": {"wood": 1, "brick": 1, "wool": 1, "wheat": 1},
    "town": {"wheat": 2, "ore": 3},
    "card": {"wool": 1, "wheat": 1, "ore": 1},
    "warrior": {"wool": 1, "ore": 1},
    "upgrade": {"wool": 1, "ore": 1},
    "activate": {"wheat": 1},
    "fence": {"brick": 2},  # rule D-IM-7
}
LIMITS = {"road": 15, "village": 5, "town": 4}
FENCE_LIMIT = 3
IMPROVEMENT_LIMIT = 5
DISCARD_LIMIT = 7  # rule D-IM-1
FENCE_BONUS = 2  # "the discard limit of the player is increased by 2"
BANK = {**{r: 24 for r in RESOURCES}, **{c: 12 for c in COMMODITIES}}  # rule D-IM-1
CARD_LIMIT = 4  # W&W: action cards held outside one's own turn


def good_name(word: str) -> str | None:
    """A card's name from what a player wrote (any case, a few common synonyms), or None."""
    lower = word.lower()
    lower = ALIASES.get(lower, lower)
    return lower if lower in GOODS else None


def empty_hand() -> JSONObject:
    return {g: 0 for g in GOODS}


# Cards by kind, as in a hand, a price or a trade: {'wood': 2, 'ore': 1}.
Cards = dict[str, int]


def hand_size(hand: Cards) -> int:
    return sum(hand.values())


def has(hand: Cards, cost: Cards) -> bool:
    return all(hand.get(g, 0) >= n for g, n in cost.items())


def missing(hand: Cards, cost: Cards) -> Cards:
    """What a hand lacks to pay a cost: {card: how many more}."""
    return {g: n - hand.get(g, 0) for g, n in cost.items() if hand.get(g, 0) < n}


def pay(state: JSONObject, seat: str, cost: Cards) -> None:
    """Cards from a seat's hand to the bank (the caller has checked the hand holds them)."""
    hand = state["seats"][seat]["hand"]
    for good, n in cost.items():
        hand[good] -= n
        state["bank"][good] += n


def take(state: JSONObject, seat: str, good: str, n: int) -> None:
    """Cards from the bank to a seat's hand (the caller has checked the bank holds them)."""
    state["bank"][good] -= n
    state["seats"][seat]["hand"][good] += n


def hand_from(seat: str, other: str, state: JSONObject, cards: Cards) -> None:
    """Cards from one seat's hand to another's (a trade, a theft, a monopoly)."""
    for good, n in cards.items():
        state["seats"][seat]["hand"][good] -= n
        state["seats"][other]["hand"][good] += n


def cards_text(cards: Cards) -> str:
    """{'wood': 2, 'ore': 1} -> '2 wood, 1 ore' in the book's order; 'nothing' when empty."""
    parts = [f"{cards[g]} {g}" for g in GOODS if cards.get(g)]
    return ", ".join(parts) or "nothing"
