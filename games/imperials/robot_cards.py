"""The robot's action cards: which of the cards it holds it plays this turn, and how, written as
orders. It plays what helps it and, now and then (seeded), whatever it holds, so that robot games
reach every card's rules. It reads only what its seat may see: its own hand and cards, the
board, and the others' public points and card counts."""

from __future__ import annotations

from collections.abc import Callable
from random import Random

from gm.core.model import JSONObject

from .awards import points
from .board import Geometry
from .commerce import merchant_tiles
from .goods import COMMODITIES, COMMODITY_FOR, GOODS, IMPROVEMENTS, RESOURCES, hand_size
from .military import open_roads
from .places import PIPS, pieces_of, town_problem
from .robber import default_tile, default_victim
from .science import FIXED_NUMBERS, MEDICINE
from .turn import voice
from .warriors import PIECES_PER_LEVEL, upgrade_problem, warriors_of

# A card play the robot proposes: the order's words after PLAY, and the cards it costs.
Play = tuple[tuple[object, ...], dict[str, int]]
ANYWAY = 0.25  # how often the robot plays a card whose use is doubtful, to reach its rules


def wonders_plays(state: JSONObject, seat: str, geo: Geometry, wanted: list[str], rng: Random) -> list[Play]:
    """The Wonders & Warriors cards the robot plays this turn, in order."""
    held = [c["card"] for c in state["seats"][seat]["cards"]]
    plays: list[Play] = []
    for card in dict.fromkeys(held):
        chosen = CHOICES.get(card)
        found = chosen(state, seat, geo, wanted, rng) if chosen else None
        if found is not None:
            plays.append(found)
    return plays


def _alchemist(state: JSONObject, seat: str, geo: Geometry, wanted: list[str], rng: Random) -> Play | None:
    """The total that pays the seat most (towns twice), never 7."""
    dots: dict[int, int] = {}
    for vertex, b in state["buildings"].items():
        if b["owner"] != seat:
            continue
        for code in geo.vertex_tiles[int(vertex)]:
            tile = state["board"]["tiles"][code]
            if tile["number"] and not tile["fog"] and code != state["robber"]:
                dots[tile["number"]] = dots.get(tile["number"], 0) + (2 if b["kind"] == "town" else 1)
    if not dots:
        return None
    total = max(dots, key=lambda n: (dots[n], n))
    white = min(6, total - 1)
    return ("alchemist", white, total - white), {}


def _crane(state: JSONObject, seat: str, geo: Geometry, wanted: list[str], rng: Random) -> Play | None:
    me = state["seats"][seat]
    if not pieces_of(state, seat, "town"):
        return None
    for colour in sorted(IMPROVEMENTS, key=lambda c: -me["improvements"][c]):
        level = me["improvements"][colour] + 1
        cost = level - 1
        if level <= 5 and me["hand"][COMMODITY_FOR[colour]] >= cost:
            return ("crane", colour), {COMMODITY_FOR[colour]: cost} if cost else {}
    return None


def _engineer(state: JSONObject, seat: str, geo: Geometry, wanted: list[str], rng: Random) -> Play | None:
    fences = sum(1 for b in state["buildings"].values() if b["owner"] == seat and b.get("fence"))
    bare = [v for v in pieces_of(state, seat, "town") if not state["buildings"][str(v)].get("fence")]
    return (("engineer", bare[0]), {}) if bare and fences < 3 else None


def _inventor(state: JSONObject, seat: str, geo: Geometry, wanted: list[str], rng: Random) -> Play | None:
    """The movable tile at its settlements with fewest dots swaps with the best one elsewhere."""
    tiles = state["board"]["tiles"]
    movable = [c for c in geo.tiles if not tiles[c]["fog"] and tiles[c]["number"] not in (None, *FIXED_NUMBERS)]
    mine = {int(v) for v, b in state["buildings"].items() if b["owner"] == seat}
    at_mine = [c for c in movable if mine & set(geo.tile_vertices[c])]
    others = [c for c in movable if c not in at_mine]
    if not at_mine or not others:
        return None
    worst = min(at_mine, key=lambda c: (PIPS[tiles[c]["number"]], c))
    best = max(others, key=lambda c: (PIPS[tiles[c]["number"]], c))
    if PIPS[tiles[best]["number"]] <= PIPS[tiles[worst]["number"]] and rng.random() > ANYWAY:
        return None
    return ("inventor", worst, best), {}


Chooser = Callable[[JSONObject, str, Geometry, list[str], Random], Play | None]


def _harvest(kind: str, card: str) -> Chooser:
    def choose(state: JSONObject, seat: str, geo: Geometry, wanted: list[str], rng: Random) -> Play | None:
        mine = {int(v) for v, b in state["buildings"].items() if b["owner"] == seat}
        tiles = [
            c for c in geo.tiles if state["board"]["tiles"][c]["kind"] == kind and mine & set(geo.tile_vertices[c])
        ]
        return ((card,), {}) if tiles else None

    return choose


def _medicine(state: JSONObject, seat: str, geo: Geometry, wanted: list[str], rng: Random) -> Play | None:
    hand = state["seats"][seat]["hand"]
    if any(hand[g] < n for g, n in MEDICINE.items()):
        return None
    v = voice(state, seat, you=True)
    villages = [x for x in pieces_of(state, seat, "village") if town_problem(state, geo, seat, x, v) is None]
    return (("medicine", villages[0]), dict(MEDICINE)) if villages else None


def _smith(state: JSONObject, seat: str, geo: Geometry, wanted: list[str], rng: Random) -> Play | None:
    ready = [v for v in warriors_of(state, seat) if upgrade_problem(state, seat, state["warriors"][str(v)], v) is None]
    return (("smith", *ready[:2]), {}) if ready else None


def _harbor(state: JSONObject, seat: str, geo: Geometry, wanted: list[str], rng: Random) -> Play | None:
    hand = state["seats"][seat]["hand"]
    spare = sorted((g for g in RESOURCES if hand[g] > 0), key=lambda g: -hand[g])
    return (("harbor", *spare[:2]), {}) if spare else None


def _master_merchant(state: JSONObject, seat: str, geo: Geometry, wanted: list[str], rng: Random) -> Play | None:
    richer = _richer(state, seat, strictly=True)
    if not richer:
        return None
    victim = max(richer, key=lambda s: (points(state, s, hidden=False), -state["seating"].index(s)))
    return ("mastermerchant", victim, *wanted[:2]), {}


def _merchant(state: JSONObject, seat: str, geo: Geometry, wanted: list[str], rng: Random) -> Play | None:
    tiles = merchant_tiles(state, geo, seat)
    mine = state.get("merchant")
    if not tiles or (mine and mine["seat"] == seat and rng.random() > ANYWAY):
        return None
    best = max(tiles, key=lambda c: (PIPS.get(state["board"]["tiles"][c]["number"], 0), c))
    return ("merchant", best), {}


def _fleet(state: JSONObject, seat: str, geo: Geometry, wanted: list[str], rng: Random) -> Play | None:
    hand = state["seats"][seat]["hand"]
    most = max(GOODS, key=lambda g: (hand[g], -GOODS.index(g)))
    return (("fleet", most), {}) if hand[most] >= 2 else None


def _resource_monopoly(state: JSONObject, seat: str, geo: Geometry, wanted: list[str], rng: Random) -> Play | None:
    return ("resourcemonopoly", wanted[0]), {}


def _trade_monopoly(state: JSONObject, seat: str, geo: Geometry, wanted: list[str], rng: Random) -> Play | None:
    hand = state["seats"][seat]["hand"]
    return ("trademonopoly", min(COMMODITIES, key=lambda g: (hand[g], COMMODITIES.index(g)))), {}


def _bishop(state: JSONObject, seat: str, geo: Geometry, wanted: list[str], rng: Random) -> Play | None:
    tile = default_tile(state, geo, seat)
    return (("bishop", tile), {}) if tile else None


def _deserter(state: JSONObject, seat: str, geo: Geometry, wanted: list[str], rng: Random) -> Play | None:
    armed = [s for s in state["seating"] if s != seat and warriors_of(state, s)]
    if not armed or len(warriors_of(state, seat)) >= 3 * PIECES_PER_LEVEL:
        return None
    victim = max(armed, key=lambda s: (len(warriors_of(state, s)), -state["seating"].index(s)))
    return ("deserter", victim), {}


def _diplomat(state: JSONObject, seat: str, geo: Geometry, wanted: list[str], rng: Random) -> Play | None:
    leader = max(
        (s for s in state["seating"] if s != seat),
        key=lambda s: (state["longest"]["seat"] == s, points(state, s, hidden=False), -state["seating"].index(s)),
    )
    roads = [e for e in open_roads(state, geo) if state["roads"][e] == leader]
    if not roads or rng.random() > 0.6:
        return None
    return ("diplomat", roads[0]), {}


def _intrigue(state: JSONObject, seat: str, geo: Geometry, wanted: list[str], rng: Random) -> Play | None:
    ends = {v for e, o in state["roads"].items() if o == seat for v in geo.edge_ends[e]}
    targets = sorted(v for v in ends if state["warriors"].get(str(v), {}).get("owner", seat) != seat)
    return (("intrigue", targets[0]), {}) if targets else None


def _saboteur(state: JSONObject, seat: str, geo: Geometry, wanted: list[str], rng: Random) -> Play | None:
    full = [s for s in _richer(state, seat, strictly=False) if hand_size(state["seats"][s]["hand"]) > 1]
    return (("saboteur",), {}) if full else None


def _spy(state: JSONObject, seat: str, geo: Geometry, wanted: list[str], rng: Random) -> Play | None:
    holders = [s for s in state["seating"] if s != seat and state["seats"][s]["cards"]]
    if not holders:
        return None
    victim = max(holders, key=lambda s: (len(state["seats"][s]["cards"]), -state["seating"].index(s)))
    return ("spy", victim), {}


def _warlord(state: JSONObject, seat: str, geo: Geometry, wanted: list[str], rng: Random) -> Play | None:
    idle = [v for v in warriors_of(state, seat) if not state["warriors"][str(v)]["active"]]
    return (("warlord",), {}) if idle else None


def _wedding(state: JSONObject, seat: str, geo: Geometry, wanted: list[str], rng: Random) -> Play | None:
    return (("wedding",), {}) if _richer(state, seat, strictly=True) else None


def _roads(state: JSONObject, seat: str, geo: Geometry, wanted: list[str], rng: Random) -> Play | None:
    return None  # the Builder plays Road Building, as it knows where its roads should go


def _richer(state: JSONObject, seat: str, strictly: bool) -> list[str]:
    """Other seats with more points shown (or as many), holding cards: what the seat may see."""
    mine = points(state, seat, hidden=False)
    return [
        s
        for s in state["seating"]
        if s != seat
        and hand_size(state["seats"][s]["hand"]) > 0
        and points(state, s, hidden=False) >= mine + (1 if strictly else 0)
    ]


def robber_play(state: JSONObject, seat: str, geo: Geometry) -> tuple[object, ...] | None:
    """PLAY WARRIOR's words (Basic): where the robber goes and whom it robs."""
    tile = default_tile(state, geo, seat)
    if tile is None:
        return None
    victim = default_victim(state, geo, seat, tile)
    return ("warrior", tile, victim) if victim else ("warrior", tile)


CHOICES: dict[str, Chooser] = {
    "alchemist": _alchemist,
    "crane": _crane,
    "engineer": _engineer,
    "inventor": _inventor,
    "irrigation": _harvest("farm", "irrigation"),
    "medicine": _medicine,
    "mining": _harvest("mine", "mining"),
    "smith": _smith,
    "roads": _roads,
    "harbor": _harbor,
    "mastermerchant": _master_merchant,
    "merchant": _merchant,
    "fleet": _fleet,
    "resourcemonopoly": _resource_monopoly,
    "trademonopoly": _trade_monopoly,
    "bishop": _bishop,
    "deserter": _deserter,
    "diplomat": _diplomat,
    "intrigue": _intrigue,
    "saboteur": _saboteur,
    "spy": _spy,
    "warlord": _warlord,
    "wedding": _wedding,
}
