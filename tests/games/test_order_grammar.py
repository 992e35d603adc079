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


@pytest.mark.parametrize("name", ["clash", "conqueror", "empires"])
def test_a_word_not_shaped_like_a_code_is_found_in_the_parsers_words(name):
    """Where a place or country must stand, a word not shaped like its code ("EN", "ENGL", "12")
    gets the parser's very words from the declaration (Argument.misshapen), as the GM's check
    gives them, and not the map's "is not a ... on this map", which a code-shaped word keeps."""
    ruleset = installed()[name]
    declared = _first_seats_grammar(ruleset)
    assert declared is not None
    grammar = from_json(declared.to_json())
    scenario = ruleset.load_scenario(ruleset.scenario_text(ruleset.default_scenario()), "default")
    codes = ruleset.seat_codes(scenario)[: ruleset.demo_seats]
    state = ruleset.new_game(scenario, [SeatInfo(c, c) for c in codes], TurnSeeds(5, 0))
    robot = [ruleset.order_line(o) for o in ruleset.robot_orders(state, codes[0], TurnSeeds(5, 1).rng("robot"))]
    lines = []
    for text in robot + case_lines(ruleset):
        if check_lines(grammar, [(1, text)]):
            continue  # a case of another map: one word made wrong is to be the line's one mistake
        words = text.split()
        for at, word in enumerate(words[1:], start=1):
            if len(word) in (2, 3) and word.isalpha() and word.upper() not in ("ALL", "BUY"):
                lines += [" ".join(words[:at] + [odd] + words[at + 1 :]) for odd in ("Q", "QQQQ", "Q1Q", "12")]
    numbered = list(enumerate(lines, start=1))
    _, parsed = ruleset.parse_orders(numbered)
    misshapen = [p for p in parsed if " code; " in p.message]
    assert len(misshapen) > 10
    found = {p.line: p.message for p in check_lines(grammar, numbered)}
    assert [(p.line, found.get(p.line)) for p in misshapen] == [(p.line, p.message) for p in misshapen]


def test_a_declaration_without_a_shape_reads_and_says_as_before():
    """shape and misshapen are new fields of an argument (a report of before has neither): an
    argument without them says `wrong` of every value it refutes, and its JSON has no such key."""
    from gm.core.order_grammar import Argument, OrderWord

    plain = Argument("territory", fact="place", wrong="{word} is not a territory{near}")
    shaped = Argument("territory", fact="place", wrong=plain.wrong, shape="[A-Za-z]{3}", misshapen="{word} is no code")
    assert "shape" not in plain.to_json() and shaped.to_json()["shape"] == "[A-Za-z]{3}"
    for argument, said in ((plain, "EN is not a territory (did you mean ENG?)"), (shaped, "EN is no code")):
        grammar = from_json(
            OrderGrammar(
                (OrderWord("MOVE", (argument,), count="MOVE takes one"),), "no", facts={"place": ("ENG",)}
            ).to_json()
        )
        assert check_lines(grammar, [(1, "MOVE EN"), (2, "MOVE ENX"), (3, "MOVE eng")]) == [
            Problem(1, said),
            Problem(2, "ENX is not a territory (did you mean ENG?)"),
        ]
