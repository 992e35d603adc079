"""The prefilled order form: the ruleset's lines of a seat's turn file for the turn being
collected. Comment lines start with '#'; every line fits in 84 characters; what is prefilled
(the seat's standing answers) parses and passes check_orders as it stands."""

from __future__ import annotations

from gm.core.forms import FORM_WIDTH as WIDTH, not_possible, spaced_examples, wrapped_comment
from gm.core.model import JSONObject

from .board import Geometry
from .examples import action_examples, card_examples, settle_example
from .goods import COSTS, RESOURCES, YIELDS, cards_text, has
from .grammar import make_order
from .places import pieces_of, vertex_worth, village_problem
from .turn import board_geometry, voice

COST_WORDS = {
    "road": "ROAD <edge>",
    "village": "VILLAGE <vertex>",
    "town": "TOWN <vertex>",
    "card": "BUY",
    "warrior": "WARRIOR <vertex>",
    "upgrade": "UPGRADE <vertex>",
    "activate": "ACTIVATE <vertex>",
    "fence": "FENCE <town>",
}


# The action words and what each names, as the form lists them; its examples follow.
BASIC_WORDS = (
    "#   ROAD <edge>  VILLAGE <vertex>  TOWN <vertex>  BUY  PLAY <card> ...",
    "#   MARKET <card you give> FOR <card you get>  OFFER <seat|ALL> <cards> FOR <cards>",
)
WONDERS_WORDS = (
    "#   ROAD <edge>  VILLAGE <vertex>  TOWN <vertex>  PLAY <card> ...",
    "#   MARKET <card you give> FOR <card you get>  OFFER <seat|ALL> <cards> FOR <cards>",
    "#   IMPROVE <science|trade|military> [<town>]  FENCE <town>  WARRIOR <vertex>",
    "#   ACTIVATE <warrior>  UPGRADE <warrior>  MOVE <warrior> <vertex>",
    "#   CHASE <warrior> [<tile> [<seat>]]  (a warrior is named by its vertex)",
)


def order_form(state: JSONObject, seat: str) -> list[str]:
    if seat not in state["seats"]:
        return [f"# {seat} has no seat in this game."]
    if state["phase"] == "over":
        return ["# The game is over: no orders are needed."]
    if state["phase"] == "setup":
        return _setup_form(state, seat) + _standing(state, seat)
    return _round_form(state, seat) + _standing(state, seat)


def wrapped(prefix: str, items: list[str]) -> list[str]:
    return wrapped_comment(prefix, items, separator=",")


def _setup_form(state: JSONObject, seat: str) -> list[str]:
    geo = board_geometry(state)
    second = "town" if state["mode"] == "wonders" else "village"
    ranked = sorted(range(1, geo.vertex_count + 1), key=lambda v: (-vertex_worth(state, geo, v), v))[:10]
    best = [f"{v} ({_tiles_at(state, geo, v)})" for v in ranked]
    example = settle_example(state, seat, ranked)
    return [
        f"# Set-up: everyone places a village and a road, then in reverse order a {second}",
        "# and a road. List the vertices you want, best first, one SETTLE line each:",
        "#   SETTLE <vertex> <edge>" + (f", for example:  {example}" if example else ""),
        "# The edge is your road from that vertex (leave it out and gm picks one). At each",
        "# pick you get the first vertex on your list that is still free; with none, gm",
        "# gives you the free vertex with the most production dots. Your second placement",
        "# yields one card of each tile it touches.",
        *wrapped("# Rich corners now:", best),
    ]


def _tiles_at(state: JSONObject, geo: Geometry, vertex: int) -> str:
    """'8 wheat, 4 brick': the number and resource of each visible tile a vertex touches."""
    tiles = [state["board"]["tiles"][c] for c in geo.vertex_tiles[vertex]]
    seen = [t for t in tiles if not t["fog"] and t["number"]]
    return ", ".join(f"{t['number']} {YIELDS.get(t['kind'], t['kind'])}" for t in seen) or "nothing"


def _round_form(state: JSONObject, seat: str) -> list[str]:
    me = state["seats"][seat]
    hand = me["hand"]
    wonders = state["mode"] == "wonders"
    afford = [
        COST_WORDS[k]
        for k in COST_WORDS
        if (wonders or k in ("road", "village", "town", "card"))
        and not (wonders and k == "card")
        and has(hand, COSTS[k])
    ]
    found, none = action_examples(state, seat)
    lines = [
        f"# Round {state['round']}: your turn comes in the order of play, after your roll.",
        *wrapped("# You hold:", [cards_text(hand)]),
        *wrapped("# You can pay now for:", afford or ["nothing yet"]),
        *_places(state, seat),
        "# Actions, run in the order written:",
        *(WONDERS_WORDS if wonders else BASIC_WORDS),
        "# For example, as things stand now (each costs its cards when it runs):",
        *spaced_examples(found),
        *not_possible(none),
        "# An offer is answered by the others next round.",
    ]
    cards = card_examples(state, seat)
    if cards:
        lines += ["# Your action cards, for example:"] + [f"#   {card}" for card in cards]
    lines += _offers(state, seat)
    return lines


def _places(state: JSONObject, seat: str) -> list[str]:
    """The seat's settlements and the free corners its roads reach, where a village may go."""
    geo = board_geometry(state)
    villages = [str(v) for v in pieces_of(state, seat, "village")]
    towns = [str(v) for v in pieces_of(state, seat, "town")]
    you = voice(state, seat, you=True)
    ends = sorted({v for e, o in state["roads"].items() if o == seat for v in geo.edge_ends[e]})
    spots = [str(v) for v in ends if village_problem(state, geo, seat, v, you, setup=True) is None]
    return [
        *wrapped("# Your villages:", villages or ["none"]),
        *wrapped("# Your towns:", towns or ["none"]),
        *wrapped("# Free corners your roads reach (for VILLAGE):", spots or ["none yet"]),
    ]


def _offers(state: JSONObject, seat: str) -> list[str]:
    open_to_you = [o for o in state["offers"] if o["from"] != seat and o["to"] in ("ALL", seat)]
    yours = [o for o in state["offers"] if o["from"] == seat]
    lines = []
    if open_to_you:
        lines += [
            "# Offers you may accept (write ACCEPT <number>; it is carried out in the",
            "# offering player's turn if you both still hold the cards):",
        ]
        for o in open_to_you:
            lines.append(f"#   #{o['id']} {o['from']} gives {cards_text(o['give'])} for {cards_text(o['get'])}"[:WIDTH])
    if yours:
        # rule D-IM-9: the maker decides in its file for the round the offer comes due.
        lines += [
            "# Your offers, carried out in your turn this round with the first player to accept",
            "# who holds the cards: WITHDRAW <number> declines one; CHOOSE <number> <seat> ...",
            "# trades only with the seats named, first choice first:",
        ]
        for o in yours:
            to = "anyone" if o["to"] == "ALL" else o["to"]
            lines.append(f"#   #{o['id']} to {to}: {cards_text(o['give'])} for {cards_text(o['get'])}"[:WIDTH])
    return lines


def _standing(state: JSONObject, seat: str) -> list[str]:
    """The seat's standing answers, prefilled as order lines so they stand as they are."""
    standing = state["seats"][seat]["standing"]
    lines = [
        "# Standing answers for the other players' turns (and your own roll of 7):",
        "#   DISCARD: cards to give back first when a 7 finds you over your limit",
        "#   ROBBER <tile> [seat]: where you move the robber, whom you rob",
        "#   GOLD: what gold (and a granary) gives you, first choice first",
    ]
    if state["mode"] == "wonders":
        lines += [
            "#   DEMOTE <town>: the town the dragon may burn   DRAGON <colour>: the card",
            "#   deck you draw from after a tied victory   DROP <card>: the card you give",
            "#   back first when you hold more than 4",
        ]
    written = []
    if standing.get("discard"):
        written.append(make_order("DISCARD", *standing["discard"]))
    robber = standing.get("robber")
    if robber and _tile_ok(state, robber[0]):
        victim = robber[1] if len(robber) > 1 and robber[1] in state["seats"] and robber[1] != seat else None
        written.append(make_order("ROBBER", robber[0], victim))
    gold = [g for g in standing.get("gold", []) if g in RESOURCES]
    if gold:
        written.append(make_order("GOLD", *gold))
    if state["mode"] == "wonders":
        for key, verb in (("demote", "DEMOTE"), ("drop", "DROP")):
            if standing.get(key):
                written.append(make_order(verb, *standing[key]))
        if standing.get("dragon"):
            written.append(make_order("DRAGON", standing["dragon"]))
    return lines + [o.text for o in written if len(o.text) <= WIDTH]


def _tile_ok(state: JSONObject, code: str) -> bool:
    tiles = state["board"]["tiles"]
    return code in tiles and not tiles[code]["fog"]
