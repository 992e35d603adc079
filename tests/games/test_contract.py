"""The ruleset contract, held for every installed ruleset: a new ruleset gets these tests free.

For each ruleset: a new game from every scenario with its fewest and its most seats (and with each
choice of every game option that has choices); robot orders that pass the check; robot games that
end; resolve deterministic and pure; views that are JSON, name their seat and hold no other seat's
hidden data; an order form that parses and checks inside its envelope; every packaged case
passes. docs/writing-a-ruleset.md describes the contract these tests hold.
"""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime
from random import Random

import pytest

from gm.clock import FixedClock
from gm.core.cases import load_case_text, run_case
from gm.core.envelope import read_envelope, wrap_envelope
from gm.core.model import Event, Order, Problem, SeatInfo
from gm.core.ruleset import Ruleset, TurnSeeds, choose_options, with_options
from gm.core.statehash import canonical_json, state_hash
from gm.home import Home, create_home
from gm.rulesets import case_files, installed
from gm.services import games, turns
from gm.services.reports import report_context
from gm.store import records
from gm.store.database import open_database

NAMES = sorted(installed())
TURN_CAP = 500  # a robot-only game from the default scenario must end within this many turns
FEW_TURNS = 3  # turns played with the most seats
FORM_WIDTH = 84  # the report's order-form box: a longer line wraps and loses its '#' when copied
KNOWN_WIDTH = 96  # characters of the listing's 8-point lines that fit the width of an A4 report
SEED = 20261124
CLOCK = FixedClock(datetime(2026, 11, 24, 12, 0, tzinfo=UTC))


def variants(ruleset) -> list[dict]:
    """The GM's choices to try: none, then each other choice of every option that has choices."""
    chosen = [{}]
    for option in ruleset.game_options():
        chosen += [{option.name: choice} for choice in option.choices if choice != option.default]
    return chosen


def scenario_of(ruleset, name: str, chosen: dict) -> dict:
    scenario = ruleset.load_scenario(ruleset.scenario_text(name), name)
    return with_options(scenario, choose_options(ruleset.game_options(), chosen))


def new_game(ruleset, scenario: dict, count: int, seed: int = SEED) -> tuple[dict, list[str]]:
    codes = ruleset.seat_codes(scenario)[:count]
    state = ruleset.new_game(scenario, [SeatInfo(c, f"Player {c}") for c in codes], TurnSeeds(seed, 0))
    return state, codes


def robot_orders(ruleset, state: dict, codes: list[str], seed: int, turn: int) -> dict[str, list[Order]]:
    seeds = TurnSeeds(seed, turn)
    return {code: ruleset.robot_orders(state, code, seeds.rng(f"robot:{code}")) for code in codes}


def play(ruleset, state: dict, codes: list[str], turns: int, seed: int = SEED, each=None) -> dict:
    """Robot turns until the game is over or `turns` have run; `each(state, turn)` sees every state."""
    for turn in range(1, turns + 1):
        if each:
            each(state, turn)
        if ruleset.is_over(state):
            break
        orders = robot_orders(ruleset, state, codes, seed, turn)
        for code, listed in orders.items():
            problems = ruleset.check_orders(state, code, listed)
            assert problems == [], f"turn {turn}: the robot's orders for {code} fail the check: {problems}"
            warnings = ruleset.order_warnings(state, code, listed)
            assert all(isinstance(w, Problem) for w in warnings), "order_warnings gives Problems"
        state = ruleset.resolve(state, orders, TurnSeeds(seed, turn)).state
    return state


def starts() -> list[tuple[str, str, dict, str]]:
    """(ruleset, scenario, options, 'fewest'/'most') for every scenario and option variant."""
    found = []
    for name in NAMES:
        ruleset = installed()[name]
        for scenario in ruleset.scenario_names():
            for chosen in variants(ruleset):
                found += [(name, scenario, chosen, size) for size in ("fewest", "most")]
    return found


def games_to_the_end() -> list[tuple[str, dict]]:
    return [(name, chosen) for name in NAMES for chosen in variants(installed()[name])]


def label(value) -> str:
    return "-".join(f"{k}={v}" for k, v in value.items()) or "defaults" if isinstance(value, dict) else str(value)


# ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_the_object_has_the_contract_and_its_data(name):
    ruleset = installed()[name]
    assert isinstance(ruleset, Ruleset)
    assert ruleset.name == name and ruleset.version and ruleset.title
    assert ruleset.default_scenario() in ruleset.scenario_names()
    assert case_files(ruleset), f"{name} ships no conformance cases (cases_package)"
    assert ruleset.templates_package, f"{name} names no templates_package"
    for option in ruleset.game_options():
        assert option.help and (not option.choices or option.default in option.choices)


@pytest.mark.parametrize("name, scenario, chosen, size", starts(), ids=lambda v: label(v))
def test_a_new_game_from_every_scenario_and_option(name, scenario, chosen, size):
    ruleset = installed()[name]
    loaded = scenario_of(ruleset, scenario, chosen)
    low, high = ruleset.seat_limits(loaded)
    assert 1 <= low <= high <= len(ruleset.seat_codes(loaded))
    state, codes = new_game(ruleset, loaded, low if size == "fewest" else high)
    assert json.loads(canonical_json(state)) == state, "the state must be plain JSON"
    assert isinstance(ruleset.turn_label(state), str) and ruleset.is_over(state) is None
    for code in codes:
        check_view(ruleset, state, code, codes)


def check_view(ruleset, state: dict, seat: str, codes: list[str]) -> None:
    view = ruleset.view(state, seat)
    assert json.loads(json.dumps(view)) == view, "a view must be plain JSON"
    assert view["ruleset"] == ruleset.name and view["seat"] == seat and view["title"]
    listed = {row["code"] for row in view["seats"]}
    assert set(codes) <= listed, "every seat of the game is in the view's seats"
    assert all({"code", "name", "colour"} <= set(row) for row in view["seats"])
    check_known(view, seat)


def check_known(view: dict, seat: str) -> None:
    """view["known"] (gm.core.known.listing) lists what the seat sees of the others, as Eressea
    reports do: never the seat's own unless it is the whole board (everyone), each holder a seat of the view or a label the listing
    gives, one fact per column; on a graph map, each place held by whom the map says."""
    known = view.get("known")
    assert known is not None, "a view lists everything the seat sees under view['known']"
    assert known["title"] and known["place"] and len(known["widths"]) == len(known["columns"]) + 1
    seats = {row["code"] for row in view["seats"]}
    territories = {t["code"]: t for t in (view.get("map") or {}).get("territories", [])}
    count = 0
    for group in known["groups"]:
        if not known["everyone"]:
            assert group["holder"] != seat, "the listing is of the others: never the seat's own places"
        assert group["holder"] in seats or group["label"], f"holder {group['holder']!r} is named nowhere"
        for place in group["places"]:
            count += 1
            assert place["code"] and place["place"].startswith(place["code"])
            assert len(place["cells"]) == len(known["columns"]) and all(isinstance(c, str) for c in place["cells"])
            if place["code"] in territories:
                owner = territories[place["code"]]["owner"] or ""
                assert owner == group["holder"] or group["holder"] == "", (
                    f"{place['code']}: the listing says {group['holder']}, the map {owner}"
                )
    assert count == known["count"]
    header = sum(known["widths"][:-1]) + 2 * len(known["columns"]) + len(known["columns"][-1]["label"])
    assert header <= KNOWN_WIDTH, f"the listing's heading line, {header} characters, wraps in the report"


@pytest.mark.slow
@pytest.mark.parametrize("name, chosen", games_to_the_end(), ids=lambda v: label(v))
def test_a_robot_game_ends_and_every_turn_is_fit_to_send(name, chosen):
    """From the default scenario with the fewest seats: each turn's views, hidden data and order
    forms hold, and the game ends within TURN_CAP turns with winners among its seats."""
    ruleset = installed()[name]
    scenario = scenario_of(ruleset, ruleset.default_scenario(), chosen)
    state, codes = new_game(ruleset, scenario, ruleset.seat_limits(scenario)[0])
    hidden = HiddenCheck(ruleset)

    def each(state, turn):
        for code in codes:
            check_view(ruleset, state, code, codes)
            check_order_form(ruleset, state, code, turn)
        hidden.check(state, codes, turn)

    final = play(ruleset, state, codes, TURN_CAP, each=each)
    outcome = ruleset.is_over(final)
    assert outcome is not None, f"a robot game of {name} did not end within {TURN_CAP} turns"
    assert outcome.winners and set(outcome.winners) <= set(ruleset.seat_codes(scenario))
    hidden.assert_meaningful()


def check_order_form(ruleset, state: dict, seat: str, turn: int) -> None:
    lines = ruleset.order_form(state, seat)
    assert all(isinstance(line, str) and "\n" not in line for line in lines)
    long = [line for line in lines if len(line) > FORM_WIDTH]
    assert long == [], f"order form lines over {FORM_WIDTH} characters wrap in the report"
    envelope = read_envelope(wrap_envelope("contract", seat, turn, lines, "secret"))
    assert list(envelope.problems) == [] and envelope.player == seat.upper()
    orders, problems = ruleset.parse_orders(list(envelope.lines))
    assert problems == [], f"the prefilled form of {seat} does not parse: {problems}"
    assert ruleset.check_orders(state, seat, orders) == []


class HiddenCheck:
    """What only one seat may know (its hand, its private treasury) never reaches another seat's
    view. A ruleset with hidden data says what it is by `hidden_variant(state, seat, rng)`: the
    state with only that seat's secrets changed (None, the default: nothing is hidden)."""

    def __init__(self, ruleset):
        self.ruleset = ruleset
        self.hides = False
        self.changed = 0

    def check(self, state: dict, codes: list[str], turn: int) -> None:
        for owner in codes:
            other = self.ruleset.hidden_variant(state, owner, Random(turn))
            if other is None:
                continue
            self.hides = True
            self.changed += other != state
            for seat in (c for c in codes if c != owner):
                assert self.ruleset.view(other, seat) == self.ruleset.view(state, seat), (
                    f"turn {turn}: what only {owner} may know shows in {seat}'s view"
                )

    def assert_meaningful(self) -> None:
        assert not self.hides or self.changed, "hidden_variant never changed anything"


@pytest.mark.parametrize("name", NAMES)
def test_the_most_seats_play_a_few_turns(name):
    ruleset = installed()[name]
    scenario = scenario_of(ruleset, ruleset.default_scenario(), {})
    state, codes = new_game(ruleset, scenario, ruleset.seat_limits(scenario)[1])
    final = play(ruleset, state, codes, FEW_TURNS)
    assert state_hash(final) != state_hash(state)


@pytest.mark.parametrize("name", NAMES)
def test_resolve_is_deterministic_and_leaves_its_input_alone(name):
    ruleset = installed()[name]
    scenario = scenario_of(ruleset, ruleset.default_scenario(), {})
    state, codes = new_game(ruleset, scenario, ruleset.seat_limits(scenario)[1])
    for turn in range(1, FEW_TURNS + 1):
        orders = robot_orders(ruleset, state, codes, SEED, turn)
        kept, before = copy.deepcopy(state), canonical_json(state)
        first = ruleset.resolve(state, orders, TurnSeeds(SEED, turn))
        assert canonical_json(state) == before and state == kept, "resolve changed its input"
        second = ruleset.resolve(kept, copy.deepcopy(orders), TurnSeeds(SEED, turn))
        assert state_hash(first.state) == state_hash(second.state)
        assert [e.to_json() for e in first.events] == [e.to_json() for e in second.events]
        assert all(isinstance(e, Event) and json.loads(json.dumps(e.to_json())) == e.to_json() for e in first.events)
        state = first.state


@pytest.mark.parametrize("name", NAMES)
def test_a_different_seed_gives_a_different_game(name):
    ruleset = installed()[name]
    scenario = scenario_of(ruleset, ruleset.default_scenario(), {})
    count = ruleset.seat_limits(scenario)[1]
    games = [
        play(
            ruleset,
            new_game(ruleset, scenario, count, seed)[0],
            new_game(ruleset, scenario, count, seed)[1],
            FEW_TURNS,
            seed,
        )
        for seed in (1, 2)
    ]
    assert state_hash(games[0]) != state_hash(games[1])


@pytest.mark.parametrize("name", NAMES)
def test_the_parser_never_raises_and_numbers_its_problems(name):
    ruleset = installed()[name]
    lines = [(1, ""), (2, "FLY TO THE MOON"), (3, "\x00\x01"), (4, "MOVE"), (5, "9" * 400), (6, "é ü ß 中")]
    orders, problems = ruleset.parse_orders(lines)
    assert all(isinstance(o, Order) for o in orders)
    assert {p.line for p in problems} <= {n for n, _ in lines} and 2 in {p.line for p in problems}
    assert all(isinstance(p.message, str) and p.message.strip() for p in problems)


@pytest.mark.parametrize("name", NAMES)
def test_no_report_holds_a_secret(name, tmp_path):
    """Through gm itself: seat players, run two turns, and look in every seat's report context
    (the PDF's facts and the JSON twin) for any seat's secret."""
    home = Home(tmp_path)
    create_home(home)
    db = open_database(home.database)
    games.create_game(db, CLOCK, "g", name, None, SEED)
    game = records.game_by_name(db, "g")
    ruleset, scenario = games.game_ruleset(game)
    secrets = [
        games.join_game(db, CLOCK, "g", f"p{i}@example.org", f"Player {i}")[1]
        for i in range(ruleset.seat_limits(scenario)[0])
    ]
    for _ in range(2):
        turns.run_turn(db, home, CLOCK, "g")
    seats = records.seats_of(db, game.id)
    stored = records.turns_of(db, game.id, 0)
    for before, turn in zip(stored, stored[1:]):
        for seat in seats:
            text = json.dumps(report_context(game, ruleset, turn, seat, seats, None, before.state))
            assert not any(secret in text for secret in secrets)
    db.conn.close()


def cases() -> list[tuple[str, str]]:
    return [(name, f.name) for name in NAMES for f in case_files(installed()[name])]


@pytest.mark.parametrize("name, case", cases(), ids=lambda v: v.removesuffix(".toml"))
def test_every_packaged_case_passes(name, case):
    ruleset = installed()[name]
    [found] = [f for f in case_files(ruleset) if f.name == case]
    assert run_case(load_case_text(found.read_text(encoding="utf-8"), case), ruleset) == []


@pytest.mark.parametrize("name", NAMES)
def test_a_failed_order_is_told_to_its_own_seat_alone(name):
    """Rule D-ALL-5: an order that fails is reported to its own seat with the reason; the others
    see nothing of it (the reason may name what a hand, a treasury or a plan lacks). Each seat
    is given its neighbour's robot orders, most of which cannot run for it."""
    ruleset = installed()[name]
    scenario = scenario_of(ruleset, ruleset.default_scenario(), {})
    state, codes = new_game(ruleset, scenario, ruleset.seat_limits(scenario)[1])
    failed = []
    for turn in range(1, 9):
        if ruleset.is_over(state):
            break
        orders = robot_orders(ruleset, state, codes, SEED, turn)
        if turn > 2:
            swapped = {code: orders[codes[(i + 1) % len(codes)]] for i, code in enumerate(codes)}
            events = ruleset.resolve(state, swapped, TurnSeeds(SEED, turn)).events
            failed += [e for e in events if e.kind == "order_failed"]
        state = ruleset.resolve(state, orders, TurnSeeds(SEED, turn)).state
    assert failed, f"{name}: no swapped order failed, so this test proves nothing"
    public = [e.data["text"] for e in failed if e.seats is None or len(e.seats) != 1]
    assert public == [], f"{name}: failed orders that others read: {public[:3]}"
