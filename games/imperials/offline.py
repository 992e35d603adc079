"""The player's own check (gm orders check --report): what the seat's report settles alone.

The report's map holds the island's hexes in the order of the board's slots, so the vertices
and edges are rebuilt from it (board.geometry, as the GM's check builds them from the state);
it shows the game's mode and phase and the seat's own action cards. From these, an order the
phase or mode does not take, a vertex or edge the island has not and an action card the seat
does not hold fail here as in orders.check_orders, in its words and in its order of checks.
Every report also shows the seats, the open offers, the tiles (fog hides a tile's kind) and
every road and settlement, so a seat or an offer that is none, a trade of a good for itself and,
in the Basic game (where no piece ever leaves the board, so no other player's turn can free a
place), a road, village or town the board refuses fail here too, by the GM's own functions.
In Wonders & Warriors pieces may leave before the seat's turn (the dragon, Diplomats, Deserters):
the board's places are left to the GM there, but for the seat's own warriors, which no other
player's turn gives it (an order for a warrior it has not fails, until the file may place one). Whether the hand pays is always left to the GM.
A report file may hold anything: what is not of its kind settles nothing.
"""

from __future__ import annotations

from dataclasses import replace

from gm.core.model import JSONObject, Order, Problem
from gm.core.order_grammar import Argument, OrderGrammar, OrderWord

from .board import Geometry, edge_name, geometry
from .cards import PLAYABLE, TITLES, other_mode
from .grammar import ACTIONS, CARD_ARGS, SETUP, STANDING, USAGE, VERBS, WONDERS_ONLY, well_formed
from .orders import (
    FOGGED,
    accept_problem,
    choose_problem,
    lay_road,
    market_problem,
    posting_problem,
    stranger,
    withdraw_problem,
)
from .places import edge_problem, road_problem, town_problem, vertex_problem, village_problem
from .turn import Voice, seat_name
from .warnings import Seen, warnings_seen

MAX_HEXES = 200  # far past any island: a hostile report cannot make the check build a huge board


def check_by_view(view: JSONObject, seat: str, orders: list[Order]) -> list[Problem]:
    """One problem per order that the view settles: the one the GM's check would give."""
    return _read(view, seat, orders)[0]


def warnings_by_view(view: JSONObject, seat: str, orders: list[Order]) -> list[Problem]:
    """The warnings of orders.order_warnings that the view settles, in its words: those of
    warnings.py (a build or trade the hand left by the earlier orders cannot pay, more cards than
    the discard limit, an offer accepted without its cards...), all read from the seat's own
    part of the report and the open board, and a victim who is the seat itself (the turn passes
    over it to gm's choice)."""
    return _read(view, seat, orders)[1]


def _read(view: JSONObject, seat: str, orders: list[Order]) -> tuple[list[Problem], list[Problem]]:
    """(the problems, the warnings) of the orders, as far as the view settles them."""
    geo, mode, phase = _geometry(view), view.get("mode"), view.get("phase")
    you = view.get("you")
    if geo is None or not isinstance(mode, str) or mode not in PLAYABLE or phase not in ("setup", "play"):
        return [], []
    cards = you.get("cards") if isinstance(you, dict) else None
    if not isinstance(cards, list):
        return [], []
    held: set[object] = {c.get("card") for c in cards if isinstance(c, dict) and isinstance(c.get("card"), str)}
    reader = _Reader(geo, mode, phase, held)
    reader.public(view, seat)
    found = []
    for order in orders:
        reader.line = order.line
        problem = reader.problem(order) if well_formed(order) else None
        if problem:
            found.append(Problem(order.line, problem))
    if phase != "play":  # the GM warns only in the rounds (orders.order_warnings)
        return found, []
    seen = _seen(view, you, mode)  # type: ignore[arg-type]  # a dict: its cards were read above
    warned = warnings_seen(seen, seat, orders) if seen is not None else []
    return found, sorted(warned + [Problem(line, message) for line, message in reader.maybe], key=lambda p: p.line)


def _cards(value: object) -> dict[str, int] | None:
    if not isinstance(value, dict) or not all(isinstance(g, str) and type(n) is int for g, n in value.items()):
        return None
    return value


def _seen(view: JSONObject, you: JSONObject, mode: str) -> Seen | None:
    """What warnings.py reads, from the report (None when a part of it is not of its kind): the
    seat's hand, its market rates and discard limit, its action cards, the open offers, the
    robber's tile and the warriors on the map."""
    held, rated = you.get("hand"), you.get("rates")
    if not isinstance(held, list) or not isinstance(rated, list):
        return None
    hand = {r.get("good"): r.get("count") for r in held if isinstance(r, dict)}
    rates = {r.get("good"): r.get("rate") for r in rated if isinstance(r, dict)}
    limit, cards, robber = you.get("limit"), you.get("cards"), view.get("robber")
    offers = view.get("offers")
    board = view.get("board")
    pieces = board.get("pieces") if isinstance(board, dict) else None
    if (
        _cards(hand) is None
        or not all(isinstance(g, str) and (r is None or type(r) is int) for g, r in rates.items())
        or type(limit) is not int
        or not isinstance(cards, list)
        or not (robber is None or isinstance(robber, str))
        or not isinstance(offers, list)
        or not all(_offer_row(o) and _cards(o.get("get")) is not None for o in offers)
        or not isinstance(pieces, list)
        or not all(isinstance(p, dict) for p in pieces)
    ):
        return None
    warriors = {p.get("text"): p.get("seat") for p in pieces if p.get("shape") == "warrior"}
    if not all(isinstance(v, str) and isinstance(s, str) for v, s in warriors.items()):
        return None
    return Seen(hand, rates.get, limit, len(cards), mode, offers, robber, warriors)  # type: ignore[arg-type]


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
        self.seating: list[str] | None = None  # the seats in seating order; None: the report's are unreadable
        self.offers: list[JSONObject] | None = None
        self.fog: dict[str, bool] | None = None  # each tile under fog, as the seat sees it now
        self.later = True  # whether a player plays before the seat in the round (fog may lift then)
        self.board: JSONObject | None = None  # the Basic game's board as the orders so far leave it
        self.seat, self.you = "", Voice(True, "")
        # The vertices of the seat's warriors (Wonders & Warriors): no other player's turn gives
        # it one, so a vertex without one has none when its order runs, until an order of this
        # file may put one there (WARRIOR, MOVE, a card); None: unknown from then on.
        self.warriors: set[int] | None = None
        self.line = 0  # the line of the order being read
        self.maybe: list[tuple[int, str]] = []  # (line, warning), as orders.Plan.maybe

    def public(self, view: JSONObject, seat: str) -> None:
        """Read what every report shows: the seats, the open offers, the tiles' fog and, in the
        Basic game, the board's roads and settlements. A part not of its kind is left unread,
        and what it settles is left to the GM."""
        self.seat = seat
        rows, names = view.get("seats"), {}
        if isinstance(rows, list) and all(isinstance(r, dict) and isinstance(r.get("code"), str) for r in rows):
            self.seating = [r["code"] for r in rows]
            names = {
                r["code"]: {"colour_name": r.get("nation") if isinstance(r.get("nation"), str) else None} for r in rows
            }
        offers = view.get("offers")
        if isinstance(offers, list) and all(_offer_row(o) for o in offers):
            self.offers = offers
        self.fog = _fog(view, self.geo)
        self.warriors = _warriors(view, seat)
        sequence = view.get("order_of_play")
        self.later = not (isinstance(sequence, list) and sequence[:1] == [seat]) and self.phase == "play"
        if self.mode == "basic" and self.seating is not None and self.fog is not None and seat in self.seating:
            built = _built(view, self.geo, set(self.seating))
            if built is not None:
                roads, buildings = built
                tiles = {code: {"fog": fogged} for code, fogged in self.fog.items()}
                self.board = {
                    "roads": roads,
                    "buildings": buildings,
                    "warriors": {},
                    "seats": names,
                    "board": {"tiles": tiles},
                }
                self.you = Voice(True, seat_name(self.board, seat))

    def problem(self, order: Order) -> str | None:
        verb, args = order.verb, order.args
        if self.mode == "basic" and verb in WONDERS_ONLY:
            return f"{verb} is an order of Wonders & Warriors; this game plays the Basic rules"
        if verb in STANDING:
            return self._standing(verb, args)
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
            return self._road(args[0])
        if verb in ("VILLAGE", "TOWN"):
            return vertex_problem(self.geo, args[0]) or self._building(verb, args[0])
        if verb == "BUY":
            self.bought = self.mode != "wonders"
        if verb == "PLAY":
            return self._play(*args)
        if verb in ("ACTIVATE", "UPGRADE", "MOVE", "CHASE") and self.warriors is not None:
            if args[0] not in self.warriors:
                return f"you have no warrior at vertex {args[0]}"  # orders._own_warrior
        if verb in ("WARRIOR", "MOVE"):
            self.warriors = None
        if verb == "MARKET":
            return market_problem(self.mode, args[0], args[1])
        if verb == "OFFER" and self.seating is not None:
            return posting_problem(
                {"seats": dict.fromkeys(self.seating), "seating": self.seating, "mode": self.mode}, self.seat, *args
            )
        return None

    def _standing(self, verb: str, args: tuple) -> str | None:  # type: ignore[type-arg]  # well_formed: SHAPES
        if verb == "DEMOTE":
            bad = [v for v in args if not self.geo.is_vertex(v)]
            return f"{bad[0]} is not a vertex of this island" if bad else None
        if verb == "ROBBER":
            problem = self._tile(args[0]) or self._victim(args[1], "the robber")
            return None if problem is _UNSURE else problem
        if self.offers is None:
            return None
        if verb == "ACCEPT":
            return accept_problem(self.offers, self.seat, args)
        if verb == "WITHDRAW":
            return withdraw_problem(self.offers, self.seat, args[0])
        if verb == "CHOOSE" and self.seating is not None:
            return choose_problem(self.offers, self.seating, self.seat, *args)
        return None

    def _tile(self, code: object, why: str = FOGGED["robber"]) -> str | None:
        """orders._tile_problem: a tile the island has not; one under fog where no player
        before the seat may lift it (nor a road of this file has, which the Basic board
        follows). Unsure, it stops the checks of the order (a later word's problem would not be
        the GM's first)."""
        if self.fog is None or not isinstance(code, str):
            return _UNSURE
        if code not in self.fog:
            return f"{code} is not a tile of this island (they are lettered A to {self.geo.tiles[-1]})"
        if not (self.board["board"]["tiles"][code]["fog"] if self.board is not None else self.fog[code]):
            return None
        if self.later or self.board is None:
            return _UNSURE  # a warning, or a fog a road of this file may have lifted
        return f"tile {code} is under fog; {why}"

    def _victim(self, code: object, chooser: str) -> str | None:
        """orders._seat_problem: a seat not in the game is a problem; the seat's own code a
        warning, in the GM's words."""
        if self.seating is None or not isinstance(code, str):
            return None
        if code == self.seat:
            self.maybe.append((self.line, f"you cannot name yourself: gm chooses the other player for {chooser}"))
        return stranger(self.seating, code)

    def _road(self, edge: str) -> str | None:
        problem = edge_problem(self.geo, edge)
        if problem or self.board is None:
            return problem
        problem = road_problem(self.board, self.geo, self.seat, edge, self.you)
        if problem is None:
            lay_road(self.board, self.geo, self.seat, edge)
        return problem

    def _building(self, verb: str, vertex: int) -> str | None:
        if self.board is None:
            return None
        if verb == "VILLAGE":
            problem = village_problem(self.board, self.geo, self.seat, vertex, self.you)
            if problem is None:
                self.board["buildings"][str(vertex)] = {"owner": self.seat, "kind": "village"}
            return problem
        problem = town_problem(self.board, self.geo, self.seat, vertex, self.you)
        if problem is None:
            self.board["buildings"][str(vertex)]["kind"] = "town"
        return problem

    def _settle(self, vertex: int, edge: str | None) -> str | None:
        problem = vertex_problem(self.geo, vertex)
        if problem or edge is None:
            return problem
        problem = edge_problem(self.geo, edge)
        if problem is None and vertex not in self.geo.edge_ends[edge]:
            problem = f"the road {edge} does not touch vertex {vertex}"
        return problem

    def _play(self, card: str, *args: object) -> str | None:
        self.warriors = None  # a Deserter brings one over
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
            problem = self._argument(card, kind, arg)
            if problem:
                return None if problem is _UNSURE else problem
        return None

    def _argument(self, card: str, kind: str, arg: object) -> str | None:
        """orders._arg_problem, as far as the view carries it."""
        if kind == "tile":
            return self._tile(arg, FOGGED.get(card, FOGGED["robber"]))
        if kind == "seat":
            return self._victim(arg, "the card") if self.seating is not None else _UNSURE
        if kind == "vertex" and not self.geo.is_vertex(arg):  # well_formed: an int
            return vertex_problem(self.geo, arg)  # type: ignore[arg-type]
        if kind == "edge" and card == "roads":
            return self._road(arg) if self.board is not None else (edge_problem(self.geo, arg) or _UNSURE)  # type: ignore[arg-type]
        if kind == "edge" and edge_problem(self.geo, arg):  # type: ignore[arg-type]  # well_formed: text
            return edge_problem(self.geo, arg)  # type: ignore[arg-type]
        return None


# Said by a check that cannot settle an order's word from the view: the order's later words are
# then left to the GM, whose first problem may be about this one.
_UNSURE = "\0unsure"


def _warriors(view: JSONObject, seat: str) -> set[int] | None:
    """The vertices of the seat's warriors on the report's map; None when it is not of its kind."""
    board = view.get("board")
    pieces = board.get("pieces") if isinstance(board, dict) else None
    if not isinstance(pieces, list) or not all(isinstance(p, dict) for p in pieces):
        return None
    mine = [p.get("text") for p in pieces if p.get("shape") == "warrior" and p.get("seat") == seat]
    if not all(isinstance(t, str) and t.isdigit() for t in mine):
        return None
    return {int(t) for t in mine}


def _offer_row(row: object) -> bool:
    return (
        isinstance(row, dict)
        and type(row.get("id")) is int
        and isinstance(row.get("from"), str)
        and isinstance(row.get("to"), str)
    )


def _fog(view: JSONObject, geo: Geometry) -> dict[str, bool] | None:
    """Each of the island's tiles and whether it lies under fog, from the report's tile table."""
    rows = view.get("tiles")
    if not isinstance(rows, list) or len(rows) != len(geo.tiles):
        return None
    fog = {r.get("code"): r.get("kind") == "fog" for r in rows if isinstance(r, dict)}
    return fog if set(fog) == set(geo.tiles) else None  # type: ignore[return-value]


def _built(view: JSONObject, geo: Geometry, seats: set[str]) -> tuple[JSONObject, JSONObject] | None:
    """The board's roads ({edge: seat}) and settlements ({"vertex": {"owner", "kind"}}) as the
    report's map draws them: each corner names its vertex, each road runs between two corners."""
    board = view.get("board")
    if not isinstance(board, dict):
        return None
    corners, lines, pieces = board.get("corners"), board.get("lines"), board.get("pieces")
    if not (isinstance(corners, list) and isinstance(lines, list) and isinstance(pieces, list)):
        return None
    at: dict[str, int] = {}
    for corner in corners:
        text = corner.get("text") if isinstance(corner, dict) else None
        if not isinstance(text, str) or not text.isdigit() or not geo.is_vertex(int(text)):
            return None
        at[repr(corner.get("at"))] = int(text)
    roads: JSONObject = {}
    for line in lines:
        if not isinstance(line, dict) or line.get("seat") not in seats:
            return None
        ends = at.get(repr(line.get("from"))), at.get(repr(line.get("to")))
        if ends[0] is None or ends[1] is None or edge_name(*ends) not in geo.edge_ends:  # type: ignore[arg-type]
            return None
        roads[edge_name(*ends)] = line["seat"]  # type: ignore[arg-type]
    buildings: JSONObject = {}
    for piece in pieces:
        if not isinstance(piece, dict) or piece.get("seat") not in seats:
            return None
        text, shape = piece.get("text"), piece.get("shape")
        if shape == "warrior":
            return None  # no warrior in the Basic game: a report with one is not of one
        if shape not in ("village", "town") or not isinstance(text, str) or not text.isdigit():
            return None
        if not geo.is_vertex(int(text)):
            return None
        buildings[str(int(text))] = {"owner": piece["seat"], "kind": shape}
    return roads, buildings


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
