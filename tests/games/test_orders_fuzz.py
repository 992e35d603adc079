"""No order stops the week: hostile but plausible turn files, made from a robot game's own orders,
through check_orders and through the turn itself, for every ruleset. "A traceback for a user's
mistake is a bug"; "one player ... able to stop the week" is a trust bug; "a turn re-run gives a
byte-identical result".

Every seat's file is a robot's orders (its own, another seat's, last turn's) or lines the
ruleset's own order grammar offers, then mutated: arguments swapped between orders, an order
repeated 500 times, codes that never existed or name the seat itself, numbers negative or past
any int, empty and very long words, lower case, tabs, lookalike letters, another ruleset's
orders. Checking never raises; the lines the check refuses are dropped, as a player would, and
what is left is played for every seat at once, from the state as gm stores it (JSON, sorted
keys), twice: the same state hash and the same events; every seat's view, order form and report
render. Seeded (random.Random), so a failure replays; about 5-10 s a ruleset.
"""

from __future__ import annotations

import json
import random
import re

import pytest

from gm.core.model import Order, Problem
from gm.core.order_grammar import OrderGrammar
from gm.core.ruleset import Ruleset, TurnSeeds
from gm.core.statehash import canonical_json, state_hash
from gm.render.environment import make_environment, render_report_html
from gm.rulesets import installed, template_dirs
from gm.testing.reports import context_of
from gm.testing.suite import new_game, robot_orders, scenario_of
from tests.games.order_mistakes import MISTAKES, case_lines

NAMES = sorted(installed())
SEED = 4
POINTS = (2, 7)  # robot turns played before each fuzzed turn: set-up over, then mid-game
FILES = 24  # fuzzed turns at each point, every seat's file hostile in each

ODD = [
    "",
    "0",
    "-1",
    "-999",
    "9223372036854775807",
    "99999999999999999999999999999",
    "１２",
    "²",
    "ZZ",
    "XX9",
    "G999",
    "RE99",
    "АВС",  # Cyrillic lookalikes of ABC
    "ÉÇÀ",
    "A" * 5000,
    "ALL",
    "all",
    "-",
    ",",
    "1,",
    "0,0",
    "-1,-1",
    "99999999,99999999",
    "NaN",
    "1.5",
    "(",
    "#",
    "\u200b",
    "\u202e",
    "FOR",
    "LAND",
    "CEDE",
    "RETREAT",
    "wool",
]
# Words an argument of a grammar may take where it names no fact of the position.
WORDS = ["1", "2", "3", "6", "ALL", "0", "1,1", "20,20", "N", "wool", "brick", "ore", "FOR", "SOLDIERS", "TAXES"]


def mutated(rng: random.Random, lines: list[str], seats: list[str], own: str, foreign: list[str]) -> list[str]:
    """`lines` with one hostile change."""
    lines = list(lines) or ["PASS"]
    at = rng.randrange(len(lines))
    words = lines[at].split() or ["PASS"]
    kind = rng.randrange(13)
    if kind == 0:  # an order repeated
        return lines + [lines[at]] * rng.choice([2, 50, 500])
    if kind == 1:  # another ruleset's order, or a player's mistake
        return [*lines[:at], rng.choice(foreign), *lines[at:]]
    if kind == 2:  # the file twice, the second time backwards
        return lines + lines[::-1]
    if kind == 3:
        lines[at] = "\t".join(words)
        return lines
    if kind == 4 and len(lines) > 1:  # an argument swapped with another order's
        other = rng.randrange(len(lines))
        there = lines[other].split()
        if len(words) > 1 and len(there) > 1:
            i, j = rng.randrange(1, len(words)), rng.randrange(1, len(there))
            words[i], there[j] = there[j], words[i]
            lines[other] = " ".join(there)
    elif kind == 5 and len(words) > 1:
        words[rng.randrange(1, len(words))] = rng.choice(ODD)
    elif kind == 6 and len(words) > 1:  # a seat, this one's own or another's
        words[rng.randrange(1, len(words))] = rng.choice([*seats, own, own.lower()])
    elif kind == 7:
        words = [w.lower() for w in words]
    elif kind == 8 and len(words) > 1:
        del words[rng.randrange(1, len(words))]
    elif kind == 9:
        words += rng.sample(ODD + seats, rng.randrange(1, 4))
    elif kind == 10:
        words[0] = words[0].replace("A", "А").replace("O", "О").replace("E", "Е")  # Cyrillic
    elif kind == 11 and len(words) > 1:  # a number grown, turned negative, past any int
        i = rng.randrange(1, len(words))
        if words[i].isascii() and words[i].isdigit():
            words[i] = rng.choice([f"-{words[i]}", words[i] + "000", str(2**63), str(int(words[i]) + 1)])
        elif "," in words[i]:
            words[i] = rng.choice(["-1,-1", "99999,99999", words[i].replace(",", ", ")])
    elif kind == 12 and len(words) > 1:  # an argument of another ruleset's order
        src = rng.choice(foreign).split()
        words[rng.randrange(1, len(words))] = rng.choice(src[1:] or ["X"])
    lines[at] = " ".join(words)
    return lines


def grammar_line(rng: random.Random, grammar: OrderGrammar | None, seats: list[str]) -> str | None:
    """An order the seat's order grammar offers now, its arguments picked from the facts of its
    position (the places beside a move's start), or any word the argument's pattern takes."""
    if grammar is None:
        return None
    offered = [w for w in grammar.words if not grammar.now or w.word in grammar.now]
    if not offered:
        return None
    word = rng.choice(offered)
    out = [word.word]
    for k in range(len(word.arguments) + (rng.randrange(3) if word.repeats else 0)):
        argument = word.argument(k)
        if argument.optional and rng.random() < 0.3:
            break
        choices: list[str] = []
        if 0 <= argument.beside < len(out) - 1:
            choices = list(grammar.next_to.get(out[argument.beside + 1], ()))
        if not choices and (argument.offer or argument.fact):
            choices = list(grammar.facts.get(argument.offer or argument.fact, ()))
        if not choices or rng.random() < 0.3:
            fits = [w for w in WORDS + seats if re.fullmatch(f"(?:{argument.pattern or '.*'})", w, re.IGNORECASE)]
            choices = fits or WORDS
        out.append(rng.choice(choices))
    if grammar.numbered:
        out.insert(0, str(rng.randrange(1, 12)))
    return " ".join(out)


def hostile_file(rng: random.Random, ruleset: Ruleset, state: dict, seat: str, sources: dict, foreign: list[str]):
    """A seat's hostile lines: a robot's orders or the grammar's, then zero to three changes."""
    seats = sources["seats"]
    pick = rng.randrange(6)
    if pick == 0:
        lines = sources["robots"][rng.choice(seats)]
    elif pick == 1:
        lines = sources["last"].get(seat, [])
    else:
        lines = sources["robots"][seat]
    if pick in (2, 3):
        grammar = ruleset.order_grammar(sources["views"][seat], seat)
        made = [grammar_line(rng, grammar, seats) for _ in range(rng.randrange(1, 6))]
        lines = ([] if pick == 2 else lines) + [m for m in made if m]
    for _ in range(rng.randrange(0 if pick in (2, 3) else 1, 4)):
        lines = mutated(rng, lines, seats, seat, foreign)
    return lines


def checked(ruleset: Ruleset, state: dict, view: dict, seat: str, lines: list[str]) -> list[Order] | None:
    """The orders of `lines` as gm takes them (none of them raises), the lines the check refuses
    dropped as a player would drop them; None when a problem is the whole file's."""
    orders, problems = ruleset.parse_orders(list(enumerate(lines, 1)))
    for order in orders:  # the acknowledgement writes each back
        assert isinstance(ruleset.order_line(order), str)
    ruleset.check_by_view(json.loads(json.dumps(view)), seat, orders)
    problems = [*problems, *ruleset.check_orders(state, seat, orders)]
    while True:
        assert all(isinstance(p, Problem) and p.message for p in problems)
        ruleset.order_warnings(state, seat, orders)
        if not problems:
            return [Order.from_json(json.loads(json.dumps(o.to_json()))) for o in orders]  # as stored
        if any(p.line == 0 for p in problems):
            return None
        refused = {p.line for p in problems}
        orders = [o for o in orders if o.line not in refused]
        problems = list(ruleset.check_orders(state, seat, orders))


def foreign_lines(name: str) -> list[str]:
    lines = list(MISTAKES)
    for other in NAMES:
        if other != name:
            lines += case_lines(installed()[other])[:40]
    return lines


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_hostile_orders_never_stop_the_turn(name):
    ruleset = installed()[name]
    rng = random.Random(f"{SEED}:{name}")
    foreign = foreign_lines(name)
    scenario = scenario_of(ruleset, ruleset.default_scenario(), {})
    state, seats = new_game(ruleset, scenario, ruleset.demo_seats, SEED)
    env = make_environment(None, template_dirs(ruleset))
    turn, last, played = 0, {}, 0
    for point in POINTS:
        while turn < point and not ruleset.is_over(state):
            turn += 1
            orders = robot_orders(ruleset, state, seats, SEED, turn)
            last = {s: [ruleset.order_line(o) for o in orders[s]] for s in seats}
            state = json.loads(canonical_json(ruleset.resolve(state, orders, TurnSeeds(SEED, turn)).state))
        if ruleset.is_over(state):
            break
        number = turn + 1
        robots = robot_orders(ruleset, state, seats, SEED, number)
        sources = {
            "seats": seats,
            "robots": {s: [ruleset.order_line(o) for o in robots[s]] for s in seats},
            "last": last,
            "views": {s: ruleset.view(state, s) for s in seats},
        }
        stored = canonical_json(state)
        for n in range(FILES):
            given = {}
            files = {}
            for seat in seats:
                files[seat] = hostile_file(rng, ruleset, state, seat, sources, foreign)
                taken = checked(ruleset, state, sources["views"][seat], seat, files[seat])
                given[seat] = robots[seat] if taken is None else taken
            where = f"{name} turn {number}, fuzzed file {n}: {json.dumps(files)[:1500]}"
            first = ruleset.resolve(json.loads(stored), given, TurnSeeds(SEED, number))
            again = ruleset.resolve(json.loads(stored), given, TurnSeeds(SEED, number))
            assert canonical_json(state) == stored, f"resolve changed the state it was given: {where}"
            assert state_hash(first.state) == state_hash(again.state), f"a re-run differs: {where}"
            events = [e.to_json() for e in first.events]
            assert events == [e.to_json() for e in again.events], f"a re-run's events differ: {where}"
            assert ruleset.invariants(state, given, first) == [], where
            ruleset.scores(first.state)
            ruleset.is_over(first.state)
            for seat in seats:
                ruleset.order_form(first.state, seat)
                if n % 8 == 0:  # every seat's report, and its JSON twin's context
                    context = context_of(ruleset, state, first.state, first.events, seat, number, seats)
                    json.dumps(context)
                    assert render_report_html(env, context)
            played += 1
    assert played >= FILES, "the fuzz played turns"
