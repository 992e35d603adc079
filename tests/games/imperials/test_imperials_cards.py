"""Imperials action cards (rule D-IM-10) and robots that use every order: the Wonders & Warriors
decks are the implementation's progress cards, every card is read, checked, played and drawn,
each has a case, and seeded robot games use every order and card of the book."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import gm_games.imperials
import pytest
from gm_games.imperials import ruleset
from gm_games.imperials.cards import BASIC_DECK, PLAYABLE, TITLES, WHAT, WONDERS_DECKS, new_decks
from gm_games.imperials.grammar import ACTIONS, CARD_ARGS, PLAY_USAGE, STANDING, WONDERS_ONLY
from gm_games.imperials.play import EFFECTS

from gm.core.model import SeatInfo
from gm.core.ruleset import TurnSeeds
from gm.render.hexmap import hex_svg

CASES = Path(gm_games.imperials.__file__).parent / "cases"
# The implementation's progress cards (entities/card.go, GenerateProgessCardOrder): kinds and counts.
IMPLEMENTATION = {
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


def test_the_wonders_decks_are_the_implementation_s_progress_cards():
    assert WONDERS_DECKS == IMPLEMENTATION
    assert {n: sum(d.values()) for n, d in WONDERS_DECKS.items()} == {"science": 17, "trade": 18, "military": 18}
    dealt = new_decks("wonders", __import__("random").Random(4))
    assert {n: Counter(cards) for n, cards in dealt.items()} == {n: Counter(d) for n, d in IMPLEMENTATION.items()}
    assert BASIC_DECK == {"warrior": 14, "point": 5, "roads": 2, "plenty": 2, "monopoly": 2}  # rule D-IM-2


@pytest.mark.parametrize("card", sorted({c for cards in PLAYABLE.values() for c in cards}))
def test_every_playable_card_is_named_explained_read_and_carried_out(card):
    assert TITLES[card] and WHAT[card] and card in CARD_ARGS and PLAY_USAGE[card].startswith(f"PLAY {card.upper()}")
    assert card == "alchemist" or card in EFFECTS  # Alchemist is read before the roll
    mode = "basic" if card in PLAYABLE["basic"] else "wonders"
    if mode == "wonders":
        assert any(f'"{card}"' in p.read_text() for p in CASES.glob("ww-card*.toml")) or card == "roads", card


@pytest.mark.parametrize(
    "line, parsed",
    [
        ("PLAY ALCHEMIST 2 5", ("alchemist", 2, 5)),
        ("PLAY crane green 24", ("crane", "science", 24)),
        ("PLAY MERCHANT FLEET coin", ("fleet", "coin")),
        ("PLAY merchant h", ("merchant", "H")),
        ("PLAY Master Merchant blue wool", ("mastermerchant", "BLUE", "wool")),
        ("PLAY COMMERCIAL HARBOUR ore wood", ("harbor", "ore", "wood")),
        ("PLAY Resource-Monopoly wheat", ("resourcemonopoly", "wheat")),
        ("PLAY trade monopoly cloth", ("trademonopoly", "cloth")),
        ("PLAY SPY orange constitution", ("spy", "ORANGE", "constitution")),
        ("PLAY DIPLOMAT 12-13 13-18", ("diplomat", "12-13", "13-18")),
        ("PLAY DESERTER blue", ("deserter", "BLUE")),
    ],
)
def test_card_words_are_read(line, parsed):
    orders, problems = ruleset.parse_orders([(1, line)])
    assert problems == [] and orders[0].args == parsed


def game(mode: str, seed: int = 1) -> dict:
    loaded = ruleset.load_scenario(ruleset.scenario_text("island"), "island")
    loaded = {**loaded, "options": {**loaded.get("options", {}), "mode": mode}}
    codes = ruleset.seat_codes(loaded)[:4]
    return ruleset.new_game(loaded, [SeatInfo(c, c) for c in codes], TurnSeeds(seed, 0))


def test_each_mode_refuses_the_other_mode_s_cards():
    wonders, basic = ({**game(mode), "phase": "play", "round": 1} for mode in ("wonders", "basic"))
    orders, _ = ruleset.parse_orders([(1, "PLAY MONOPOLY wheat"), (2, "PLAY WARRIOR")])
    assert [p.message for p in ruleset.check_orders(wonders, "RED", orders)] == [
        "Monopoly is a card of the Basic game; Wonders & Warriors deals its own (rule D-IM-10)",
        "Warrior is a card of the Basic game; in Wonders & Warriors build warriors with WARRIOR",
    ]
    orders, _ = ruleset.parse_orders([(1, "PLAY SPY BLUE")])
    assert [p.message for p in ruleset.check_orders(basic, "RED", orders)] == [
        "Spy is a card of Wonders & Warriors; this game plays the Basic rules"
    ]
    orders, _ = ruleset.parse_orders([(1, "PLAY ALCHEMIST 1 2"), (2, "PLAY ALCHEMIST 3 4"), (3, "PLAY SPY RED")])
    assert [p.message for p in ruleset.check_orders(wonders, "RED", orders)] == [
        "one Alchemist a turn: it sets the dice of your roll"
    ]
    # The Spy's own seat named: the turn takes from the player holding most (the card's rule for
    # a target that will not do), so the file stands, with a warning.
    assert (3, "you cannot name yourself: gm chooses the other player for the card") in [
        (p.line, p.message) for p in ruleset.order_warnings(wonders, "RED", orders)
    ]


def test_the_merchant_is_drawn_on_its_tile_in_its_holder_s_colour():
    board = {
        "hexes": [{"col": 2, "row": 0, "fill": "#cfe68f", "label": "A", "number": 5, "caption": "wool"}],
        "marks": [{"col": 2, "row": 0, "shape": "merchant", "colour": "#1f5fbf"}],
    }
    svg = hex_svg(board)
    assert 'fill="#1f5fbf"' in svg and ">M</text>" in svg and ">R</text>" not in svg


def robot_games(mode: str, games: int) -> Counter:
    """How often the robots write each order (PLAY by card) over seeded games of 4 seats."""
    used: Counter = Counter()
    for seed in range(games):
        state = game(mode, seed)
        for turn in range(1, 300):
            seeds = TurnSeeds(seed, turn)
            orders = {s: ruleset.robot_orders(state, s, seeds.rng(f"robot:{s}")) for s in state["seating"]}
            used.update(
                o.verb if o.verb != "PLAY" else f"PLAY {o.args[0]}" for listed in orders.values() for o in listed
            )
            state = ruleset.resolve(state, orders, seeds).state
            if ruleset.is_over(state):
                break
    return used


@pytest.mark.parametrize("mode", ["basic", "wonders"])
def test_robots_use_every_order_and_card_of_the_book(mode):
    used = robot_games(mode, 12)
    verbs = {v for v in (*ACTIONS, *STANDING) if mode == "wonders" or v not in WONDERS_ONLY}
    verbs -= {"BUY"} if mode == "wonders" else set()
    cards = {f"PLAY {c}" for c in PLAYABLE[mode]}
    missing = sorted((verbs | cards | {"SETTLE"}) - {v for v, n in used.items() if n} - {"PLAY"})
    assert missing == []
