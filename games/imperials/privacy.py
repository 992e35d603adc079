"""What a seat alone may know: its hand of cards, its action cards and its standing answers. The
contract's check of views changes exactly these (hidden_variant) and compares every other view."""

from __future__ import annotations

import copy
from random import Random

from gm.core.model import JSONObject

from .cards import BASIC_DECK, WONDERS_DECKS
from .goods import GOODS, RESOURCES, empty_hand


def hidden_variant(state: JSONObject, seat: str, rng: Random) -> JSONObject:
    """A copy of the state with the seat's secrets redrawn: the same number of cards in another
    mix (from the bank, where the old ones go back), action cards of other kinds, other standing answers (victory point cards stay what they
    are once the game is over, when everyone sees them)."""
    new = copy.deepcopy(state)
    me = new["seats"].get(seat)
    if me is None:
        return new
    kinds = RESOURCES if state["mode"] == "basic" else GOODS
    # The cards go back to the bank and the same number come out again, so that the bank and
    # the hands still hold every card once: a view that shows the bank's stock changes with them.
    bank = new["bank"]
    for good, n in me["hand"].items():
        bank[good] += n
    hand = empty_hand()
    for _ in range(sum(me["hand"].values())):
        good = rng.choice([g for g in kinds if bank[g] > 0])
        bank[good] -= 1
        hand[good] += 1
    me["hand"] = hand
    names = (
        sorted(BASIC_DECK)
        if state["mode"] == "basic"
        else sorted({c for deck in WONDERS_DECKS.values() for c in deck} - {"printer", "constitution"})
    )
    # Once the game is over the victory point cards are shown (they are no longer a secret).
    shown = state["phase"] == "over"
    me["cards"] = [
        card
        if shown and card["card"] == "point"
        else {**card, "card": rng.choice([n for n in names if not shown or n != "point"])}
        for card in me["cards"]
    ]
    me["standing"] = {
        "discard": [rng.choice(kinds) for _ in range(3)],
        "gold": [rng.choice(RESOURCES)],
        "robber": [rng.choice(sorted(new["board"]["tiles"])), None],
        "dragon": rng.choice(("science", "trade", "military")),
        "demote": [rng.randint(1, 50)],
        "drop": [rng.choice(names)],
    }
    return new
