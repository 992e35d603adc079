"""Searching the blocks a group may walk or sail this round (rule D-MC-3 and the embarking rules).

A search node is (block, limit, phase), packed into one int: the limit is the lowest limit of
every block entered so far, the start included; the phase says whether the group has walked
on land, is at sea, or has had to stop (came ashore, embarked after walking, entered another
empire's city)."""

from __future__ import annotations

import heapq
from dataclasses import dataclass

from . import diplomacy
from .turn import Turn
from .world import FULL_SPEED

START, WALKED, AT_SEA, STOPPED = 0, 1, 2, 3


def pack(i: int, limit: int, phase: int) -> int:
    return i << 6 | limit << 2 | phase


def unpack(key: int) -> tuple[int, int, int]:
    return key >> 6, (key >> 2) & 15, key & 3


class Walker:
    """What one group may enter this round, worked out once for every search it makes.

    fast: territory marks where it goes at 12 (its own, its allies'). closed: marks it may not
    enter at all (another's territory under the open-border rule); both from permits(). Blocks
    holding a group of another empire, and centres of other empires' cities (a move ends
    there), are looked up as the search reaches them (blocked, halts): a search touches a few
    hundred blocks, and a set of them all cost every walker a pass over every group and city of
    the world.
    """

    def __init__(self, turn: Turn, gid: str):
        seat = turn.groups[gid]["owner"]
        self.board = turn.board
        self.transport, self.naval = turn.bonus.get(gid, (False, False))
        self.land = turn.land
        self.fast, self.closed = permits(turn, seat)
        self.at, self.groups, self.seat = turn.at, turn.groups, seat
        self.city_at, self.cities = turn.city_at, turn.cities

    def blocked(self, i: int) -> bool:
        """Whether block i holds a group of another empire."""
        gids = self.at.get(i)  # never an empty list: Turn drops a block's entry with its last group
        return gids is not None and any(self.groups[g]["owner"] != self.seat for g in gids)

    def halts(self, i: int) -> bool:
        """Whether block i is the centre of another empire's city."""
        cid = self.city_at.get(i)
        return cid is not None and self.cities[cid]["owner"] != self.seat

    def start(self, i: int) -> int:
        if self.board.water[i]:
            return pack(i, FULL_SPEED, AT_SEA)
        limit = FULL_SPEED if self.transport or self.land[i] in self.fast else self.board.limit[i]
        return pack(i, limit, START)

    def successors(self, i: int, limit: int, phase: int) -> list[tuple[int, int, int]]:
        """(block, new limit, new phase) for every block the group may step onto next."""
        out = []
        water, land, at, city_at = self.board.water, self.land, self.at, self.city_at
        for n in self.board.neighbours[i]:
            if n in at and self.blocked(n):
                continue
            if water[n]:
                if self.naval:  # embarking after walking on land ends the move
                    out.append((n, limit, STOPPED if phase == WALKED else AT_SEA))
                continue
            mark = land[n]
            if mark in self.closed:
                continue
            if self.transport or mark in self.fast:
                new = limit  # 12 in own and allied territory, or with the Transport bonus
            else:
                terrain = self.board.limit[n]
                new = terrain if terrain < limit else limit
            halts = n in city_at and self.halts(n)
            out.append((n, new, STOPPED if phase == AT_SEA or halts else WALKED))
        return out


def permits(turn: Turn, seat: str) -> tuple[frozenset[int], frozenset[int]]:
    """(fast, closed) territory marks for the groups of `seat` (Walker), kept on the turn: every
    group of an empire makes a walker, and these are the same for all of them until a war, an
    alliance, an agreement or the round changes, which is what the key is made of."""
    state = turn.state
    key = (
        seat,
        turn.round,
        turn.options["borders"],
        tuple(tuple(w["sides"]) for w in state["wars"]),
        tuple(tuple(a["members"]) for a in state["alliances"]),
        tuple((b["host"], b["guest"], b["until"]) for b in state["borders"]),
    )
    found = turn.permits.get(key)
    if found is None:
        marks = turn.marks
        allies = [s for s in turn.seats if diplomacy.allied(turn, seat, s)]
        fast = frozenset({marks[seat], *(marks[a] for a in allies)})
        closed = frozenset(marks[s] for s in turn.seats if s != seat and not diplomacy.may_pass(turn, seat, s))
        found = turn.permits[key] = (fast, closed)
    return found


@dataclass(frozen=True)
class Reach:
    """Every way a group can go this round. seen: node -> (steps, node it came from, or -1);
    first: block -> the node that reaches it in the fewest steps."""

    seen: dict[int, tuple[int, int]]
    first: dict[int, int]

    def path(self, i: int) -> list[int]:
        key, blocks = self.first[i], []
        while key >= 0:
            blocks.append(key >> 6)
            key = self.seen[key][1]
        return blocks[::-1]

    def steps(self, i: int) -> int:
        return self.seen[self.first[i]][0]


def explore(walker: Walker, start: int, steps: int = 0) -> Reach:
    """Breadth first over the nodes the group can reach this round from node `start`."""
    seen = {start: (steps, -1)}
    first = {start >> 6: start}
    frontier = [start]
    while frontier:
        following = []
        for key in frontier:
            taken = seen[key][0]
            i, limit, phase = key >> 6, (key >> 2) & 15, key & 3
            if phase == STOPPED or taken >= limit:
                continue
            for n, new, then in walker.successors(i, limit, phase):
                if taken + 1 > new:
                    continue
                node = n << 6 | new << 2 | then
                if node not in seen:
                    seen[node] = (taken + 1, key)
                    first.setdefault(n, node)
                    following.append(node)
        frontier = following
    return Reach(seen, first)


def seek(walker: Walker, start: int, steps: int, goal: int) -> tuple[list[int], int] | None:
    """A* to one block within this round's limits: (the blocks of the path, the node reached),
    or None when the round's limits do not allow it."""
    width = walker.board.width
    gx, gy = goal % width, goal // width
    best = {start: steps}
    came = {start: -1}
    heap = [(steps, steps, start)]
    while heap:
        _, taken, key = heapq.heappop(heap)
        i, limit, phase = key >> 6, (key >> 2) & 15, key & 3
        if i == goal:
            blocks = []
            node = key
            while node >= 0:
                blocks.append(node >> 6)
                node = came[node]
            return blocks[::-1], key
        if taken > best[key] or phase == STOPPED or taken >= limit:
            continue
        for n, new, then in walker.successors(i, limit, phase):
            if taken + 1 > new:
                continue
            node = n << 6 | new << 2 | then
            if node not in best or taken + 1 < best[node]:
                best[node], came[node] = taken + 1, key
                h = abs(n % width - gx) + abs(n // width - gy)
                heapq.heappush(heap, (taken + 1 + h, taken + 1, node))
    return None


def route(walker: Walker, start: int, goal: int) -> list[int] | None:
    """A shortest way to a far block whatever this round's limits (A* over land, and water for
    a group with the naval bonus), so that a long march sets off in the right direction."""
    board = walker.board
    width = board.width
    gx, gy = goal % width, goal // width
    came = {start: -1}
    cost = {start: 0}
    heap = [(0, 0, start)]
    while heap:
        _, spent, i = heapq.heappop(heap)
        if i == goal:
            path = []
            while i >= 0:
                path.append(i)
                i = came[i]
            return path[::-1]
        if spent > cost[i]:
            continue
        for n in board.neighbours[i]:
            if n != goal and (walker.blocked(n) or walker.land[n] in walker.closed):
                continue
            if board.water[n] and not walker.naval:
                continue
            if n not in cost or spent + 1 < cost[n]:
                cost[n], came[n] = spent + 1, i
                h = abs(n % width - gx) + abs(n // width - gy)
                heapq.heappush(heap, (spent + 1 + h, spent + 1, n))
    return None
