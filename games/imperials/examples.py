"""The order form's examples: for each order word, one order drawn from the seat's own position
now (its roads and settlements, its warriors, the cards in its hand and the action cards it
holds, the tiles it sees), kept only if the GM's check passes it as written, so that an example
copied from the form is never refuted. Where nothing fits the seat now, the form says why
instead. Like the robot, it reads only what the seat may see: its own hand and cards, the board
and the others' public points and card counts."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from random import Random

from gm.core.forms import first_example
from gm.core.model import JSONObject

from .board import Geometry
from .cards import TITLES
from .goods import GOODS, IMPROVEMENT_LIMIT, IMPROVEMENTS, RESOURCES
from .grammar import CARD_ARGS, PLAY_USAGE, order_line, parse_orders
from .orders import check_alone
from .places import pieces_of, village_problem
from .robot_cards import CHOICES, robber_play
from .turn import board_geometry, voice
from .warriors import route_from, upgrade_problem, warriors_of

# Why an order word has no example now, in the form's words.
NONE_FITS = {
    "ROAD": "no free edge touches your roads or settlements",
    "VILLAGE": "no free corner at the end of your roads",
    "TOWN": "you have no village to make a town of",
    "MARKET": "you hold no cards now",
    "OFFER": "you hold no cards now",
    "PLAY": "you hold no action card",
    "IMPROVE": "you have no town",
    "FENCE": "you have no town without a fence",
    "WARRIOR": "no empty corner at the end of your roads",
    "ACTIVATE": "no warrior of yours waits to be activated",
    "UPGRADE": "no warrior of yours can be upgraded",
    "MOVE": "no active warrior of yours has a free corner along your roads",
    "CHASE": "no active warrior of yours stands next to the robber",
}


def first_passing(state: JSONObject, seat: str, lines: Iterable[str]) -> tuple[str | None, str | None]:
    """The first line the GM's check passes for the seat now, as written, with no place another
    player may free counted on; else what the check said of the first it refused."""
    return first_example(lines, parse_orders, lambda orders: check_alone(state, seat, orders))


def settle_example(state: JSONObject, seat: str, vertices: list[int]) -> str | None:
    """SETTLE on the first of the vertices that has one, with a road along an edge from it."""
    geo = board_geometry(state)
    lines = [f"SETTLE {v} {e}" for v in vertices for e in sorted(geo.vertex_edges[v], key=_number)]
    return first_passing(state, seat, lines)[0]


def action_examples(state: JSONObject, seat: str) -> tuple[list[str], list[str]]:
    """(one example for each action word that has one now, as the player writes it; for each
    word that has none, the word and why), in the order the form lists the words."""
    geo = board_geometry(state)
    wonders = state["mode"] == "wonders"
    words = ["ROAD", "VILLAGE", "TOWN", "MARKET"] + (
        ["IMPROVE", "FENCE", "WARRIOR", "ACTIVATE", "UPGRADE", "MOVE", "CHASE"] if wonders else ["BUY"]
    )
    found, none = [], []
    for word in words + ["OFFER"]:
        example, refused = first_passing(state, seat, CANDIDATES[word](state, geo, seat))
        if example is not None:
            found.append(example)
        else:
            none.append(f"{word} ({refused or _lacking(state, seat, word)})")
    if not state["seats"][seat]["cards"]:
        none.append(f"PLAY ({NONE_FITS['PLAY']})")
    return found, none


def _lacking(state: JSONObject, seat: str, word: str) -> str:
    """Why there is no order of a word to try at all: what the seat lacks."""
    if word == "IMPROVE" and pieces_of(state, seat, "town"):
        return "your improvements are all at the top"
    return NONE_FITS[word]


def card_examples(state: JSONObject, seat: str) -> list[str]:
    """For each action card the seat holds, a PLAY of it that fits now, or how it is played
    and that nothing fits now; a card that is never played says that it counts while held."""
    geo = board_geometry(state)
    lines = []
    for card in dict.fromkeys(c["card"] for c in state["seats"][seat]["cards"]):
        if card not in PLAY_USAGE:
            lines.append(f"{TITLES[card]}: counts while you hold it")
            continue
        example, _ = first_passing(state, seat, _plays(state, geo, seat, card))
        lines.append(example or f"{PLAY_USAGE[card]} (nothing fits it now)")
    return lines


def _plays(state: JSONObject, geo: Geometry, seat: str, card: str) -> list[str]:
    """PLAY lines for a card, the likeliest use first: the robot's own choice for it (which
    reads only what the seat may see), then the card alone when it needs nothing after it."""
    words: list[tuple[object, ...]] = []
    if card == "warrior":
        words.append(robber_play(state, seat, geo) or ("warrior",))
    elif card == "roads":
        words += [("roads", e) for e in _roads(state, geo, seat)[:3]]
    elif card in ("plenty", "monopoly"):
        want = _wanted(state, seat)
        words.append(("plenty", want[0], want[1]) if card == "plenty" else ("monopoly", want[0]))
    elif card in CHOICES:
        # A fixed generator: the form is the same each time it is drawn (rule D-ALL-1).
        chosen = CHOICES[card](state, seat, geo, _wanted(state, seat), Random(0))
        words += [chosen[0]] if chosen else []
    if CARD_ARGS[card][0] == 0:
        words.append((card,))
    return [order_line("PLAY", (str(w[0]).upper(), *w[1:])) for w in words]


def _wanted(state: JSONObject, seat: str) -> list[str]:
    """The resources the seat holds fewest of, first."""
    hand = state["seats"][seat]["hand"]
    return sorted(RESOURCES, key=lambda g: (hand[g], RESOURCES.index(g)))


def _spare(state: JSONObject, seat: str) -> list[str]:
    """The cards the seat holds most of, first (only those it holds)."""
    hand = state["seats"][seat]["hand"]
    goods = GOODS if state["mode"] == "wonders" else RESOURCES
    return sorted((g for g in goods if hand[g]), key=lambda g: (-hand[g], GOODS.index(g)))


def _number(edge: str) -> list[int]:
    return [int(n) for n in edge.split("-")]


def _roads(state: JSONObject, geo: Geometry, seat: str) -> list[str]:
    """Free edges at the seat's own roads and settlements, where it may build a road now (the
    check says why not where a limit or another's settlement stops it)."""
    starts = {v for e, o in state["roads"].items() if o == seat for v in geo.edge_ends[e]}
    starts |= set(pieces_of(state, seat, "village") + pieces_of(state, seat, "town"))
    return sorted({e for v in starts for e in geo.vertex_edges[v] if e not in state["roads"]}, key=_number)


def _road(state: JSONObject, geo: Geometry, seat: str) -> list[str]:
    return [f"ROAD {e}" for e in _roads(state, geo, seat)[:6]]


def _road_ends(state: JSONObject, geo: Geometry, seat: str) -> list[int]:
    return sorted({v for e, o in state["roads"].items() if o == seat for v in geo.edge_ends[e]})


def _village(state: JSONObject, geo: Geometry, seat: str) -> list[str]:
    """The free corners at the seat's road ends (the form lists them); the check says why not
    where the seat has all its villages on the board."""
    you = voice(state, seat, you=True)
    ends = _road_ends(state, geo, seat)
    return [f"VILLAGE {v}" for v in ends if village_problem(state, geo, seat, v, you, setup=True) is None][:3]


def _town(state: JSONObject, geo: Geometry, seat: str) -> list[str]:
    return [f"TOWN {v}" for v in pieces_of(state, seat, "village")][:3]


def _market(state: JSONObject, geo: Geometry, seat: str) -> list[str]:
    spare = _spare(state, seat)
    return [f"MARKET {spare[0]} FOR {g}" for g in _wanted(state, seat) if g != spare[0]][:1] if spare else []


def _offer(state: JSONObject, geo: Geometry, seat: str) -> list[str]:
    spare = _spare(state, seat)
    return [f"OFFER ALL 1 {spare[0]} FOR 1 {g}" for g in _wanted(state, seat) if g != spare[0]][:1] if spare else []


def _buy(state: JSONObject, geo: Geometry, seat: str) -> list[str]:
    return ["BUY"]


def _improve(state: JSONObject, geo: Geometry, seat: str) -> list[str]:
    levels = state["seats"][seat]["improvements"]
    towns = pieces_of(state, seat, "town")
    open_ = sorted((c for c in IMPROVEMENTS if levels[c] < IMPROVEMENT_LIMIT), key=lambda c: levels[c])
    return [f"IMPROVE {colour} {towns[0]}" for colour in open_][:1] if towns else []


def _fence(state: JSONObject, geo: Geometry, seat: str) -> list[str]:
    towns = pieces_of(state, seat, "town")
    return [f"FENCE {v}" for v in towns if not state["buildings"][str(v)]["fence"]][:1]


def _warrior(state: JSONObject, geo: Geometry, seat: str) -> list[str]:
    """The empty corners at the seat's road ends; the check says why not when the seat has all
    its regular warriors on the board."""
    ends = _road_ends(state, geo, seat)
    return [f"WARRIOR {v}" for v in ends if str(v) not in state["buildings"] and str(v) not in state["warriors"]][:3]


def _activate(state: JSONObject, geo: Geometry, seat: str) -> list[str]:
    return [f"ACTIVATE {v}" for v in warriors_of(state, seat) if not state["warriors"][str(v)]["active"]][:1]


def _upgrade(state: JSONObject, geo: Geometry, seat: str) -> list[str]:
    mine = warriors_of(state, seat)
    return [f"UPGRADE {v}" for v in mine if upgrade_problem(state, seat, state["warriors"][str(v)], v) is None][:1]


def _ready(state: JSONObject, seat: str) -> list[int]:
    """The seat's warriors that may act: active, and not activated in this round."""
    return [
        v
        for v in warriors_of(state, seat)
        if state["warriors"][str(v)]["active"] and state["warriors"][str(v)]["activated"] != state["round"]
    ]


def _move(state: JSONObject, geo: Geometry, seat: str) -> list[str]:
    for start in _ready(state, seat):
        free = [
            v
            for v in sorted(route_from(state, geo, seat, start))
            if v != start and str(v) not in state["buildings"] and str(v) not in state["warriors"]
        ]
        if free:
            return [f"MOVE {start} {free[0]}"]
    return []


def _chase(state: JSONObject, geo: Geometry, seat: str) -> list[str]:
    return [f"CHASE {v}" for v in _ready(state, seat) if state["robber"] in geo.vertex_tiles[v]][:1]


# Each order word's candidates, the likeliest first; action_examples keeps the first that passes.
CANDIDATES: dict[str, Callable[[JSONObject, Geometry, str], list[str]]] = {
    "ROAD": _road,
    "VILLAGE": _village,
    "TOWN": _town,
    "MARKET": _market,
    "BUY": _buy,
    "OFFER": _offer,
    "IMPROVE": _improve,
    "FENCE": _fence,
    "WARRIOR": _warrior,
    "ACTIVATE": _activate,
    "UPGRADE": _upgrade,
    "MOVE": _move,
    "CHASE": _chase,
}
