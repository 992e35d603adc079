"""Rule-book conformance cases: run one parsed case against any ruleset and list what failed."""

from __future__ import annotations

import copy
import tomllib
from random import Random

from gm.core.model import Event, JSONObject, Order, Problem, SeatInfo, TurnResult
from gm.core.ruleset import Ruleset, TurnSeeds, choose_options, with_options
from gm.core.seeds import derive_seed, rng_for
from gm.core.statehash import canonical_json

CASE_KEYS = {
    "title",
    "rule",
    "quote",
    "ruleset",
    "scenario",
    "seed",
    "turn",
    "dice",
    "dice_purpose",
    "options",
    "prestate",
    "seats",
    "orders",
    "expect",
}
REQUIRED = {"title": str, "rule": str, "quote": str, "scenario": str, "seed": int}
TYPE_WORDS = {str: "a string", int: "a whole number"}
EXPECT_KEYS = {
    "path",
    "equals",
    "is_none",
    "event",
    "data",
    "count",
    "seen_by",
    "problem",
    "seat",
    "line",
    "winners",
    "over",
}


class CaseError(ValueError):
    """A case file that cannot be read, or a case that cannot be run as written."""


def load_case_text(text: str, source: str) -> JSONObject:
    """Parse the TOML of a case file; raise CaseError naming the source and the line."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise CaseError(f"{source}: not valid TOML: {err}") from None


class ScriptedRandom(Random):
    """A seeded generator whose randrange/randint calls return forced dice first, in order.

    Forced dice do not use up the seeded sequence, so once they run out the rolls are the ones
    an unscripted turn would have made first. choice and shuffle are never forced.
    """

    def __init__(self, seed: int, dice: list[int]):
        self.dice = dice  # shared with the ScriptedSeeds, so forced dice are used up across calls
        super().__init__(seed)

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        if not self.dice:
            return super().randrange(start, stop, step)
        low, high = (0, start) if stop is None else (start, stop)
        value = self.dice.pop(0)
        if not low <= value < high:
            raise CaseError(f"forced die {value} is outside the roll's range {low} to {high - 1}")
        return value


class ScriptedSeeds(TurnSeeds):
    """TurnSeeds whose generator for one purpose ("roll" by default) yields the listed dice."""

    dice: list[int]  # the forced dice not rolled yet
    purpose: str  # the one purpose whose rolls they force

    def __init__(self, game_seed: int, turn: int, dice: list[int], purpose: str = "roll"):
        super().__init__(game_seed, turn)
        object.__setattr__(self, "dice", list(dice))
        object.__setattr__(self, "purpose", purpose)

    def rng(self, purpose: str) -> Random:
        if purpose != self.purpose:
            return rng_for(self.game_seed, self.turn, purpose)
        return ScriptedRandom(derive_seed(self.game_seed, self.turn, purpose), self.dice)


def run_case(case: JSONObject, ruleset: Ruleset) -> list[str]:
    """Run one case; an empty list means it passes, otherwise one message per failure."""
    malformed = _malformed(case)
    if malformed:
        return [f"malformed case: {m}" for m in malformed]
    if case.get("ruleset", ruleset.name) != ruleset.name:
        return [f"the case is for ruleset {case['ruleset']!r}, not {ruleset.name!r}"]
    try:
        return _run(case, ruleset)
    except CaseError as err:
        return [str(err)]


def _malformed(case: object) -> list[str]:
    if not isinstance(case, dict):
        return ["a case is a table of keys"]
    problems = [f"unknown key {k!r}" for k in sorted(set(case) - CASE_KEYS)]
    for key, kind in REQUIRED.items():
        if not isinstance(case.get(key), kind) or isinstance(case.get(key), bool):
            problems.append(f"{key} is missing or not {TYPE_WORDS[kind]}")
    for key, test, what in (
        ("dice", lambda v: isinstance(v, list) and all(_is_int(d) for d in v), "a list of numbers"),
        ("seats", lambda v: isinstance(v, list) and all(isinstance(s, str) for s in v), "a list of seat codes"),
        ("prestate", lambda v: isinstance(v, dict), "a table"),
        ("options", lambda v: isinstance(v, dict), "a table of game options, NAME = value"),
        ("turn", _is_int, "a number"),
        ("dice_purpose", lambda v: isinstance(v, str), "a string"),
        (
            "orders",
            lambda v: (
                isinstance(v, dict)
                and all(isinstance(x, list) and all(isinstance(s, str) for s in x) for x in v.values())
            ),
            "a table of seat = [order lines]",
        ),
        (
            "expect",
            lambda v: isinstance(v, list) and v and all(isinstance(e, dict) for e in v),
            "a non-empty list of [[expect]] tables",
        ),
    ):
        if key in case and not test(case[key]):
            problems.append(f"{key} must be {what}")
    if "expect" not in case:
        problems.append("a case needs at least one [[expect]]")
    elif not problems:
        for number, expect in enumerate(case["expect"], 1):
            problems += [f"expect #{number}: {m}" for m in _malformed_expect(expect)]
    return problems


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _malformed_expect(expect: JSONObject) -> list[str]:
    problems = [f"unknown key {k!r}" for k in sorted(set(expect) - EXPECT_KEYS)]
    kinds = [k for k in ("path", "event", "problem", "winners", "over") if k in expect]
    if len(kinds) != 1:
        return problems + ["give exactly one of path, event, problem, winners or over"]
    kind = kinds[0]
    if kind == "path" and ("equals" in expect) == bool(expect.get("is_none")):
        problems.append("a path needs either equals or is_none = true")
    if kind == "event" and not isinstance(expect.get("data", {}), dict):
        problems.append("data must be a table of event fields")
    if "seen_by" in expect and not (
        kind == "event"
        and (
            expect["seen_by"] == "everyone"
            or (isinstance(expect["seen_by"], list) and all(isinstance(s, str) for s in expect["seen_by"]))
        )
    ):
        problems.append('seen_by belongs to an event: "everyone", or the list of seats that may see it')
    if kind == "problem" and not isinstance(expect.get("seat"), str):
        problems.append("a problem needs the seat that sent the order")
    if "count" in expect and not (_is_int(expect["count"]) and expect["count"] >= 0):
        problems.append("count must be a number, 0 or more")
    if kind == "winners" and not (
        isinstance(expect["winners"], list) and all(isinstance(w, str) for w in expect["winners"])
    ):
        problems.append("winners must be a list of seat codes")
    return problems


def _run(case: JSONObject, ruleset: Ruleset) -> list[str]:
    state, seats = _start(case, ruleset)
    orders, problems = _orders(case, ruleset, state, seats)
    before = canonical_json(state)
    seeds = ScriptedSeeds(case["seed"], case.get("turn", 1), case.get("dice", []), case.get("dice_purpose", "roll"))
    try:
        result = ruleset.resolve(state, orders, seeds)
    except Exception as err:  # a conformance run reports a crash as a failure, not a traceback
        return [f"resolve raised {type(err).__name__}: {err}"]
    failures: list[str] = []
    if canonical_json(state) != before:
        failures.append("resolve changed the state it was given")
    if seeds.dice:
        failures.append(f"{len(seeds.dice)} forced dice were never rolled: {seeds.dice}")
    failures += _json_problems(result.state, "the resulting state")
    for number, event in enumerate(result.events, 1):
        failures += _json_problems(event.data, f"event #{number} ({event.kind})")
    for number, expect in enumerate(case["expect"], 1):
        failures += [f"expect #{number}: {m}" for m in _check(expect, result, problems, ruleset)]
    wanted = [e for e in case["expect"] if "problem" in e]
    failures += [
        f"unexpected problem for {seat} on line {p.line}: {p.message}"
        for seat, p in problems
        if not any(_matches(e, seat, p) for e in wanted)
    ]
    return failures


def _start(case: JSONObject, ruleset: Ruleset) -> tuple[JSONObject, list[str]]:
    try:
        scenario = ruleset.load_scenario(ruleset.scenario_text(case["scenario"]), case["scenario"])
        if "options" in case:
            scenario = with_options(scenario, choose_options(ruleset.game_options(), case["options"]))
        seats = case.get("seats") or ruleset.seat_codes(scenario)[: ruleset.seat_limits(scenario)[1]]
        state = ruleset.new_game(
            scenario, [SeatInfo(code, f"Player {code}") for code in seats], TurnSeeds(case["seed"], 0)
        )
    except Exception as err:
        raise CaseError(f"cannot start the game: {type(err).__name__}: {err}") from None
    merged = _merge(state, case.get("prestate", {}), "prestate")
    assert isinstance(merged, dict)  # a state merged with a table (_malformed checks prestate)
    return merged, list(seats)


def _merge(base: object, over: object, path: str) -> object:
    # Keys must exist already (a typo must not add a new key silently), except in empty tables
    # and where the case says so: "+name" adds the key name, whose value then replaces any.
    if not isinstance(over, dict) or not isinstance(base, dict):
        return copy.deepcopy(over)
    merged = dict(base)
    for key, value in over.items():
        if key.startswith("+"):
            merged[key[1:]] = copy.deepcopy(value)
        elif base and key not in base:
            raise CaseError(
                f'malformed case: {path}.{key} is not in the state of a new game (write "+{key}" to add it)'
            )
        else:
            merged[key] = _merge(base.get(key), value, f"{path}.{key}") if key in base else value
    return merged


def _orders(
    case: JSONObject, ruleset: Ruleset, state: JSONObject, seats: list[str]
) -> tuple[dict[str, list[Order]], list[tuple[str, Problem]]]:
    orders: dict[str, list[Order]] = {seat: [] for seat in seats}
    problems: list[tuple[str, Problem]] = []
    for seat, lines in case.get("orders", {}).items():
        if seat not in orders:
            raise CaseError(f"malformed case: orders are given for {seat}, which has no seat")
        parsed, parse_problems = ruleset.parse_orders(list(enumerate(lines, 1)))
        # Problem orders are still resolved, so a case can show how resolve treats them.
        problems += [(seat, p) for p in parse_problems]
        problems += [(seat, p) for p in ruleset.check_orders(state, seat, parsed)]
        orders[seat] = parsed
    return orders, problems


def _json_problems(value: object, where: str) -> list[str]:
    if isinstance(value, dict):
        return [
            m
            for k, v in value.items()
            for m in (
                [f"{where} has a key {k!r} that is not a string"]
                if not isinstance(k, str)
                else _json_problems(v, f"{where}.{k}")
            )
        ]
    if isinstance(value, list):
        return [m for i, v in enumerate(value) for m in _json_problems(v, f"{where}.{i}")]
    if value is None or isinstance(value, (str, int)):
        return []
    return [f"{where} holds a {type(value).__name__}, which is not JSON"]


def _lookup(state: object, path: str) -> object:
    value = state
    for part in path.split("."):
        if isinstance(value, dict) and part in value:
            value = value[part]
        elif isinstance(value, list) and part.isascii() and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            raise KeyError(path)
    return value


def _check(expect: JSONObject, result: TurnResult, problems: list[tuple[str, Problem]], ruleset: Ruleset) -> list[str]:
    if "path" in expect:
        return _check_path(expect, result.state)
    if "event" in expect:
        return _check_event(expect, result.events)
    if "problem" in expect:
        if any(_matches(expect, seat, problem) for seat, problem in problems):
            return []
        seen = "; ".join(f"{s} line {p.line}: {p.message}" for s, p in problems) or "none"
        return [f"no problem {expect['problem']!r} for {expect['seat']} (problems: {seen})"]
    outcome = ruleset.is_over(result.state)
    if "over" in expect:
        if bool(outcome) != bool(expect["over"]):
            return [f"expected the game {'over' if expect['over'] else 'not over'}, got outcome {outcome}"]
        return []
    got = sorted(outcome.winners) if outcome else None
    if got == sorted(expect["winners"]):
        return []
    return [f"winners: expected {expect['winners']}, got {got}"]


def _check_path(expect: JSONObject, state: JSONObject) -> list[str]:
    path = expect["path"]
    try:
        value = _lookup(state, path)
    except KeyError:
        return [f"{path}: no such path in the resulting state"]
    wanted = None if expect.get("is_none") else expect["equals"]
    if not _same(value, wanted):
        return [f"{path}: expected {wanted!r}, got {value!r}"]
    return []


def _check_event(expect: JSONObject, events: tuple[Event, ...]) -> list[str]:
    kind, data = expect["event"], expect.get("data", {})
    of_kind = [e for e in events if e.kind == kind]
    matching = [
        e for e in of_kind if all(k in e.data and _same(e.data[k], v) for k, v in data.items()) and _seen_by(expect, e)
    ]
    count = expect.get("count")
    if (count is None and matching) or len(matching) == count:
        return []
    readers = f" seen by {expect['seen_by']}" if "seen_by" in expect else ""
    shown = [str(e.data.get("text", e.data)) + (f" (seen by {_readers(e)})" if readers else "") for e in of_kind]
    seen = "; ".join(shown) or "none"
    wanted = "some" if count is None else f"exactly {count}"
    return [f"expected {wanted} {kind} event(s) with {data}{readers}, found {len(matching)} ({kind} events: {seen})"]


def _seen_by(expect: JSONObject, event: Event) -> bool:
    # Who may read an event (rule D-ALL-5): "everyone" (Event.seats None) or exactly those seats.
    wanted = expect.get("seen_by")
    if wanted is None:
        return True
    if wanted == "everyone":
        return event.seats is None
    return event.seats is not None and sorted(event.seats) == sorted(wanted)


def _readers(event: Event) -> str:
    return "everyone" if event.seats is None else ", ".join(event.seats)


def _same(value: object, wanted: object) -> bool:
    # TOML has no null and Python has True == 1: compare the way JSON would.
    return value == wanted and isinstance(value, bool) == isinstance(wanted, bool)


def _matches(expect: JSONObject, seat: str, problem: Problem) -> bool:
    return bool(
        expect["seat"] == seat
        and expect["problem"] == problem.message
        and expect.get("line", problem.line) == problem.line
    )
