"""Every declared order grammar (gm.core.order_grammar) lets through what the GM accepts: the
robots' orders of many turns, written as players write them, get no finding; and a word that is
no order gets the parser's very words."""

from __future__ import annotations

import pytest

from gm.core.model import Problem, SeatInfo
from gm.core.order_grammar import OrderGrammar, check_lines, from_json, line_words
from gm.core.ruleset import Ruleset, TurnSeeds
from gm.rulesets import installed
from tests.games.order_mistakes import MISTAKES, case_lines

TURNS = 6


@pytest.mark.parametrize("name", sorted(installed()))
def test_a_grammar_never_refutes_the_robots_valid_orders(name):
    ruleset = installed()[name]
    scenario = ruleset.load_scenario(ruleset.scenario_text(ruleset.default_scenario()), "default")
    codes = ruleset.seat_codes(scenario)[: ruleset.demo_seats]
    state = ruleset.new_game(scenario, [SeatInfo(c, c) for c in codes], TurnSeeds(5, 0))
    checked = 0
    for turn in range(1, TURNS + 1):
        seeds = TurnSeeds(5, turn)
        orders = {s: ruleset.robot_orders(state, s, seeds.rng(f"robot:{s}")) for s in codes}
        for seat in codes:
            declared = ruleset.order_grammar(ruleset.view(state, seat), seat)
            if declared is None:
                continue
            grammar = from_json(declared.to_json())  # as the report carries it
            valid = [o for o in orders[seat] if not ruleset.check_orders(state, seat, [o])]
            lines = [(n, ruleset.order_line(o)) for n, o in enumerate(valid, start=1)]
            assert check_lines(grammar, lines) == [], f"turn {turn}, {seat}"
            checked += len(lines)
        state = ruleset.resolve(state, orders, seeds).state
        if ruleset.is_over(state):
            break
    assert checked > 10


@pytest.mark.parametrize("name", sorted(installed()))
def test_an_unknown_word_is_found_in_the_parsers_words(name):
    ruleset = installed()[name]
    scenario = ruleset.load_scenario(ruleset.scenario_text(ruleset.default_scenario()), "default")
    codes = ruleset.seat_codes(scenario)[: ruleset.demo_seats]
    state = ruleset.new_game(scenario, [SeatInfo(c, c) for c in codes], TurnSeeds(5, 0))
    grammar = ruleset.order_grammar(ruleset.view(state, codes[0]), codes[0])
    assert grammar is not None
    for slip in ("FROBNICATE X", "MOVX A B 1", "PLAYS 1", "BILD X Y", "ROADS 1-2"):
        _, parsed = ruleset.parse_orders([(7, slip)])
        assert check_lines(grammar, [(7, slip)]) == parsed


@pytest.mark.parametrize("name", sorted(installed()))
def test_a_grammar_refutes_only_what_the_gms_check_refutes(name):
    """On every line of the kit's corpus of mistakes and of the ruleset's cases that the
    declaration refutes, the GM's own check (parser, then check_orders on the game) refutes it too."""
    ruleset = installed()[name]
    scenario = ruleset.load_scenario(ruleset.scenario_text(ruleset.default_scenario()), "default")
    codes = ruleset.seat_codes(scenario)[: ruleset.demo_seats]
    state = ruleset.new_game(scenario, [SeatInfo(c, c) for c in codes], TurnSeeds(5, 0))
    seat = codes[0]
    grammar = ruleset.order_grammar(ruleset.view(state, seat), seat)
    if grammar is None:
        return
    lines = [(n, text) for n, text in enumerate(MISTAKES + case_lines(ruleset), start=1)]
    refuted = {p.line for p in check_lines(grammar, lines)}
    orders, problems = ruleset.parse_orders(lines)
    by_gm = {p.line for p in problems} | {p.line for p in ruleset.check_orders(state, seat, orders)}
    assert refuted and refuted <= by_gm, sorted(refuted - by_gm)


def test_minecraft_empires_findings_are_its_parsers_own():
    """Minecraft EMPIRES declares its parser's reading (a block is one word x,y, "12, 40" and
    "(12,40)" too): on every line of the corpus and the cases it refutes, its finding is the very
    one the parser gives (the lines upper case: the parser shows a word as it reads it)."""
    ruleset = installed()["mcempires"]
    declared = _first_seats_grammar(ruleset)
    assert declared is not None and declared.to_json()["pairs"] is True
    grammar = from_json(declared.to_json())
    lines = [(n, text.upper()) for n, text in enumerate(MISTAKES + case_lines(ruleset), start=1)]
    _, parsed = ruleset.parse_orders(lines)
    by_parser = {p.line: p.message for p in parsed}
    found = check_lines(grammar, lines)
    assert len(found) > 40
    assert [(p.line, p.message) for p in found] == [(p.line, by_parser.get(p.line)) for p in found]
    # Blocks as players write them: spaced, bracketed, or with a part missing.
    spaced = [(1, "CITY 12, 40"), (2, "LAND (3,4) ( 5 , 6 )"), (3, "MOVE G1 2 12 ,40 RE2"), (4, "CITY 12,")]
    assert (
        check_lines(grammar, spaced)
        == ruleset.parse_orders(spaced)[1]
        == [Problem(4, "12, is not a block x,y: write CITY x,y")]
    )


def test_a_grammar_of_pairs_is_only_minecraft_empires():
    """The other grammars cut a line at commas as they always did: their report's grammar has no
    `pairs` field, and "A,B" is two words there."""
    for name, ruleset in sorted(installed().items()):
        declared = _first_seats_grammar(ruleset)
        assert declared is not None
        assert ("pairs" in declared.to_json()) is (name == "mcempires"), name
    assert line_words(OrderGrammar(()), "MOVE 12, 40 (3,4)") == ["MOVE", "12", "40", "(3", "4)"]
    assert line_words(OrderGrammar((), pairs=True), "MOVE 12, 40 (3,4) 5,") == ["MOVE", "12,40", "3,4", "5,"]


def _first_seats_grammar(ruleset: Ruleset) -> OrderGrammar | None:
    """The grammar of the first seat of a new game of the default scenario (its demo's seats)."""
    scenario = ruleset.load_scenario(ruleset.scenario_text(ruleset.default_scenario()), "default")
    codes = ruleset.seat_codes(scenario)[: ruleset.demo_seats]
    state = ruleset.new_game(scenario, [SeatInfo(c, c) for c in codes], TurnSeeds(5, 0))
    return ruleset.order_grammar(ruleset.view(state, codes[0]), codes[0])
