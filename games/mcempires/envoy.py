"""What a robot empire says to the others and leaves standing for their turns: answers to last
round's proposals, proposals of its own, payments, and standing orders (how its groups defend and
retreat, which cities it destroys before a capture). Each is tried sometimes, by the robot's own
seeded generator (rule D-ALL-1), so that robot games reach every order the book gives."""

from __future__ import annotations

from random import Random
from typing import Protocol

from gm.core.model import Order

from . import diplomacy, economy
from .grammar import make_order
from .turn import Turn
from .world import SIDES

KIND_WORDS = {"peace": "PEACE", "borders": "BORDERS", "ally": "ALLY"}
ALLIANCES_FROM = 4  # empires in play: with fewer, an alliance would leave nobody to fight


class Planning(Protocol):
    """What the envoy asks of the robot's planner (robot.Planner, which imports this module):
    the empire's dry-run turn and seat, its money, its home block, and an order tried on the dry
    run (kept when it works)."""

    @property
    def turn(self) -> Turn: ...

    @property
    def seat(self) -> str: ...

    @property
    def money(self) -> int: ...

    def home(self) -> int | None: ...

    def attempt(self, verb: str, *args: object) -> bool: ...


def standing(planner: Planning, rng: Random) -> list[Order]:
    """Standing orders for the others' turns (rule D-MC-9): a group outside the cities that an
    enemy outnumbers near by keeps a few troops fighting and pulls the rest back one block (with
    the option `retreat`; without it, the rest stand aside), now and then a group says every
    troop fights; an occupied city with something to lose is destroyed before its capture when
    the E$ allow."""
    turn, seat = planner.turn, planner.seat
    orders = []
    strongest = _strongest_foes(turn, seat)
    for gid, group in sorted(turn.groups.items(), key=lambda g: int(g[0][1:])):
        if group["owner"] != seat or turn.city_at.get(turn.place(gid)):
            continue
        if _outnumbered(turn, strongest, gid) and rng.random() < 0.6:
            if turn.options["retreat"]:
                fight = rng.choice([n for n in (0, 1, 2) if n < group["troops"]])
                orders.append(make_order("DEFEND", gid, fight, _back(planner, gid, rng)))
            elif group["troops"] > 1:  # RETREAT is an optional rule (D-MC-7): the others stand aside
                orders.append(make_order("DEFEND", gid, rng.choice([n for n in (1, 2) if n < group["troops"]]), ""))
        elif rng.random() < 0.02:
            orders.append(make_order("DEFEND", gid, "ALL", ""))
    money = turn.seats[seat]["money"]
    for cid in sorted(turn.cities_of(seat)):
        city = turn.cities[cid]
        worth = city["bases"] or city["transport"] or city["naval"] or city["treasury"]
        if city["occupier"] and worth and money >= economy.DESTROY_PRICE and rng.random() < 0.6:
            orders.append(make_order("DESTROY", "ALL" if rng.random() < 0.2 else cid))
            break
    return orders


NEAR = 2  # blocks within which a bigger enemy group outnumbers a group
AROUND = [(dx, dy) for dy in range(-NEAR, NEAR + 1) for dx in range(-NEAR, NEAR + 1) if abs(dx) + abs(dy) <= NEAR]


def _strongest_foes(turn: Turn, seat: str) -> dict[int, int]:
    """The troops of the biggest group not the seat's on each block that holds one, read once
    a planning: each group then looks at the 13 blocks near it, not at every group of the world
    (a stalemate of a thousand groups made the robot's turn quadratic)."""
    strongest: dict[int, int] = {}
    for i, there in turn.at.items():
        troops = [turn.groups[g]["troops"] for g in there if turn.groups[g]["owner"] != seat]
        if troops:
            strongest[i] = max(troops)
    return strongest


def _outnumbered(turn: Turn, strongest: dict[int, int], gid: str) -> bool:
    """A group of another empire within NEAR blocks has more troops than the group."""
    board = turn.board
    x, y = board.xy(turn.place(gid))
    troops = turn.groups[gid]["troops"]
    return any(
        strongest.get(board.index(x + dx, y + dy), 0) > troops for dx, dy in AROUND if board.on_map(x + dx, y + dy)
    )


def _back(planner: Planning, gid: str, rng: Random) -> str:
    """A side to pull back to: a land block, toward home when one is, else any side."""
    turn = planner.turn
    here, home = turn.place(gid), planner.home()
    land = {d: n for d in SIDES if (n := turn.board.side(here, d)) is not None and not turn.board.water[n]}
    if not land:
        return rng.choice(sorted(SIDES))
    if home is None:
        return rng.choice(sorted(land))
    return min(land, key=lambda d: (turn.board.distance(land[d], home), d))


def answer(planner: Planning, rng: Random) -> None:
    """ACCEPT what others proposed last round: peace most readily when losing, open borders
    often, an alliance while enough empires are left for it to have enemies."""
    turn, seat = planner.turn, planner.seat
    for proposal in [p for p in turn.state["proposals"] if p["to"] == seat and p["round"] == turn.round - 1]:
        other, kind = proposal["from"], proposal["kind"]
        if kind == "peace":
            # Never a peace that cedes its last city: it would be out at the end of the round.
            # And rarely one that hands back, for nothing, the cities this war has won: a winner
            # who made that peace whenever it was offered would see-saw for ever with a beaten
            # empire that declares again and again (robot game 568 was not over after 500 rounds).
            kept = [c for c in turn.cities_of(seat) if c not in proposal["terms"]]
            keen = bool(kept) and (
                turn.troops_of(seat) < turn.troops_of(other)
                or rng.random() < (0.02 if _winning(turn, seat, other) else 0.3)
            )
        elif kind == "ally":
            keen = _in_play(planner) >= ALLIANCES_FROM and rng.random() < 0.5
        else:
            keen = rng.random() < 0.7
        if keen:
            planner.attempt("ACCEPT", KIND_WORDS[kind], other)


def propose(planner: Planning, rng: Random, target_owner: str | None) -> None:
    """PEACE, BORDERS and ALLY proposals, LEAVE, and PAY, each now and then (only those the
    game's options allow reach the turn file: attempt keeps what works)."""
    turn, seat = planner.turn, planner.seat
    others = [s for s in turn.state["seating"] if s != seat and turn.seats[s]["alive"]]
    if not others:
        return
    if turn.options["peace"]:
        _peace(planner, rng)
    if turn.options["borders"] and target_owner and not diplomacy.may_pass(turn, seat, target_owner):
        if rng.random() < 0.5:  # the march is stopped at its borders: ask to pass
            planner.attempt("BORDERS", target_owner, rng.choice(["THEIRS", "BOTH"]))
    elif turn.options["borders"] and rng.random() < 0.05:
        planner.attempt("BORDERS", rng.choice(others), rng.choice(["MINE", "THEIRS", "BOTH"]))
    if turn.options["alliances"]:
        _alliance(planner, rng, others, target_owner)
    _pay(planner, rng, others)


def _peace(planner: Planning, rng: Random) -> None:
    turn, seat = planner.turn, planner.seat
    for war in list(turn.state["wars"]):
        if seat not in war["sides"]:
            continue
        enemy = next(s for s in war["sides"] if s != seat)
        losing = turn.troops_of(seat) * 2 < turn.troops_of(enemy)
        if not (losing and rng.random() < 0.3) and rng.random() >= 0.03:
            continue
        # Now and then a peace that cedes a city of its own the enemy is occupying anyway, and
        # now and then a corner of its land ("Territory may be ceded through a Peace Treaty").
        held = [c for c in turn.cities_of(seat) if turn.cities[c]["occupier"] == enemy]
        ceded = held[:1] if held and rng.random() < 0.5 else []
        if rng.random() < 0.3:
            ceded += _border_land(turn, seat, enemy)
        planner.attempt("PEACE", enemy, *ceded)


def _border_land(turn: Turn, seat: str, enemy: str) -> list[str]:
    """LAND and the corners of a 2 x 2 rectangle: the seat's block (not a city centre) nearest
    the enemy's capital, and the block one step nearer it each way (whatever of either side's
    land it holds is ceded)."""
    capital = turn.seats[enemy]["capital"]
    mine = [i for i in turn.territory(seat) if i not in turn.city_at]
    if capital not in turn.cities or not mine:
        return []
    there = turn.city_block(capital)
    near = min(mine, key=lambda i: (turn.board.distance(i, there), i))
    (x, y), (tx, ty) = turn.board.xy(near), turn.board.xy(there)
    far = turn.board.index(x + (tx > x) - (tx < x), y + (ty > y) - (ty < y))
    return ["LAND", turn.name(near), turn.name(far)]


def _alliance(planner: Planning, rng: Random, others: list[str], target_owner: str | None) -> None:
    turn, seat = planner.turn, planner.seat
    mine = diplomacy.alliance_of(turn, seat)
    if mine is None:
        friends = [s for s in others if s != target_owner and not diplomacy.at_war(turn, seat, s)]
        if friends and _in_play(planner) >= ALLIANCES_FROM and rng.random() < 0.1:
            planner.attempt("ALLY", rng.choice(friends))
        return
    # An alliance with the empire it marches on, or with the last one left, is left (at the
    # book's price) sooner or later.
    if target_owner in mine["members"] or _in_play(planner) <= 2 or rng.random() < 0.02:
        planner.attempt("LEAVE")


def _pay(planner: Planning, rng: Random, others: list[str]) -> None:
    """An ally's share of a rich empire's E$ now and then (the book's alliances share their
    wealth "as negotiated"), and rarely a small gift to anyone."""
    turn, seat = planner.turn, planner.seat
    money = planner.money
    alliance = diplomacy.alliance_of(turn, seat)
    allies = [m for m in alliance["members"] if m != seat] if alliance else []
    if allies and money >= 60 and rng.random() < 0.2:
        planner.attempt("PAY", rng.choice(allies), money // 10)
    elif money >= 10 and rng.random() < 0.02:
        planner.attempt("PAY", rng.choice(others), rng.randint(1, 3))


def _winning(turn: Turn, seat: str, enemy: str) -> bool:
    """The war with the enemy has won the seat a city of the enemy's, which a peace that does
    not cede it would hand back (the book: occupied cities not ceded return to their owner)."""
    war = diplomacy.war_of(turn, seat, enemy)
    return war is not None and any(
        before == enemy and cid in turn.cities and turn.cities[cid]["owner"] == seat
        for cid, before in war["taken"].items()
    )


def _in_play(planner: Planning) -> int:
    return sum(1 for s in planner.turn.seats.values() if s["alive"])
