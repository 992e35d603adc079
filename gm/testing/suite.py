"""The contract suite: every check gm makes of a ruleset, as values a plug-in's author can run.

`checks(ruleset)` lists them, one Check for each thing the contract asks
(docs/writing-a-ruleset.md): the object has every member and its data; a new game from every
scenario, with the fewest and the most seats and each choice of every option with choices; robot
games that end and whose every turn is fit to send (views, hidden data, order forms); resolve
deterministic and pure; the parser never raises; every order is
written back (order_line) as a line that reads as itself; no report holds a secret and every report
renders; every packaged case passes; the package imports nothing impure; and a few games of the
invariant battery. `gm rules test --contract NAME` runs them on an installed ruleset,
tests/games/test_contract.py on every installed one, and a plug-in's own tests through the
pytest plug-in (gm.testing.pytest_plugin) or by parametrising over checks() themselves.

A check raises Breach (an AssertionError) saying what broke; Check.failures() gives it as lines,
an exception of the ruleset included, so that a run goes on to the next check.
"""

from __future__ import annotations

import copy
import json
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from random import Random

from sqlite_utils import Database

from gm.clock import FixedClock
from gm.core.cases import load_case_text, run_case
from gm.core.envelope import read_envelope, wrap_envelope
from gm.core.forms import FORM_WIDTH, copy_pieces
from gm.core.model import Event, JSONObject, Order, Problem, SeatInfo
from gm.core.ruleset import Ruleset, TurnSeeds, choose_options, with_options
from gm.core.statehash import canonical_json, state_hash
from gm.home import Home, create_home
from gm.render.environment import make_environment, render_report_html
from gm.rulesets import case_files, cause_of, template_dirs
from gm.services import games, turns
from gm.services.reports import report_context
from gm.store import records
from gm.store.database import open_database
from gm.testing import purity, round_trip
from gm.testing.battery import run_battery

TURN_CAP = 500  # a robot-only game from the default scenario must end within this many turns
FEW_TURNS = 3  # turns played with the most seats
KNOWN_WIDTH = 96  # characters of the listing's 8-point lines that fit the width of an A4 report
BATTERY_GAMES = 3  # robot games of the battery in the suite (bench/bench_invariants.py plays more)
ROUND_TRIP_TURNS = 12  # turns of robot orders written back: set-up, the first rounds and a few more
SEED = 20261124
CLOCK = FixedClock(datetime(2026, 11, 24, 12, 0, tzinfo=UTC))
Chosen = dict[str, str | int | bool]


class Breach(AssertionError):
    """A check of the contract that does not hold: the message says what broke."""


def expect(condition: object, message: str) -> None:
    """Raise Breach(message) unless condition holds (an assert that -O does not remove)."""
    if not condition:
        raise Breach(message)


@dataclass(frozen=True)
class Check:
    """One check of the contract on one ruleset.

    ruleset: the ruleset's name. name: what is checked, as a line of a report.
    run: does it, raising Breach (or the ruleset's own exception) when it does not hold.
    slow: plays whole games (tests/games/test_contract.py marks it slow).
    near: the ruleset's package folder: an exception is told by its innermost line there.
    """

    ruleset: str
    name: str
    run: Callable[[], None]
    slow: bool = False
    near: Path | None = None

    def failures(self) -> list[str]:
        """[] when it holds, else what broke, one line each (an exception as its cause and line)."""
        try:
            self.run()
        except Breach as breach:
            return str(breach).splitlines() or ["the check failed"]
        except Exception as exc:  # the ruleset's bug is this check's failure, not the run's end
            return [f"raised {cause_of(exc, self.near)}"]
        return []

    def assert_holds(self) -> None:
        """For a test: raise what failures() reports, as one AssertionError."""
        failures = self.failures()
        if failures:
            raise Breach(f"{self}: " + "\n".join(failures))

    def __str__(self) -> str:
        return f"{self.ruleset}: {self.name}"


@dataclass(frozen=True)
class Result:
    """A check run: its failures ([] when it holds) and the wall seconds it took."""

    check: Check
    failures: tuple[str, ...]
    seconds: float


def checks(ruleset: Ruleset, battery_games: int = BATTERY_GAMES) -> list[Check]:
    """Every check of the contract on `ruleset`, in the order a report lists them."""
    name, near = ruleset.name, purity.package_folder(purity.ruleset_package(ruleset))

    def check(what: str, run: Callable[[], None], slow: bool = False) -> Check:
        return Check(name, what, run, slow, near)

    found = [check("the object has the contract and its data", lambda: has_the_contract(ruleset))]
    for scenario in ruleset.scenario_names():
        for chosen in variants(ruleset):
            for size in ("fewest", "most"):
                found.append(
                    check(
                        f"a new game: {scenario}, {label(chosen)}, the {size} seats",
                        partial(new_game_holds, ruleset, scenario, chosen, size),
                    )
                )
    found += [
        check(f"a robot game ends, every turn fit to send: {label(c)}", partial(robot_game_ends, ruleset, c), True)
        for c in variants(ruleset)
    ]
    found += [
        check("the most seats play a few turns", lambda: most_seats_play(ruleset)),
        check("resolve is deterministic and leaves its input alone", lambda: resolve_is_pure(ruleset)),
        check("a different seed gives a different game", lambda: seeds_differ(ruleset)),
        check("the parser never raises and numbers its problems", lambda: parser_never_raises(ruleset)),
        check("every robot and case order is written back as itself", lambda: orders_read_back(ruleset)),
        check("a failed order is told to its own seat alone", lambda: _failed_orders(ruleset)),
        check("every report renders and holds no secret", lambda: reports_hold_no_secret(ruleset)),
        check("the package imports nothing impure", lambda: package_is_pure(ruleset)),
    ]
    found += [check(f"case {file.name}", partial(case_passes, ruleset, file.name)) for file in case_files(ruleset)]
    if battery_games:
        found.append(
            check(
                f"the battery: {battery_games} robot games keep every invariant",
                lambda: battery(ruleset, battery_games),
            )
        )
    return found


def run(checked: list[Check], each: Callable[[Result], None] | None = None) -> list[Result]:
    """Run every check; `each` sees each result as it comes (the CLI prints it)."""
    results = []
    for one in checked:
        began = time.perf_counter()
        result = Result(one, tuple(one.failures()), time.perf_counter() - began)
        if each is not None:
            each(result)
        results.append(result)
    return results


# ----------------------------------------------------------------------------------------------
# Games as the checks play them.


def variants(ruleset: Ruleset) -> list[Chosen]:
    """The GM's choices to try: none, then each other choice of every option that has choices."""
    chosen: list[Chosen] = [{}]
    for option in ruleset.game_options():
        chosen += [{option.name: choice} for choice in option.choices if choice != option.default]
    return chosen


def label(chosen: Chosen) -> str:
    return " ".join(f"{k}={v}" for k, v in chosen.items()) or "defaults"


def scenario_of(ruleset: Ruleset, name: str, chosen: Chosen) -> JSONObject:
    scenario = ruleset.load_scenario(ruleset.scenario_text(name), name)
    return with_options(scenario, choose_options(ruleset.game_options(), chosen))


def new_game(ruleset: Ruleset, scenario: JSONObject, count: int, seed: int = SEED) -> tuple[JSONObject, list[str]]:
    """A new game of the first `count` seats of the scenario, and their codes."""
    codes = ruleset.seat_codes(scenario)[:count]
    state = ruleset.new_game(scenario, [SeatInfo(c, f"Player {c}") for c in codes], TurnSeeds(seed, 0))
    return state, codes


def robot_orders(ruleset: Ruleset, state: JSONObject, codes: list[str], seed: int, turn: int) -> dict[str, list[Order]]:
    seeds = TurnSeeds(seed, turn)
    return {code: ruleset.robot_orders(state, code, seeds.rng(f"robot:{code}")) for code in codes}


def play(
    ruleset: Ruleset,
    state: JSONObject,
    codes: list[str],
    count: int,
    seed: int = SEED,
    each: Callable[[JSONObject, int], None] | None = None,
) -> JSONObject:
    """Robot turns until the game is over or `count` have run; `each(state, turn)` sees every state."""
    for turn in range(1, count + 1):
        if each is not None:
            each(state, turn)
        if ruleset.is_over(state):
            break
        orders = robot_orders(ruleset, state, codes, seed, turn)
        for code, listed in orders.items():
            problems = ruleset.check_orders(state, code, listed)
            expect(problems == [], f"turn {turn}: the robot's orders for {code} fail the check: {problems}")
            warnings = ruleset.order_warnings(state, code, listed)
            expect(all(isinstance(w, Problem) for w in warnings), "order_warnings gives Problems")
            check_by_view_holds(ruleset, state, code, listed, turn, mutate=turn <= 6 and code in codes[:2])
        result = ruleset.resolve(state, orders, TurnSeeds(seed, turn))
        check_events(result.events, turn)
        state = result.state
    return state


# Words put in place of an order's words to make it wrong in ways a view may settle: no place,
# a block off any world, a number past any board, an id no piece has.
ODD_WORDS = ("QQQ", "99,99", "999", "G999999")


def check_by_view_holds(
    ruleset: Ruleset, state: JSONObject, seat: str, listed: list[Order], turn: int, mutate: bool
) -> None:
    """The player's own check (check_by_view) passes the robot's valid orders; with `mutate`,
    for each of a few orders with one word made wrong, it gives no problem the GM's
    check_orders would not give, in the same words. Its warnings (warnings_by_view) of the robot's
    orders are order_warnings' too."""
    view = ruleset.view(state, seat)
    offline = ruleset.check_by_view(view, seat, listed)
    expect(offline == [], f"turn {turn}: check_by_view refutes the robot's valid orders for {seat}: {offline}")
    warned = {p.message for p in ruleset.warnings_by_view(view, seat, listed)}
    house = {p.message for p in ruleset.order_warnings(state, seat, listed)}
    expect(
        warned <= house,
        f"turn {turn}: warnings_by_view warns of what order_warnings does not: {sorted(warned - house)}",
    )
    for order in listed[:4] if mutate else []:
        words = order.text.split()
        for at in range(1, len(words)):
            for odd in ODD_WORDS:
                parsed, _ = ruleset.parse_orders([(1, " ".join(words[:at] + [odd] + words[at + 1 :]))])
                gm = {p.message for p in ruleset.check_orders(state, seat, parsed)}
                said = {p.message for p in ruleset.check_by_view(view, seat, parsed)}
                expect(said <= gm, f"turn {turn}: check_by_view says what check_orders does not: {sorted(said - gm)}")


# The data the shared report page draws beside an event's text, by kind (templates/report.html):
# an event without it stops every report that shows it from rendering.
DRAWN = {
    "battle": (
        "attacker",
        "defender",
        "from",
        "to",
        "attacking",
        "defending",
        "attacker_losses",
        "defender_losses",
        "captured",
    ),
    "roll": ("die",),
}


def check_events(events: tuple[Event, ...], turn: int) -> None:
    """Each event has its text, and the data the shared page draws for its kind."""
    for event in events:
        expect(isinstance(event.data.get("text"), str), f"turn {turn}: a {event.kind} event has no text")
        missing = [key for key in DRAWN.get(event.kind, ()) if key not in event.data]
        expect(missing == [], f"turn {turn}: a {event.kind} event lacks {', '.join(missing)}, which the report draws")


# ----------------------------------------------------------------------------------------------
# The checks.


def has_the_contract(ruleset: Ruleset) -> None:
    expect(isinstance(ruleset, Ruleset), "the object lacks a member of gm.core.ruleset.Ruleset")
    expect(ruleset.version and ruleset.title, "a ruleset has a version and a title")
    expect(ruleset.default_scenario() in ruleset.scenario_names(), "the default scenario is one of its scenarios")
    expect(case_files(ruleset), f"{ruleset.name} ships no conformance cases (cases_package)")
    expect(ruleset.templates_package, f"{ruleset.name} names no templates_package")
    for option in ruleset.game_options():
        expect(option.help, f"option {option.name} has no help")
        expect(not option.choices or option.default in option.choices, f"option {option.name}'s default is no choice")


def new_game_holds(ruleset: Ruleset, scenario: str, chosen: Chosen, size: str) -> None:
    loaded = scenario_of(ruleset, scenario, chosen)
    low, high = ruleset.seat_limits(loaded)
    expect(1 <= low <= high <= len(ruleset.seat_codes(loaded)), f"seat_limits {low}, {high} do not fit its seats")
    state, codes = new_game(ruleset, loaded, low if size == "fewest" else high)
    expect(json.loads(canonical_json(state)) == state, "the state must be plain JSON")
    expect(isinstance(ruleset.turn_label(state), str), "turn_label gives text")
    expect(ruleset.is_over(state) is None, "a new game is not over")
    for code in codes:
        check_view(ruleset, state, code, codes)


def check_view(ruleset: Ruleset, state: JSONObject, seat: str, codes: list[str]) -> None:
    view = ruleset.view(state, seat)
    expect(json.loads(json.dumps(view)) == view, "a view must be plain JSON")
    expect(view.get("ruleset") == ruleset.name, f"{seat}'s view names ruleset {view.get('ruleset')!r}")
    expect(view.get("seat") == seat and view.get("title"), f"{seat}'s view names its seat and a title")
    rows = view.get("seats") or []
    expect(set(codes) <= {row.get("code") for row in rows}, "every seat of the game is in the view's seats")
    expect(all({"code", "name", "colour"} <= set(row) for row in rows), "each of view['seats'] has code, name, colour")
    check_known(view, seat)


def check_known(view: JSONObject, seat: str) -> None:
    """view["known"] (gm.core.known.listing) lists what the seat sees of the others, as Eressea
    reports do: never the seat's own unless it is the whole board (everyone), each holder a seat
    of the view or a label the listing gives, one fact per column; on a graph map, each place
    held by whom the map says."""
    known: JSONObject = view.get("known") or {}
    expect(known, "a view lists everything the seat sees under view['known'] (gm.core.known.listing)")
    expect(known["title"] and known["place"], "the listing has a title and a place heading")
    expect(len(known["widths"]) == len(known["columns"]) + 1, "the listing has a width for each column")
    seats = {row["code"] for row in view["seats"]}
    territories = {t["code"]: t for t in (view.get("map") or {}).get("territories", [])}
    count = 0
    for group in known["groups"]:
        if not known["everyone"]:
            expect(group["holder"] != seat, "the listing is of the others: never the seat's own places")
        expect(group["holder"] in seats or group["label"], f"holder {group['holder']!r} is named nowhere")
        for place in group["places"]:
            count += 1
            expect(
                place["code"] and place["place"].startswith(place["code"]), f"{place}: its place starts with its code"
            )
            cells = place["cells"]
            expect(len(cells) == len(known["columns"]) and all(isinstance(c, str) for c in cells), "one fact a column")
            if place["code"] in territories:
                owner = territories[place["code"]]["owner"] or ""
                expect(
                    owner == group["holder"] or group["holder"] == "",
                    f"{place['code']}: the listing says {group['holder']}, the map {owner}",
                )
    expect(count == known["count"], "the listing's count is its places")
    header = sum(known["widths"][:-1]) + 2 * len(known["columns"]) + len(known["columns"][-1]["label"])
    expect(header <= KNOWN_WIDTH, f"the listing's heading line, {header} characters, wraps in the report")


def robot_game_ends(ruleset: Ruleset, chosen: Chosen) -> None:
    """From the default scenario with the fewest seats: each turn's views, hidden data and order
    forms hold, and the game ends within TURN_CAP turns with winners among its seats."""
    scenario = scenario_of(ruleset, ruleset.default_scenario(), chosen)
    state, codes = new_game(ruleset, scenario, ruleset.seat_limits(scenario)[0])
    hidden = HiddenCheck(ruleset)

    def each(state: JSONObject, turn: int) -> None:
        for code in codes:
            check_view(ruleset, state, code, codes)
            check_order_form(ruleset, state, code, turn)
        hidden.check(state, codes, turn)

    final = play(ruleset, state, codes, TURN_CAP, each=each)
    outcome = ruleset.is_over(final)
    expect(outcome is not None, f"a robot game of {ruleset.name} did not end within {TURN_CAP} turns")
    assert outcome is not None
    expect(outcome.winners, "a finished game has winners")
    expect(set(outcome.winners) <= set(ruleset.seat_codes(scenario)), "the winners are seats of the scenario")
    hidden.expect_meaningful()


def check_order_form(ruleset: Ruleset, state: JSONObject, seat: str, turn: int) -> None:
    lines = ruleset.order_form(state, seat)
    expect(all(isinstance(line, str) and "\n" not in line for line in lines), "the order form is lines of text")
    long = [line for line in lines if len(line) > FORM_WIDTH]
    expect(long == [], f"order form lines over {FORM_WIDTH} characters wrap in the report: {long[:1]}")
    envelope = read_envelope(wrap_envelope("contract", seat, turn, lines, "secret"))
    expect(list(envelope.problems) == [] and envelope.player == seat.upper(), "the form reads in its envelope")
    orders, problems = ruleset.parse_orders(list(envelope.lines))
    expect(problems == [], f"the prefilled form of {seat} does not parse: {problems}")
    expect(ruleset.check_orders(state, seat, orders) == [], f"the prefilled form of {seat} fails the check")
    wrong = [f"{example}: {message}" for example, message in example_problems(ruleset, state, seat, turn, lines)]
    expect(wrong == [], f"turn {turn}: an example in {seat}'s order form fails the GM's check: {wrong[:3]}")


def form_examples(ruleset: Ruleset, lines: list[str]) -> list[str]:
    """The examples an order form offers: the pieces of its comment lines a player may copy
    (gm.core.forms.copy_pieces) that the ruleset's parser reads as one order without a problem.
    A template such as `ROAD <edge>` does not read as an order, so it is no example."""
    found = []
    for piece in copy_pieces(lines):
        orders, problems = ruleset.parse_orders([(1, piece)])
        if len(orders) == 1 and not problems and piece not in found:
            found.append(piece)
    return found


def example_problems(
    ruleset: Ruleset, state: JSONObject, seat: str, turn: int, lines: list[str] | None = None
) -> list[tuple[str, str]]:
    """Each example of the seat's order form (form_examples) copied as the player would, alone
    in a turn file of the seat's for this turn, and read and checked as gm checks a turn file
    (the envelope, parse_orders, check_orders): (example, what the GM's check says) for each
    that does not pass. An example must be true for its reader, now."""
    lines = ruleset.order_form(state, seat) if lines is None else lines
    wrong = []
    for example in form_examples(ruleset, lines):
        envelope = read_envelope(wrap_envelope("contract", seat, turn, [example], "secret"))
        orders, problems = ruleset.parse_orders(list(envelope.lines))
        said = [*envelope.problems, *problems, *ruleset.check_orders(state, seat, orders)]
        wrong += [(example, p.message) for p in said]
    return wrong


def failed_orders_stay_private(ruleset: Ruleset, turns: int = 8) -> int:
    """Rule D-ALL-5: an order that fails is reported to its own seat with the reason; the others
    see nothing of it (the reason may name what a hand, a treasury or a plan lacks). Each seat
    is given its neighbour's robot orders, most of which cannot run for it. Returns how many
    failed, so that a test can see the check had something to look at."""
    scenario = scenario_of(ruleset, ruleset.default_scenario(), {})
    state, codes = new_game(ruleset, scenario, ruleset.seat_limits(scenario)[1])
    failed: list[Event] = []
    for turn in range(1, turns + 1):
        if ruleset.is_over(state):
            break
        orders = robot_orders(ruleset, state, codes, SEED, turn)
        if turn > 2:
            swapped = {code: orders[codes[(i + 1) % len(codes)]] for i, code in enumerate(codes)}
            events = ruleset.resolve(state, swapped, TurnSeeds(SEED, turn)).events
            failed += [e for e in events if e.kind == "order_failed"]
        state = ruleset.resolve(state, orders, TurnSeeds(SEED, turn)).state
    public = [e.data["text"] for e in failed if e.seats is None or len(e.seats) != 1]
    expect(public == [], f"failed orders that other seats read: {public[:3]}")
    return len(failed)


def _failed_orders(ruleset: Ruleset) -> None:
    failed_orders_stay_private(ruleset)


class HiddenCheck:
    """What only one seat may know (its hand, its private treasury) never reaches another seat's
    view or order form, nor the score table and labels every report prints (report_context reads
    those from the whole state, not from the view). A ruleset with hidden data says what it is by
    `hidden_variant(state, seat, rng)`: the state with only that seat's secrets changed (None, the
    default: nothing is hidden)."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self.hides = False
        self.changed = 0

    def check(self, state: JSONObject, codes: list[str], turn: int) -> None:
        for owner in codes:
            other = self.ruleset.hidden_variant(state, owner, Random(turn))
            if other is None:
                continue
            self.hides = True
            self.changed += other != state
            # Every seat's report prints the same scores and labels: the owner's secrets may not
            # move them (Empires' VP, kept but for the leader's, are the case in point: 11.3).
            expect(
                self._printed(other) == self._printed(state),
                f"turn {turn}: what only {owner} may know shows in the scores every report prints",
            )
            for seat in (c for c in codes if c != owner):
                expect(
                    self.ruleset.view(other, seat) == self.ruleset.view(state, seat),
                    f"turn {turn}: what only {owner} may know shows in {seat}'s view",
                )
                # The form's examples are drawn from the state: they must not tell it either.
                expect(
                    self.ruleset.order_form(other, seat) == self.ruleset.order_form(state, seat),
                    f"turn {turn}: what only {owner} may know shows in {seat}'s order form",
                )

    def _printed(self, state: JSONObject) -> tuple[object, ...]:
        ruleset = self.ruleset
        return (ruleset.scores(state), ruleset.score_label(state), ruleset.turn_label(state))

    def expect_meaningful(self) -> None:
        expect(not self.hides or self.changed, "hidden_variant never changed anything")


def most_seats_play(ruleset: Ruleset) -> None:
    scenario = scenario_of(ruleset, ruleset.default_scenario(), {})
    state, codes = new_game(ruleset, scenario, ruleset.seat_limits(scenario)[1])
    final = play(ruleset, state, codes, FEW_TURNS)
    expect(state_hash(final) != state_hash(state), "robot turns changed nothing")


def resolve_is_pure(ruleset: Ruleset) -> None:
    scenario = scenario_of(ruleset, ruleset.default_scenario(), {})
    state, codes = new_game(ruleset, scenario, ruleset.seat_limits(scenario)[1])
    for turn in range(1, FEW_TURNS + 1):
        orders = robot_orders(ruleset, state, codes, SEED, turn)
        kept, before = copy.deepcopy(state), canonical_json(state)
        first = ruleset.resolve(state, orders, TurnSeeds(SEED, turn))
        expect(canonical_json(state) == before and state == kept, f"turn {turn}: resolve changed its input")
        second = ruleset.resolve(kept, copy.deepcopy(orders), TurnSeeds(SEED, turn))
        expect(state_hash(first.state) == state_hash(second.state), f"turn {turn}: the same seed gave another state")
        expect([e.to_json() for e in first.events] == [e.to_json() for e in second.events], "other events")
        expect(
            all(isinstance(e, Event) and json.loads(json.dumps(e.to_json())) == e.to_json() for e in first.events),
            f"turn {turn}: the events are Events of plain JSON",
        )
        state = first.state


def seeds_differ(ruleset: Ruleset) -> None:
    scenario = scenario_of(ruleset, ruleset.default_scenario(), {})
    count = ruleset.seat_limits(scenario)[1]
    hashes = set()
    for seed in (1, 2):
        state, codes = new_game(ruleset, scenario, count, seed)
        hashes.add(state_hash(play(ruleset, state, codes, FEW_TURNS, seed)))
    expect(len(hashes) == 2, "seeds 1 and 2 gave the same game")


def parser_never_raises(ruleset: Ruleset) -> None:
    lines = [(1, ""), (2, "FLY TO THE MOON"), (3, "\x00\x01"), (4, "MOVE"), (5, "9" * 400), (6, "é ü ß 中")]
    orders, problems = ruleset.parse_orders(lines)
    expect(all(isinstance(o, Order) for o in orders), "parse_orders gives Orders")
    expect({p.line for p in problems} <= {n for n, _ in lines}, "each problem names a line of the file")
    expect(2 in {p.line for p in problems}, "'FLY TO THE MOON' is a problem")
    expect(all(isinstance(p.message, str) and p.message.strip() for p in problems), "each problem says something")


def order_lines(ruleset: Ruleset, turns: int = ROUND_TRIP_TURNS) -> list[str]:
    """Order lines as robots and the rule book's cases write them: every robot order of a robot
    game's first turns, then every order of every packaged case."""
    lines: list[str] = []
    state, codes = new_game(ruleset, scenario_of(ruleset, ruleset.default_scenario(), {}), ruleset.demo_seats)

    def write(now: JSONObject, turn: int) -> None:
        for orders in robot_orders(ruleset, now, codes, SEED, turn).values():
            lines.extend(order.text or ruleset.order_line(order) for order in orders)

    play(ruleset, state, codes, turns, each=write)
    for found in case_files(ruleset):
        case = load_case_text(found.read_text(encoding="utf-8"), found.name)
        for written in case.get("orders", {}).values():
            lines.extend(written)
    return lines


def orders_read_back(ruleset: Ruleset) -> None:
    """Each order is written back (order_line) as a line that reads as the same order."""
    failed = round_trip.failures(ruleset, order_lines(ruleset))
    expect(not failed, "\n".join(failed))


def reports_hold_no_secret(ruleset: Ruleset) -> None:
    """Through gm itself: seat players, run two turns, and render every seat's report as HTML
    with the ruleset's templates; neither its context (the PDF's facts and the JSON twin) nor
    the page holds any seat's secret."""
    with tempfile.TemporaryDirectory(prefix="gm-contract-") as folder:
        home = Home(Path(folder))
        create_home(home)
        db = open_database(home.database)
        try:
            _two_turns_rendered(db, home, ruleset.name)
        finally:
            db.conn.close()


def _two_turns_rendered(db: Database, home: Home, name: str) -> None:
    games.create_game(db, CLOCK, "g", name, None, SEED)
    game = records.game_by_name(db, "g")
    guarded, scenario = games.game_ruleset(game)
    secrets = [
        games.join_game(db, CLOCK, "g", f"p{i}@example.org", f"Player {i}")[1]
        for i in range(guarded.seat_limits(scenario)[0])
    ]
    for _ in range(2):
        turns.run_turn(db, home, CLOCK, "g")
    env = make_environment(None, template_dirs(guarded))
    seats = records.seats_of(db, game.id)
    stored = records.turns_of(db, game.id, 0)
    for before, turn in zip(stored, stored[1:]):
        for seat in seats:
            context = report_context(game, guarded, turn, seat, seats, None, before.state)
            html = render_report_html(env, context)
            for text in (json.dumps(context), html):
                expect(not any(s in text for s in secrets), f"turn {turn.number}: {seat.code}'s report holds a secret")


def package_is_pure(ruleset: Ruleset) -> None:
    found = purity.ruleset_offences(ruleset)
    expect(found == [], "\n".join(found))


def case_passes(ruleset: Ruleset, file: str) -> None:
    [found] = [f for f in case_files(ruleset) if f.name == file]
    failures = run_case(load_case_text(found.read_text(encoding="utf-8"), file), ruleset)
    expect(failures == [], "\n".join(failures))


def battery(ruleset: Ruleset, count: int) -> None:
    report = run_battery(ruleset, count, seed=1)
    expect(not report.findings, "\n".join(report.summary(20)))
