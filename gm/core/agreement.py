"""Draws and concessions by secret ballot: the vote lines of a turn file, the rules a GM sets,
and the ending the votes of one turn make when they meet the rule (rule H-2)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from gm.core.model import JSONObject, Problem

DRAW, CONCEDE, NONE = "draw", "concede", "none"
OFF, ALL = "off", "all"  # the rules a GM may set for each kind (game settings draw, concede)
# The toolkit's record of an agreed ending, kept in the final turn's state beside the ruleset's.
STATE_KEY = "agreement"
_WORDS = {"DRAW": DRAW, "CONCEDE": CONCEDE}


@dataclass(frozen=True)
class Vote:
    """One seat's vote in its turn file for the turn being collected.

    kind: "draw" (the game ends shared by every seat still in it) or "concede" (it ends won by
        the seat named).
    to: the seat conceded to; "" for a draw.
    """

    kind: str
    to: str = ""

    def to_json(self) -> JSONObject:
        return {"kind": self.kind, "to": self.to}

    @classmethod
    def from_json(cls, data: JSONObject | None) -> Vote | None:
        return cls(str(data["kind"]), str(data.get("to", ""))) if data else None

    def words(self) -> str:
        """The vote as a player reads it in an acknowledgement or a report."""
        return "a draw" if self.kind == DRAW else f"conceding the game to {self.to}"


def is_vote(line: str) -> bool:
    """Whether a turn file's line (comment removed) is a vote line: DRAW, CONCEDE ..., NO DRAW,
    NO CONCEDE, in any case. Every other line is the ruleset's."""
    words = line.upper().split()
    return bool(words) and (words[0] in _WORDS or (words[0] == "NO" and words[1:2] in (["DRAW"], ["CONCEDE"])))


def read_vote(number: int, line: str) -> tuple[int, str, str] | Problem:
    """A vote line as (line number, kind, seat conceded to); kind "none" withdraws (NO DRAW,
    NO CONCEDE, as leaving the line out does). A draw includes every seat still in the game,
    so DRAW takes no seats; CONCEDE takes exactly one."""
    words = line.upper().split()
    if words[0] == "NO":
        if len(words) > 2:
            return Problem(number, f"NO {words[1]} takes nothing after it")
        return number, NONE, ""
    kind = _WORDS[words[0]]
    if kind == DRAW and len(words) > 1:
        return Problem(number, "DRAW takes nothing after it: a draw is shared by every seat still in the game")
    if kind == CONCEDE and len(words) != 2:
        return Problem(number, "CONCEDE needs the one seat you concede the game to, as in 'CONCEDE BR'")
    return number, kind, words[1] if kind == CONCEDE else ""


@dataclass(frozen=True)
class Ballot:
    """What a vote line is checked against, the same for the house's check and a player's
    offline one (the seat's JSON report carries it, see votes_json), so that both say the same.

    game: the game's name; rules: its rule for each kind ("off" or "all", settings draw and
    concede); seats: every seat's code; out: the seats out of the game (none may be conceded to).
    """

    game: str
    rules: Mapping[str, str]
    seats: tuple[str, ...]
    out: tuple[str, ...] = ()

    def to_json(self) -> JSONObject:
        """As a turn report's "votes" holds it (docs/report-format.md)."""
        return {
            DRAW: self.rules.get(DRAW, OFF),
            CONCEDE: self.rules.get(CONCEDE, OFF),
            "seats": list(self.seats),
            "out": sorted(self.out),
        }


def check_line(ballot: Ballot, seat: str, line: tuple[int, str, str]) -> Vote | Problem | None:
    """A vote line (read_vote) of `seat`'s turn file checked against the game's ballot: the vote,
    None for a vote withdrawn, or the problem at its line when the game takes no such vote or
    names no seat it could be conceded to."""
    number, kind, to = line
    if kind == NONE:
        return None
    if ballot.rules.get(kind, OFF) == OFF:
        what = "draws" if kind == DRAW else "concessions"
        return Problem(number, f"game '{ballot.game}' takes no votes for {what}: its GM has not allowed them")
    if kind == CONCEDE:
        if to not in ballot.seats:
            return Problem(
                number, f"CONCEDE: '{ballot.game}' has no seat '{to}' (its seats: {', '.join(ballot.seats)})"
            )
        if to == seat:
            return Problem(number, "CONCEDE names your own seat: concede the game to another seat")
        if to in ballot.out:
            return Problem(number, f"CONCEDE: {to} is out of the game; concede to a seat still playing")
    return Vote(kind, to)


def settle(
    votes: Mapping[str, Vote], voters: Iterable[str], survivors: Iterable[str], rules: Mapping[str, str]
) -> JSONObject | None:
    """The ending this turn's votes agree on, or None.

    votes: each seat's vote in the orders that counted for it this turn (none: no vote).
    voters: the seats still in the game that a player plays; a robot's seat, a dropped or
        resigned one, casts no vote and stops none.
    survivors: every seat still in the game after the turn: a draw is shared by all of them.
    rules: the game's rule for each kind, "all" or "off".
    A draw needs every voter's DRAW; a concession to a seat still in the game, every other
    voter's CONCEDE to it. The record says which rule it met and whose votes made it, so that
    `gm turn verify` can count them again."""
    voting, alive = sorted(voters), sorted(survivors)
    if not voting:
        return None
    if rules.get(DRAW) == ALL and all(votes.get(s) == Vote(DRAW) for s in voting):
        return {"kind": DRAW, "to": "", "winners": alive, "voters": voting, "rule": ALL}
    if rules.get(CONCEDE) != ALL:
        return None
    for to in sorted({v.to for v in votes.values() if v.kind == CONCEDE}):
        others = [s for s in voting if s != to]
        if to in alive and others and all(votes.get(s) == Vote(CONCEDE, to) for s in others):
            return {"kind": CONCEDE, "to": to, "winners": [to], "voters": voting, "rule": ALL}
    return None


def record_of(state: JSONObject) -> JSONObject | None:
    """The agreed ending a state holds (the last turn of a game ended by its votes), or None."""
    record = state.get(STATE_KEY) if isinstance(state, Mapping) else None
    return record if isinstance(record, dict) else None


def reason(record: JSONObject) -> str:
    """How the game ended, in one line for every report."""
    if record["kind"] == DRAW:
        agreed = f"a draw agreed by every seat still playing ({', '.join(record['voters'])})"
        if record["winners"] == record["voters"]:
            return agreed
        return f"{agreed}, shared by every seat still in the game ({', '.join(record['winners'])})"
    return f"every other seat still playing conceded the game to {record['to']}"
