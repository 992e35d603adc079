"""The robot-game invariant battery (issue 27): seeded robot games of any ruleset, every turn
checked against its rule book's invariants and the contract's generic ones.

    from gm.testing.battery import run_battery
    report = run_battery(ruleset, games=50, seed=1)
    assert not report.findings, "\\n".join(report.summary())

Each game draws its scenario, game options and seats from its seed (draw_setup), puts the
ruleset's robot in every seat and plays to the end or TURN_CAP turns. After every turn it checks
the ruleset's own invariants (the optional invariants part of a packaged ruleset) and the
generic ones of gm.testing.contract: resolve leaves its input alone (and the views, scores,
robots and invariants the state they read), the state, the events and every seat's view are
plain JSON, no view shows another seat's secret, robot orders pass the check, scores are whole
numbers; then the game ends within the cap, and the same seed played again gives the same state
hash after every turn. What breaks is a Finding (game seed, turn,
line); the battery never stops at the first, and an exception ends only the game it came from.
bench/bench_invariants.py runs it from the command line.
"""

from __future__ import annotations

import hashlib
import time
import traceback
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from random import Random

from gm.core.model import JSONObject, Order, SeatInfo, TurnResult
from gm.core.ruleset import GameOption, Ruleset, TurnSeeds, choose_options, with_options
from gm.core.seeds import rng_for
from gm.core.statehash import canonical_json, state_hash
from gm.testing import contract

# A robot game not over after this many turns is a finding (tests/games/test_contract.py's cap);
# where the book gives its own bound (Clash: 30 rounds), the ruleset's invariants hold it.
TURN_CAP = 500


@dataclass(frozen=True)
class Setup:
    """One robot game as drawn from its seed.

    seed: the game seed (TurnSeeds' game_seed): the same seed gives the same game.
    scenario: the packaged scenario's name.
    options: the game options drawn (choices and yes/no options; the rest stay at their defaults).
    seats: the seat codes seated, in the scenario's order; a robot plays each.
    """

    seed: int
    scenario: str
    options: dict[str, str | int | bool]
    seats: tuple[str, ...]

    def label(self) -> str:
        chosen = " ".join(f"{k}={v}" for k, v in sorted(self.options.items()))
        return f"{self.scenario} {','.join(self.seats)}" + (f" {chosen}" if chosen else "")


@dataclass(frozen=True)
class Finding:
    """One invariant broken.

    seed: the game's seed (play_game(ruleset, seed) plays it again).
    turn: the turn after which it was seen (0: the new game).
    line: the invariant's name, ": ", what broke.
    """

    seed: int
    turn: int
    line: str

    @property
    def invariant(self) -> str:
        return self.line.split(": ", 1)[0]

    def __str__(self) -> str:
        return f"game {self.seed}, turn {self.turn}: {self.line}"


@dataclass(frozen=True)
class GameRecord:
    """One robot game played and checked.

    setup: what was drawn (None when even that failed: the finding says why).
    turns: turns resolved.
    over: whether the ruleset says the game is over at the end.
    findings: every invariant the game broke, in order.
    verbs: how many orders of each verb the robots gave.
    cpu: CPU seconds of the process for the game, its replay included.
    """

    setup: Setup | None
    turns: int
    over: bool
    findings: tuple[Finding, ...]
    verbs: dict[str, int] = field(default_factory=dict)
    cpu: float = 0.0


@dataclass(frozen=True)
class BatteryReport:
    """The games of one ruleset's battery run."""

    ruleset: str
    games: tuple[GameRecord, ...]

    @property
    def findings(self) -> tuple[Finding, ...]:
        return tuple(f for game in self.games for f in game.findings)

    @property
    def turns(self) -> int:
        return sum(game.turns for game in self.games)

    @property
    def cpu(self) -> float:
        return sum(game.cpu for game in self.games)

    def by_invariant(self) -> Counter[str]:
        return Counter(f.invariant for f in self.findings)

    def verbs(self) -> Counter[str]:
        total: Counter[str] = Counter()
        for game in self.games:
            total.update(game.verbs)
        return total

    def summary(self, shown: int = 10) -> list[str]:
        """A few lines for a person: the totals, the findings by invariant, the first findings."""
        over = sum(game.over for game in self.games)
        lines = [
            f"{self.ruleset}: {len(self.games)} games ({over} over), {self.turns} turns, "
            f"{len(self.findings)} findings, CPU {self.cpu:.1f} s"
        ]
        lines += [f"  {count:6} {name}" for name, count in sorted(self.by_invariant().items())]
        lines += [f"  {finding}" for finding in self.findings[:shown]]
        return lines


def draw_setup(ruleset: Ruleset, seed: int) -> tuple[Setup, JSONObject]:
    """The game the seed gives: a scenario, every option with choices (and each yes/no option)
    drawn, the rest at their defaults, and between the fewest and the most seats, any of them."""
    rng = rng_for(seed, 0, "battery:setup")
    name = rng.choice(ruleset.scenario_names())
    offered = ruleset.game_options()
    chosen: dict[str, str | int | bool] = {option.name: _draw(option, rng) for option in offered if _drawn(option)}
    scenario = with_options(ruleset.load_scenario(ruleset.scenario_text(name), name), choose_options(offered, chosen))
    low, high = ruleset.seat_limits(scenario)
    codes = ruleset.seat_codes(scenario)
    picked = set(rng.sample(codes, rng.randint(low, high)))
    return Setup(seed, name, chosen, tuple(c for c in codes if c in picked)), scenario


def _drawn(option: GameOption) -> bool:
    # A whole number or free text has no values the battery could know are sensible.
    return bool(option.choices) or isinstance(option.default, bool)


def _draw(option: GameOption, rng: Random) -> str | bool:
    return rng.choice(option.choices) if option.choices else rng.choice((False, True))


def book_invariants(
    ruleset: Ruleset, before: JSONObject, orders: dict[str, list[Order]], result: TurnResult
) -> list[str]:
    """The rule book's invariants of the ruleset (a packaged ruleset's Parts.invariants; none
    by default, gm.core.ruleset.BaseRuleset)."""
    return ruleset.invariants(before, orders, result)


def robot_turn(ruleset: Ruleset, state: JSONObject, seats: tuple[str, ...], seeds: TurnSeeds) -> dict[str, list[Order]]:
    """Every seat's robot orders, drawn as gm draws them (purpose robot:<code>)."""
    return {code: ruleset.robot_orders(state, code, seeds.rng(f"robot:{code}")) for code in seats}


def stored(orders: dict[str, list[Order]]) -> dict[str, list[Order]]:
    """The orders as resolve gets them in gm: read back from the JSON they are stored as."""
    return {
        code: [Order.from_json(contract.json_read_back(o.to_json())) for o in given] for code, given in orders.items()
    }


class _Game:
    """One robot game being played and checked: what it found so far."""

    def __init__(self, ruleset: Ruleset, setup: Setup, scenario: JSONObject, cap: int) -> None:
        self.ruleset, self.setup, self.scenario, self.cap = ruleset, setup, scenario, cap
        # The contract's optional member (None from it: the state keeps nothing from any seat).
        self.variant: contract.Variant = ruleset.hidden_variant
        self.findings: list[Finding] = []
        self.verbs: Counter[str] = Counter()
        self.hashes: list[str] = []
        self.turn = 0
        self.text = ""  # the canonical JSON of the state the next turn starts from

    def note(self, lines: list[str]) -> None:
        self.findings += [Finding(self.setup.seed, self.turn, line) for line in lines]

    def new_game(self) -> JSONObject:
        seats = [SeatInfo(code, f"Player {code}") for code in self.setup.seats]
        return self.ruleset.new_game(self.scenario, seats, TurnSeeds(self.setup.seed, 0))

    def play(self) -> bool:
        """Plays to the end or the cap; whether the game is over."""
        state = self.new_game()
        self.check(state)
        while self.ruleset.is_over(state) is None:
            if self.turn == self.cap:
                self.note([f"{contract.ENDS}: not over after {self.cap} turns"])
                return False
            self.turn += 1
            state = self.resolve(state)
        return True

    def resolve(self, state: JSONObject) -> JSONObject:
        seeds = TurnSeeds(self.setup.seed, self.turn)
        given = robot_turn(self.ruleset, state, self.setup.seats, seeds)
        for code, listed in given.items():
            self.note(contract.order_problems(self.ruleset, state, code, listed))
            self.verbs.update(order.verb for order in listed)
        orders = stored(given)
        before = contract.inputs_snapshot(state, orders)
        if self.text and before[0] != self.text:
            self.note([f"{contract.READERS}: the state changed between its checks and resolve"])
        result = self.ruleset.resolve(state, orders, seeds)
        self.note(contract.purity_problems(before, state, orders))
        self.note(contract.event_problems(result.events))
        self.check(result.state)
        # After the state's text and hash are taken: an invariant that changed it shows next turn.
        self.note(book_invariants(self.ruleset, state, orders, result))
        return result.state

    def check(self, state: JSONObject) -> None:
        """What every state must be, seen by every seat."""
        try:
            self.text = canonical_json(state)
        except (TypeError, ValueError) as exc:
            self.text = ""
            self.note([f"{contract.STATE}: {exc}"])
        else:
            self.note(contract.state_problems(state, self.text))
        # state_hash(state), from the text already made; "" for a state that cannot be stored.
        self.hashes.append(hashlib.sha256(self.text.encode("utf-8")).hexdigest() if self.text else "")
        seats = list(self.setup.seats)
        views, found = contract.view_problems(self.ruleset, state, seats)
        self.note(found)
        self.note(contract.hidden_problems(self.ruleset, self.variant, state, views, (self.setup.seed, self.turn)))
        self.note(contract.score_problems(self.ruleset, state, seats))
        self.note(contract.outcome_problems(self.ruleset, state, self.ruleset.seat_codes(self.scenario)))

    def replay(self) -> None:
        """The same seed again, unchecked: the state hash after every turn must be the same."""
        state = self.new_game()
        for turn, expected in enumerate(self.hashes):
            if turn:
                seeds = TurnSeeds(self.setup.seed, turn)
                orders = stored(robot_turn(self.ruleset, state, self.setup.seats, seeds))
                state = self.ruleset.resolve(state, orders, seeds).state
            if expected and state_hash(state) != expected:
                self.turn = turn
                self.note([f"{contract.REPLAY}: the state after turn {turn} has another hash when played again"])
                return


def play_game(ruleset: Ruleset, seed: int, cap: int = TURN_CAP) -> GameRecord:
    """One seeded robot game, played, checked and replayed."""
    began = time.process_time()
    try:
        setup, scenario = draw_setup(ruleset, seed)
    except Exception as exc:  # a ruleset's bug is a finding, never the end of the battery
        return GameRecord(None, 0, False, (Finding(seed, 0, _raised("setting up a game", exc)),))
    game = _Game(ruleset, setup, scenario, cap)
    over = False
    try:
        over = game.play()
        game.replay()
    except Exception as exc:
        game.note([_raised(f"turn {game.turn}", exc)])
    return GameRecord(setup, game.turn, over, tuple(game.findings), dict(game.verbs), time.process_time() - began)


def _raised(when: str, exc: Exception) -> str:
    frame = traceback.extract_tb(exc.__traceback__)[-1]
    where = f"{Path(frame.filename).name}:{frame.lineno}"
    return f"{contract.RAISES}: {when}: {type(exc).__name__}: {exc} ({where})"


def run_battery(ruleset: Ruleset, games: int, seed: int = 1, cap: int = TURN_CAP, jobs: int = 1) -> BatteryReport:
    """Games seed, seed + 1, ... of the ruleset, over `jobs` processes (1: in this one, where a
    test's monkeypatch holds)."""
    seeds = range(seed, seed + games)
    if jobs <= 1:
        played = [play_game(ruleset, s, cap) for s in seeds]
    else:
        with ProcessPoolExecutor(jobs) as pool:
            played = list(pool.map(partial(play_game, ruleset, cap=cap), seeds))
    return BatteryReport(ruleset.name, tuple(played))
