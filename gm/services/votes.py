"""The votes of a turn counted once it is resolved: a draw or a concession its seats agreed
(gm/core/agreement.py) ends the game, kept in the turn's state for every report and for
`gm turn verify`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from gm.core import agreement, prizes
from gm.core.agreement import Vote
from gm.core.model import JSONObject
from gm.core.ruleset import Ruleset
from gm.services.game_settings import game_setting
from gm.store.records import GameRecord, SeatRecord


def rules_of(game: GameRecord) -> dict[str, str]:
    """The game's rule for each kind of vote, as its GM set it (settings draw and concede)."""
    return {kind: game_setting(game, kind) for kind in (agreement.DRAW, agreement.CONCEDE)}


def ballot_of(game: GameRecord, seats: Iterable[SeatRecord], out: Iterable[str]) -> agreement.Ballot:
    """What the game's vote lines are checked against: its rules, its seats, the seats out of it
    (out: the ruleset's knocked_out of the state the orders are for). The house's check uses it,
    and every turn report carries it for a player's offline check (agreement.Ballot.to_json)."""
    return agreement.Ballot(game.name, rules_of(game), tuple(s.code for s in seats), tuple(out))


def voters(ruleset: Ruleset, state: JSONObject, seats: Iterable[SeatRecord]) -> list[str]:
    """The seats still in the game after the turn that a player plays (status active)."""
    out = prizes.knocked_out(state, ruleset.knocked_out(state))
    return [s.code for s in seats if s.status == "active" and s.code not in out]


def count(
    ruleset: Ruleset,
    state: JSONObject,
    orders: Mapping[str, Mapping[str, Any]],
    voting: Iterable[str],
    rules: Mapping[str, str],
) -> JSONObject:
    """The resolved state, with the ending its seats' votes agreed on when they meet the rules
    (under agreement.STATE_KEY); as it was when the ruleset ended the game itself, or when the
    votes fall short. orders: the turn's orders by seat, each with the vote that counted."""
    if ruleset.is_over(state) is not None:
        return state
    cast = {code: v for code, entry in orders.items() if (v := Vote.from_json(entry.get("vote"))) is not None}
    out = prizes.knocked_out(state, ruleset.knocked_out(state))
    survivors = [code for code in orders if code not in out]
    record = agreement.settle(cast, voting, survivors, rules)
    return state if record is None else {**state, agreement.STATE_KEY: record}


def count_again(
    ruleset: Ruleset, state: JSONObject, orders: Mapping[str, Mapping[str, Any]], stored: JSONObject
) -> JSONObject:
    """The re-resolved state of a turn counted as when it was run (`gm turn verify`): the votes
    counted again under the rule and among the voters its stored ending names, if it has one."""
    record = agreement.record_of(stored)
    if record is None:
        return state
    return count(ruleset, state, orders, record["voters"], {record["kind"]: record["rule"]})


def notice(seat: str, number: int, orders: Mapping[str, Mapping[str, Any]], state: JSONObject) -> list[str]:
    """What a seat's report of a turn says of the votes: its own vote only, and whether the
    game ended by agreement (never another seat's vote, nor how many voted: rule D-ALL-5)."""
    own = Vote.from_json(orders.get(seat, {}).get("vote"))
    if own is None:
        return []
    if agreement.record_of(state) is not None:
        return [f"Your vote in turn {number}: {own.words()}. The game ended by agreement."]
    return [
        f"Your vote in turn {number}: {own.words()}. It was not agreed, so the game goes on; votes are "
        "secret, and no other seat is told yours. Vote again in your next turn file if you still wish to."
    ]
