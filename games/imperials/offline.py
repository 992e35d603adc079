"""The player's own check (gm orders check --report): what the seat's report settles alone.

The report's map holds the island's hexes in the order of the board's slots, so the vertices
and edges are rebuilt from it (board.geometry, as the GM's check builds them from the state);
it shows the game's mode and phase and the seat's own action cards. From these, an order the
phase or mode does not take, a vertex or edge the island has not and an action card the seat
does not hold fail here as in orders.check_orders, in its words and in its order of checks.
Whether a road connects, a vertex is free or the hand pays is left to the GM (others' orders
come first). A report file may hold anything: what is not of its kind settles nothing.
"""

from __future__ import annotations

from dataclasses import replace

from gm.core.model import JSONObject, Order, Problem
from gm.core.order_grammar import Argument, OrderGrammar, OrderWord

from .board import Geometry, geometry
from .cards import PLAYABLE, TITLES, other_mode
from .grammar import ACTIONS, CARD_ARGS, SETUP, STANDING, USAGE, VERBS, WONDERS_ONLY, well_formed
from .places import edge_problem, vertex_problem

MAX_HEXES = 200  # far past any island: a hostile report cannot make the check build a huge board


def check_by_view(view: JSONObject, seat: str, orders: list[Order]) -> list[Problem]:
    """One problem per order that the view settles: the one the GM's check would give."""
    geo, mode, phase = _geometry(view), view.get("mode"), view.get("phase")
    you = view.get("you")
    if geo is None or not isinstance(mode, str) or mode not in PLAYABLE or phase not in ("setup", "play"):
        return []
    cards = you.get("cards") if isinstance(you, dict) else None
    if not isinstance(cards, list):
        return []
    held: set[object] = {c.get("card") for c in cards if isinstance(c, dict) and isinstance(c.get("card"), str)}
    reader = _Reader(geo, mode, phase, held)
    found = []
    for order in orders:
        problem = reader.problem(order) if well_formed(order) else None
        if problem:
            found.append(Problem(order.line, problem))
    return found


def _geometry(view: JSONObject) -> Geometry | None:
    board = view.get("board")
    hexes = board.get("hexes") if isinstance(board, dict) else None
    if not isinstance(hexes, list) or not 0 < len(hexes) <= MAX_HEXES:
        return None
    slots = [(h.get("col"), h.get("row")) if isinstance(h, dict) else None for h in hexes]
    if not all(s and type(s[0]) is int and type(s[1]) is int and 0 <= s[0] < 99 and 0 <= s[1] < 99 for s in slots):
        return None
    return geometry(tuple(s for s in slots if s))


class _Reader:
    """The GM's checks of orders.order_problem, as far as the view carries them."""

    def __init__(self, geo: Geometry, mode: str, phase: str, held: set[object]):
        self.geo, self.mode, self.phase, self.held = geo, mode, phase, held
        self.plays, self.bought, self.alchemist = 0, False, False

    def problem(self, order: Order) -> str | None:
        verb, args = order.verb, order.args
        if self.mode == "basic" and verb in WONDERS_ONLY:
            return f"{verb} is an order of Wonders & Warriors; this game plays the Basic rules"
        if verb in STANDING:
            bad = [v for v in args if verb == "DEMOTE" and not self.geo.is_vertex(v)]
            return f"{bad[0]} is not a vertex of this island" if bad else None
        if self.phase == "setup":
            if verb not in SETUP:
                return (
                    f"{verb} is not an order for this turn: this turn is the set-up; list where "
                    "you want your villages with SETTLE <vertex> <edge>, best first"
                )
            return self._settle(*args)
        if verb in SETUP:
            return "the set-up is over: SETTLE is only for the first turn"
        if verb == "ROAD":
            return edge_problem(self.geo, args[0])
        if verb in ("VILLAGE", "TOWN"):
            return vertex_problem(self.geo, args[0])
        if verb == "BUY":
            self.bought = self.mode != "wonders"
        if verb == "PLAY":
            return self._play(*args)
        return None

    def _settle(self, vertex: int, edge: str | None) -> str | None:
        problem = vertex_problem(self.geo, vertex)
        if problem or edge is None:
            return problem
        problem = edge_problem(self.geo, edge)
        if problem is None and vertex not in self.geo.edge_ends[edge]:
            problem = f"the road {edge} does not touch vertex {vertex}"
        return problem

    def _play(self, card: str, *args: object) -> str | None:
        if other_mode(card, self.mode):
            return other_mode(card, self.mode)
        self.plays += 1
        if self.mode == "basic":
            if self.plays > 1:
                return "only one action card may be played in a turn: this is a second PLAY"
            if card not in self.held:
                if self.bought:
                    return f"you hold no {TITLES[card]} card now, and a card cannot be played in the turn it is bought"
                return f"you hold no {TITLES[card]} card"
        if card == "alchemist" and self.alchemist:
            return "one Alchemist a turn: it sets the dice of your roll"
        self.alchemist = self.alchemist or card == "alchemist"
        _, kinds = CARD_ARGS[card]
        for kind, arg in zip(kinds, args):
            if kind == "vertex" and not self.geo.is_vertex(arg):
                return vertex_problem(self.geo, arg)  # type: ignore[arg-type]  # well_formed: an int
            if kind == "edge" and edge_problem(self.geo, arg):  # type: ignore[arg-type]  # well_formed: text
                return edge_problem(self.geo, arg)  # type: ignore[arg-type]
            if kind in ("tile", "seat") or card == "roads":
                return None  # fog, seats, and a road's place on the board: the GM's check reads the state
        return None


def order_grammar(view: JSONObject, seat: str) -> OrderGrammar | None:
    """Imperials' orders as data (gm.core.order_grammar): every word, so that one that is none is
    found in the parser's words; the island's vertices and edges for the orders that name one
    (SETTLE, ROAD, VILLAGE, TOWN), in the words of the map check. The other orders' words are
    left to the parser and the GM (their cards and trades read several words as one)."""
    geo, mode, phase = _geometry(view), view.get("mode"), view.get("phase")
    if geo is None or phase not in ("setup", "play"):
        return None
    count = geo.vertex_count
    vertex = Argument(
        "vertex",
        "vertex",
        wrong=f"{{word}} is not a vertex of this island (they are numbered 1 to {count})",
        offer="corner",
    )
    edge = Argument(
        "edge",
        "edge",
        wrong="{word} is not an edge of this island: name an edge by the two vertices at its ends",
        offer="road",
    )
    shapes = {
        "SETTLE": (vertex, replace(edge, optional=True)),
        "ROAD": (edge,),
        "VILLAGE": (vertex,),
        "TOWN": (vertex,),
        "BUY": (),
    }
    words = tuple(
        OrderWord(verb, shapes[verb], count=f"{verb} is written {USAGE[verb]}", usage=USAGE[verb])
        if verb in shapes
        else OrderWord(verb, (Argument("words", optional=True),), repeats=True, usage=USAGE[verb])
        for verb in VERBS
    )
    words = tuple(replace(w, count="BUY takes nothing after it") if w.word == "BUY" else w for w in words)
    unknown = (
        f"{{word}} is not an order{{near}}; orders are {', '.join(SETUP + ACTIONS)}, "
        f"and the answers read before or outside your turn {', '.join(STANDING)}"
    )
    vertices = [str(v) for v in range(1, count + 1)]
    edges = sorted(geo.edge_ends, key=lambda e: geo.edge_ends[e])
    # Checked: every way the parser reads a vertex (12, #12) and an edge (12-13, 13-12); offered:
    # the way the map writes them.
    facts = {
        "vertex": tuple(vertices + [f"#{v}" for v in vertices]),
        "edge": tuple(edges + [f"{b}-{a}" for a, b in (geo.edge_ends[e] for e in edges)]),
        "corner": tuple(vertices),
        "road": tuple(edges),
    }
    basic = [w for w in ACTIONS + STANDING if not (mode == "basic" and w in WONDERS_ONLY)]
    now = (*SETUP, *STANDING) if phase == "setup" else tuple(basic)
    return OrderGrammar(words, unknown, facts=facts, now=now)
