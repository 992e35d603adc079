"""What one seat sees of an Imperials game: the board as drawing data for gm's hex map, the open
facts of every seat (cards counted, not shown), the seat's own hand, cards and standing answers,
this round's dice, offers and trades, and the labels of turns. The order form is in form.py."""

from __future__ import annotations

from gm.core.known import Column, Sighting, listing
from gm.core.model import JSONObject

from .awards import points_table, route_length
from .board import Geometry
from .cards import TITLES, WHAT
from .form import order_form as order_form  # the view part of the contract names it here
from .goods import COSTS, GOODS, RESOURCES, YIELDS, cards_text, hand_size, has
from .grammar import PLAY_USAGE
from .places import PIPS, pieces_of, ports_of
from .robber import discard_limit
from .rules import outcome
from .setup import order_of_play
from .trade import market_rate
from .turn import board_geometry
from .warriors import DRAGON_STEPS, DRAGONSLAYER_POINTS, strength
from .wonders import STRATEGIC

FILLS = {
    "forest": "#7fb069",
    "kiln": "#d98b63",
    "pasture": "#cfe68f",
    "farm": "#f3d66e",
    "mine": "#aeb0ba",
    "desert": "#eadcb9",
    "gold": "#e6bd3a",
    "fog": "#8f9aa3",
}
CAPTIONS = {
    "forest": "wood",
    "kiln": "brick",
    "pasture": "wool",
    "farm": "wheat",
    "mine": "ore",
    "desert": "desert",
    "gold": "gold",
    "fog": "fog",
}
BUILDS = ("road", "village", "town", "card", "warrior", "upgrade", "activate", "fence")


def turn_label(state: JSONObject) -> str:
    if state["phase"] == "setup":
        return "Set-up: " + ("a village and a town" if state["mode"] == "wonders" else "two villages") + " each"
    if state["phase"] == "over":
        return "Game over"
    return f"Round {state['round']}"


def view(state: JSONObject, seat: str) -> JSONObject:
    """The only input to a seat's report (no other seat's hand, cards or standing answers)."""
    result = outcome(state)
    geo = board_geometry(state)
    mine = seat in state["seats"]
    return {
        "ruleset": "imperials",
        "title": state["title"],
        "seat": seat,
        "mode": state["mode"],
        "phase": state["phase"],
        "round": state["round"],
        "target": state["target"],
        "round_limit": state["round_limit"],  # gm's option: the last round, 0 for none
        "turn_label": turn_label(state),
        "board": board_drawing(state, geo),
        "tiles": _tiles(state, geo),
        "seats": [_seat_line(state, code) for code in state["seating"]],
        "you": _you(state, geo, seat) if mine else None,
        "dice": _dice(state),
        "offers": [{**o, "gives": cards_text(o["give"]), "wants": cards_text(o["get"])} for o in state["offers"]],
        "order_of_play": order_of_play(state),
        "longest": dict(state["longest"]),
        "army": dict(state["army"]),
        "wonders": {c: (dict(w) if w else None) for c, w in state["wonders"].items()},
        "dragon": {
            "step": state["dragon"],
            "steps": DRAGON_STEPS,
            "attack": sum(1 for b in state["buildings"].values() if b["kind"] == "town"),
            "defence": sum(strength(state, s) for s in state["seating"]),
            "slayer_left": state["dragonslayer_left"],
            "slayer_points": DRAGONSLAYER_POINTS,
        },
        "bank": _bank(state),
        "decks": {name: len(cards) for name, cards in state["decks"].items()},
        "robber": state["robber"],
        "merchant": _merchant(state),
        "known": known(state, geo, seat),
        "outcome": result.to_json() if result else None,
    }


def _bank(state: JSONObject) -> str:
    """How many cards the bank holds, not of which kind (rule D-ALL-5): everyone sees how many
    cards each player holds, so the bank's stock of each kind would tell every seat what the
    others hold between them (all of it, when one of two others holds none) and which cards a
    player discarded, which only that player reads."""
    goods = GOODS if state["mode"] == "wonders" else RESOURCES
    held = sum(state["bank"][g] for g in goods)
    return f"{held} card{'' if held == 1 else 's'}"


def _merchant(state: JSONObject) -> JSONObject | None:
    merchant = state.get("merchant")
    if not merchant:
        return None
    kind = state["board"]["tiles"][merchant["tile"]]["kind"]
    return {"seat": merchant["seat"], "tile": merchant["tile"], "good": YIELDS[kind]}


def corner_of(geo: Geometry, vertex: int) -> list[float]:
    """A vertex as the hex map names a corner: [col, row, k] of the first tile it touches."""
    code = geo.vertex_tiles[vertex][0]
    col, row = geo.slots[geo.tiles.index(code)]
    return [col, row, geo.tile_vertices[code].index(vertex)]


def board_drawing(state: JSONObject, geo: Geometry) -> JSONObject:
    """The drawing data gm/render/hexmap.py draws: the same for every seat. Each piece and road
    names its seat, so each seat's enlarged map finds its own part of the island."""
    tiles = state["board"]["tiles"]
    colour = {code: s["colour"] for code, s in state["seats"].items()}
    hexes = []
    for code, (col, row) in zip(geo.tiles, geo.slots):
        tile = tiles[code]
        kind = "fog" if tile["fog"] else tile["kind"]
        number = None if tile["fog"] else tile["number"]
        hexes.append(
            {
                "col": col,
                "row": row,
                "fill": FILLS[kind],
                "label": code,
                "number": number,
                "hot": number in (6, 8),
                "caption": CAPTIONS[kind],
            }
        )
    pieces = []
    for vertex, b in sorted(state["buildings"].items(), key=lambda kv: int(kv[0])):
        pieces.append(
            {
                "at": corner_of(geo, int(vertex)),
                "shape": b["kind"],
                "colour": colour[b["owner"]],
                "seat": b["owner"],
                "text": vertex,
                "ring": bool(b.get("fence")),
                "badge": "W" if b.get("wonder") else "",
            }
        )
    for vertex, w in sorted(state["warriors"].items(), key=lambda kv: int(kv[0])):
        pieces.append(
            {
                "at": corner_of(geo, int(vertex)),
                "shape": "warrior",
                "colour": colour[w["owner"]],
                "seat": w["owner"],
                "text": vertex,
                "badge": str(w["level"]),
                "hollow": not w["active"],
            }
        )
    return {
        "hexes": hexes,
        "corners": [{"at": corner_of(geo, n), "text": str(n)} for n in range(1, geo.vertex_count + 1)],
        "lines": [
            {
                "from": corner_of(geo, geo.edge_ends[e][0]),
                "to": corner_of(geo, geo.edge_ends[e][1]),
                "colour": colour[owner],
                "seat": owner,
            }
            for e, owner in sorted(state["roads"].items())
        ],
        "ports": [
            {
                "from": corner_of(geo, geo.edge_ends[p["edge"]][0]),
                "to": corner_of(geo, geo.edge_ends[p["edge"]][1]),
                "text": "3:1 any" if p["kind"] == "3:1" else f"2:1 {p['kind']}",
                "hex": list(geo.slots[geo.tiles.index(geo.edge_tiles[p["edge"]][0])]),
            }
            for p in state["board"]["ports"]
        ],
        "pieces": pieces,
        "marks": _marks(state, geo, colour),
    }


def _marks(state: JSONObject, geo: Geometry, colour: dict[str, str]) -> list[JSONObject]:
    """The robber, and in Wonders & Warriors the merchant in its holder's colour (rule D-IM-10)."""
    marks = []
    if state["robber"]:
        col, row = geo.slots[geo.tiles.index(state["robber"])]
        marks.append({"col": col, "row": row, "shape": "robber"})
    merchant = state.get("merchant")
    if merchant:
        col, row = geo.slots[geo.tiles.index(merchant["tile"])]
        marks.append({"col": col, "row": row, "shape": "merchant", "colour": colour[merchant["seat"]]})
    return marks


def _tiles(state: JSONObject, geo: Geometry) -> list[JSONObject]:
    """Each tile as the report's tile table lists it (fog hides kind and number)."""
    out = []
    for code in geo.tiles:
        tile = state["board"]["tiles"][code]
        fog = tile["fog"]
        out.append(
            {
                "code": code,
                "kind": "fog" if fog else tile["kind"],
                "number": None if fog else tile["number"],
                "dots": 0 if fog else PIPS.get(tile["number"], 0),
                "vertices": list(geo.tile_vertices[code]),
                "robber": state["robber"] == code,
            }
        )
    return out


def _seat_line(state: JSONObject, code: str) -> JSONObject:
    """What everyone may see of a seat: counts of its cards, never what they are."""
    seat = state["seats"][code]
    return {
        "code": code,
        "name": seat["name"],
        "colour": seat["colour"],
        "nation": seat["colour_name"],
        "points": points_table(state, code, hidden=state["phase"] == "over"),
        "cards": hand_size(seat["hand"]),
        "action_cards": len(seat["cards"]),
        "roads": sum(1 for o in state["roads"].values() if o == code),
        "villages": len(pieces_of(state, code, "village")),
        "towns": len(pieces_of(state, code, "town")),
        "route": _route(state, code),
        "warriors_played": seat["warriors_played"],
        "improvements": dict(seat["improvements"]),
        "strength": strength(state, code),
        "warriors": sum(1 for w in state["warriors"].values() if w["owner"] == code),
        "fences": sum(1 for b in state["buildings"].values() if b["owner"] == code and b.get("fence")),
        "dragonslayer": seat["dragonslayer"],
        "shown_points": seat["shown_points"],
    }


def _route(state: JSONObject, code: str) -> int:
    return route_length(state, board_geometry(state), code)


def _you(state: JSONObject, geo: Geometry, seat: str) -> JSONObject:
    me = state["seats"][seat]
    hand = me["hand"]
    goods = GOODS if state["mode"] == "wonders" else RESOURCES
    builds = [b for b in BUILDS if state["mode"] == "wonders" or b in ("road", "village", "town", "card")]
    if state["mode"] == "wonders":
        builds.remove("card")
    return {
        "code": seat,
        "name": me["name"],
        "colour": me["colour"],
        "nation": me["colour_name"],
        "hand": [{"good": g, "count": hand[g]} for g in goods],
        "held": hand_size(hand),
        "limit": discard_limit(state, seat),
        "cards": [
            {
                "card": c["card"],
                "title": TITLES[c["card"]],
                "what": WHAT[c["card"]],
                "new": bool(c.get("bought")) and c["round"] == state["round"],
                "usage": PLAY_USAGE.get(c["card"], ""),
            }
            for c in me["cards"]
        ],
        "points": points_table(state, seat, hidden=True),
        "costs": [{"what": b, "cost": cards_text(COSTS[b]), "afford": has(hand, COSTS[b])} for b in builds],
        "rates": [{"good": g, "rate": market_rate(state, geo, seat, g)} for g in goods],
        "ports": sorted(ports_of(state, geo, seat)),
        "standing": {k: (list(v) if isinstance(v, (list, tuple)) else v) for k, v in me["standing"].items()},
        "strategic": [STRATEGIC[c] for c, n in me["improvements"].items() if n >= 3],
    }


KNOWN_COLUMNS = (Column("Piece"), Column("Port"), Column("Tiles around it"))
WARRIOR_LEVELS = {1: "regular", 2: "strong", 3: "mighty"}


def known(state: JSONObject, geo: Geometry, seat: str) -> JSONObject:
    """Every village, town and warrior of the other seats, by seat, with the tiles around it
    and its port: all on the open board. A tile under fog shows nothing until a road reaches it
    ("Fog - revealed when someone builds an adjacent road"), so it stays "fog" here too."""
    ports = {
        v: ("3:1" if p["kind"] == "3:1" else f"2:1 {p['kind']}")
        for p in state["board"]["ports"]
        for v in geo.edge_ends[p["edge"]]
    }
    pieces = [(int(v), _building_words(b), b["owner"]) for v, b in state["buildings"].items()]
    pieces += [
        (int(v), f"{WARRIOR_LEVELS.get(w['level'], '')} warrior{'' if w['active'] else ', not active'}", w["owner"])
        for v, w in state["warriors"].items()
    ]
    sightings = [
        Sighting(str(vertex), "", owner, (piece, ports.get(vertex, ""), _tiles_around(state, geo, vertex)))
        for vertex, piece, owner in sorted(pieces)
        if owner != seat
    ]
    return listing(
        "Every piece of the others you see",
        "Vertex",
        ("piece", "pieces"),
        KNOWN_COLUMNS,
        sightings,
        state["seating"],
        {},
        "Each tile is written as its letter, what it yields and its number; R marks the robber's tile"
        + (", M the merchant's." if state.get("merchant") else "."),
    )


def _building_words(building: JSONObject) -> str:
    """ "town (fence, science wonder)": the piece and what stands with it."""
    extras = ["fence"] if building.get("fence") else []
    extras += [f"{building['wonder']} wonder"] if building.get("wonder") else []
    return f"{building['kind']}" + (f" ({', '.join(extras)})" if extras else "")


def _tiles_around(state: JSONObject, geo: Geometry, vertex: int) -> str:
    words = []
    for code in geo.vertex_tiles[vertex]:
        tile = state["board"]["tiles"][code]
        kind = "fog" if tile["fog"] else CAPTIONS[tile["kind"]]
        number = "" if tile["fog"] or tile["number"] is None else f" {tile['number']}"
        merchant = state.get("merchant") and state["merchant"]["tile"] == code
        words.append(f"{code} {kind}{number}{' R' if state['robber'] == code else ''}{' M' if merchant else ''}")
    return ", ".join(words)


def _dice(state: JSONObject) -> list[JSONObject]:
    """This round's rolls in order: who rolled what and what each roll gave to whom (in seating
    order; the card lists as text, in the book's order)."""
    out = []
    for r in state["log"]:
        produced = [{"seat": s, "cards": cards_text(r["produced"][s])} for s in state["seating"] if s in r["produced"]]
        trades = [{**t, "gives": cards_text(t["give"]), "wants": cards_text(t["get"])} for t in r.get("trades", [])]
        out.append(
            {
                "seat": r["seat"],
                "white": r["white"],
                "red": r["red"],
                "total": r["total"],
                "event": r["event"],
                "produced": produced,
                "shortage": list(r["shortage"]),
                "robber": r["robber"],
                "trades": trades,
            }
        )
    return out
