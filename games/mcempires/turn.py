"""What one resolution carries from order to order: a copy of the state, fast indexes of the
blocks, the events so far and who has done what this round. resolve, check_orders (a dry run
of one empire's turn) and the robot all work through it, so they agree on every rule."""

from __future__ import annotations

from random import Random
from typing import cast

from gm.core.model import Event, JSONObject
from gm.core.names import named, possessive
from gm.core.warnings import did_you_mean

from .world import FREE, Board, board_of

MAX_TROOPS = 6  # "The maximum number of Troops allowed in one Group is 6."
# What a city record holds when nothing else is said (cities.new_city starts from it): a state
# written by hand, as a conformance case writes it, need not repeat them. Its list is shared, never
# changed in place (copy_state).
CITY_DEFAULTS = {
    "capital": False,
    "bases": [],
    "transport": False,
    "naval": False,
    "treasury": False,
    "occupier": None,
    "held": 0,
    "treasury_by": None,
    "restored": 0,
    "spawns_from": 0,
}
# The same for an empire's record: what version 1.1 added (a state of 1.0 lacks it, and its
# reports are still drawn from such a state).
SEAT_DEFAULTS = {"routed": False, "fate": None}
# The same for the options: a state made before 1.2 knew no option `retreat` and always allowed it.
OPTION_DEFAULTS = {"retreat": True}


def options_of(state: JSONObject) -> JSONObject:
    """The game's options, with what an older state lacks."""
    return {**OPTION_DEFAULTS, **state["options"]}


def copy_state(state: JSONObject) -> JSONObject:
    """A copy deep enough that changing it never touches `state`. The world and the scenario
    never change during a game and are shared, and so do the options (copied only to add what
    an older state lacks); lists inside the copied records are always replaced, never changed
    in place."""
    new = dict(state)
    new["options"] = options_of(state)
    new["seats"] = {code: {**SEAT_DEFAULTS, **seat} for code, seat in state["seats"].items()}
    new["cities"] = {cid: {**CITY_DEFAULTS, "founder": city["owner"], **city} for cid, city in state["cities"].items()}
    new["groups"] = {gid: dict(group) for gid, group in state["groups"].items()}
    new["territory"] = list(state["territory"])
    for key in ("rails", "wars", "borders", "alliances", "proposals"):
        new[key] = [dict(item) for item in state[key]]
    new["standing"] = dict(state["standing"])
    return new


class Turn:
    """The working state of one resolve call, one dry run or one robot's planning.

    state: a fresh copy, changed as orders run (never the caller's state).
    board: the world's fixed facts. rng: the dice (None in a dry run, where battles are
        assumed won so that later orders can be checked).
    you: messages speak to the player ("you have 5 E$") instead of about the empire.
    events: what happened, in order. moved, attacked: group ids that have used their move or
    their attack this round. bonus: group id -> (transport, naval) for this round.
    bought_city: empires that bought their regular city this round.
    played: empires whose turn of this round has ended (its occupations counted).
    defence, destroy: the round's standing orders of every empire (rule D-MC-9); destroyed: the
    cities whose infrastructure a standing DESTROY has destroyed this round.
    permits: the territory marks each empire's groups cross fast or may not enter, by what they
    depend on (paths.permits).
    """

    def __init__(self, state: JSONObject, rng: Random | None = None, you: bool = False):
        self.state = copy_state(state)
        self.board: Board = board_of(state)
        self.rng = rng
        self.you = you
        self.events: list[Event] = []
        self.moved: set[str] = set()
        self.attacked: set[str] = set()
        self.bonus: dict[str, tuple[bool, bool]] = {}
        self.bought_city: set[str] = set()
        self.played: set[str] = set()
        self.defence: dict[str, JSONObject] = {}  # seat -> group id or "ALL" -> combat.Defence
        self.destroy: dict[str, set[str]] = {}  # seat -> city ids (or "ALL") of standing DESTROY
        self.destroyed: set[str] = set()  # cities whose infrastructure was destroyed this round
        self.marks = {code: ord(seat["mark"]) for code, seat in self.state["seats"].items()}
        self.owners = {mark: code for code, mark in self.marks.items()}
        self.land = bytearray("".join(self.state["territory"]), "ascii")
        self.at: dict[int, list[str]] = {}
        for gid, group in self.state["groups"].items():
            self.at.setdefault(self.board.index(group["x"], group["y"]), []).append(gid)
        self.city_at = {self.board.index(c["x"], c["y"]): cid for cid, c in self.state["cities"].items()}
        self.permits: dict[tuple[object, ...], tuple[frozenset[int], frozenset[int]]] = {}  # paths.permits

    # -- the state's parts -------------------------------------------------------------------
    @property
    def options(self) -> JSONObject:
        return cast(JSONObject, self.state["options"])

    @property
    def mode(self) -> str:
        return cast(str, self.options["mode"])

    @property
    def round(self) -> int:
        return cast(int, self.state["round"])

    @property
    def seats(self) -> JSONObject:
        return cast(JSONObject, self.state["seats"])

    @property
    def cities(self) -> JSONObject:
        return cast(JSONObject, self.state["cities"])

    @property
    def groups(self) -> JSONObject:
        return cast(JSONObject, self.state["groups"])

    def finish(self) -> JSONObject:
        """The state with the territory written back as rows."""
        width = self.board.width
        text = self.land.decode("ascii")
        self.state["territory"] = [text[y * width : (y + 1) * width] for y in range(self.board.height)]
        return self.state

    # -- territory -----------------------------------------------------------------------------
    def owner(self, i: int) -> str | None:
        return self.owners.get(self.land[i])

    def claim(self, i: int, seat: str | None) -> None:
        self.land[i] = self.marks[seat] if seat else ord(FREE)

    def blocks_of(self, seat: str) -> int:
        return self.land.count(self.marks[seat])

    def territory(self, seat: str) -> list[int]:
        """The empire's blocks of territory, in order. Found a block at a time by the bytes'
        own search: a world of 25,600 blocks is read in C, not block by block in Python."""
        mark, land, found = self.marks[seat], self.land, []
        i = land.find(mark)
        while i >= 0:
            found.append(i)
            i = land.find(mark, i + 1)
        return found

    # -- groups --------------------------------------------------------------------------------
    def groups_at(self, i: int) -> list[str]:
        return self.at.get(i, [])

    def group_of(self, seat: str, i: int) -> str | None:
        return next((g for g in self.groups_at(i) if self.groups[g]["owner"] == seat), None)

    def foreign_at(self, seat: str, i: int) -> str | None:
        return next((g for g in self.groups_at(i) if self.groups[g]["owner"] != seat), None)

    def place(self, gid: str) -> int:
        group = self.groups[gid]
        return self.board.index(group["x"], group["y"])

    def new_group(self, seat: str, i: int, troops: int) -> str:
        while f"G{self.state['next_group']}" in self.groups:  # never reuse a group's id
            self.state["next_group"] += 1
        gid = f"G{self.state['next_group']}"
        self.state["next_group"] += 1
        x, y = self.board.xy(i)
        self.groups[gid] = {"owner": seat, "x": x, "y": y, "troops": troops}
        self.at.setdefault(i, []).append(gid)
        return gid

    def relocate(self, gid: str, i: int) -> None:
        self._unlist(gid)
        self.groups[gid]["x"], self.groups[gid]["y"] = self.board.xy(i)
        self.at.setdefault(i, []).append(gid)

    def lose(self, gid: str, troops: int) -> None:
        """Take troops from a group; a group with none left is gone."""
        self.groups[gid]["troops"] -= troops
        if self.groups[gid]["troops"] <= 0:
            self.remove(gid)

    def remove(self, gid: str) -> None:
        self._unlist(gid)
        del self.groups[gid]

    def _unlist(self, gid: str) -> None:
        here = self.at[self.place(gid)]
        here.remove(gid)
        if not here:
            del self.at[self.place(gid)]

    def may_stand(self, seat: str, i: int, troops: int) -> bool:
        """Whether `troops` of `seat` can end up on land block i: no other empire's group or
        city there, and room in its own group."""
        if self.board.water[i] or self.foreign_at(seat, i):
            return False
        cid = self.city_at.get(i)
        if cid and self.cities[cid]["owner"] != seat:
            return False
        mine = self.group_of(seat, i)
        return not mine or self.groups[mine]["troops"] + troops <= MAX_TROOPS

    def troops_of(self, seat: str) -> int:
        return sum(g["troops"] for g in self.groups.values() if g["owner"] == seat)

    # -- cities --------------------------------------------------------------------------------
    def city_block(self, cid: str) -> int:
        city = self.cities[cid]
        return self.board.index(city["x"], city["y"])

    def cities_of(self, seat: str) -> list[str]:
        return [cid for cid, city in self.cities.items() if city["owner"] == seat]

    def in_full(self, cid: str) -> bool:
        """Whether the city is its owner's in full now (treasury income, building, bonuses): no
        occupier holds it, and an occupation its occupier's fall ended was not this round (rule
        D-MC-12: "from the next round")."""
        city = self.cities[cid]
        return not city["occupier"] and city["restored"] <= self.round

    def pass_city(self, cid: str, new: str) -> None:
        """The city becomes `new`'s and any occupation of it ends; a city `new` had lost is
        back, and no longer counts as captured (rule D-MC-11)."""
        self.cities[cid].update(owner=new, occupier=None, held=0)
        lost = self.seats[new]["lost"]
        if cid in lost:
            self.seats[new]["lost"] = [c for c in lost if c != cid]

    def regular_cities(self, seat: str) -> int:
        """Cities the empire owns other than its own capital (captured capitals count)."""
        capital = self.seats[seat]["capital"]
        return sum(1 for cid in self.cities_of(seat) if cid != capital)

    # -- words ---------------------------------------------------------------------------------
    def nation(self, seat: str) -> str:
        """An empire as a report sentence names it, beside its code on the map: "Red (RE)"."""
        return named(self.seats[seat]["nation"], seat)

    def who(self, seat: str) -> str:
        """The empire as a message names it: "you" to its player in a dry run."""
        return "you" if self.you else self.nation(seat)

    def has(self, seat: str) -> str:
        return "you have" if self.you else f"{self.nation(seat)} has"

    def yours(self, seat: str) -> str:
        return "yours" if self.you else possessive(self.nation(seat))

    def your(self, seat: str) -> str:
        return "your" if self.you else possessive(self.nation(seat))

    def name(self, i: int) -> str:
        return self.board.name(i)

    def no_city(self, text: str) -> str:
        """A city name that names none: "there is no city RE11 (did you mean RE1?)"."""
        return f"there is no city {text}{did_you_mean(text, self.cities)}"

    def add(self, kind: str, text: str, seats: tuple[str, ...] | None = None, /, **data: object) -> None:
        # kind, text and seats are positional-only: an event's facts may have a "kind" of their
        # own (a proposal's), which as a keyword used to collide with the event's kind.
        self.events.append(Event(kind, {"text": text, **data}, seats))

    def private(self, seat: str, kind: str, text: str, /, **data: object) -> None:
        """An event only the acting empire sees: its purchases, moves and income."""
        self.add(kind, text, (seat,), seat=seat, **data)
