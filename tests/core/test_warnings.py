"""Warnings beside the errors, as echeck gives them: near codes, a FINAL after END, the ruleset's own."""

from __future__ import annotations

from gm.core.envelope import read_envelope
from gm.core.model import Order, Problem
from gm.core.warnings import near_codes, order_warnings, view_codes

VIEW = {
    "seats": [{"code": "BR"}, {"code": "FR"}],
    "map": {"territories": [{"code": "ENG"}, {"code": "WAL"}, {"code": "SCO"}]},
    "codes": ["RE2"],
}


def test_the_codes_a_view_names():
    assert view_codes(VIEW) == {"BR", "FR", "ENG", "WAL", "SCO", "RE2"}


def test_a_near_code_on_a_line_in_trouble_gets_did_you_mean():
    lines = [(4, "CLAIM EGN SCO"), (5, "MOVE WLA SCO 2")]
    found = near_codes(lines, {4}, view_codes(VIEW))
    assert found == [Problem(4, "EGN is not a code in this game; did you mean ENG?")]


def test_words_far_from_any_code_and_lines_that_check_get_nothing():
    assert near_codes([(4, "PRODUCE ENG SOLDIERS 12")], {4}, view_codes(VIEW)) == []
    assert near_codes([(4, "CLAIM EGN")], set(), view_codes(VIEW)) == []
    assert near_codes([(4, "MOVE ENG SCO ALL")], {4}, {"ALB", "ENG", "SCO"}) != []
    assert near_codes([(4, "MOVE ENG SCO ALL")], {4}, {"ALB", "ENG", "SCO"}, frozenset({"ALL"})) == []


def test_final_after_end_is_a_warning_and_not_final():
    envelope = read_envelope("GAME g\nPLAYER BR\nPASSWORD x\nCLAIM ENG\nEND\n\nfinal\n")
    assert envelope.ok and not envelope.final
    assert envelope.warnings == (
        Problem(7, "FINAL after END is ignored, so these orders are not final: put FINAL before END"),
    )
    assert read_envelope("GAME g\nPLAYER BR\nPASSWORD x\nFINAL\nEND\nFINAL\n").warnings == ()
    assert read_envelope("GAME g\nPLAYER BR\nPASSWORD x\nEND\n> FINAL\n").warnings == ()


def test_empires_warns_of_actions_left_unused():
    from gm_games.empires.orders import order_warnings

    from gm.rulesets import installed

    state = {"phase": "play", "victory": {"eliminated": []}, "countries": {"EN": {}}}
    orders = [Order("GROW", (n, "LON"), n) for n in (1, 2, 3)]
    [warning] = order_warnings(state, "EN", orders)
    assert warning.message.startswith("you use 3 of your 16 actions; the other 13 are lost")
    sixteen = [Order("GROW", (n, f"A{n}"), n) for n in range(1, 17)]
    assert order_warnings(state, "EN", sixteen) == []
    assert installed()["empires"].order_warnings(state, "EN", orders) == [warning]
    assert installed()["clash"].order_warnings({}, "BR", []) == []  # a ruleset without any: none


def test_a_line_with_an_error_gets_no_ruleset_warning_beside_it():
    """The error says why the order fails; the ruleset's guess that it would also be short of
    money is noise there (Imperials' 'VILLAGE 24' next to a village said both). Other lines keep
    their warnings."""

    class Ruleset:
        def view(self, state, seat):
            return {"seats": [{"code": "RED"}]}

        def order_warnings(self, state, seat, orders):
            return [Problem(o.line, f"{o.verb} would be short") for o in orders]

    orders = [Order("VILLAGE", ("24",), 4, "VILLAGE 24"), Order("ROAD", ("24-30",), 5, "ROAD 24-30")]
    problems = [Problem(4, "vertex 24 is next to your village")]
    warned = order_warnings(Ruleset(), {}, "RED", [(4, "VILLAGE 24"), (5, "ROAD 24-30")], orders, problems)
    assert warned == [Problem(5, "ROAD would be short")]


def test_a_slip_is_told_from_words_of_its_kind():
    """Issue 30: a city's name (RE11 for RE1) gets its "did you mean" as a word does; letters
    are guessed from letters and names with digits from names with digits, a number never."""
    from gm.core.warnings import close_to, did_you_mean

    assert close_to("RE11", ["RE1", "BL1", "RE", "BL"]) == ["RE1"]
    assert did_you_mean("bl11", ["RE1", "BL1"]) == " (did you mean BL1?)"
    assert close_to("RE11", ["RE", "BL"]) == [] and close_to("EGN", ["ENG", "EN1"]) == ["ENG"]
    assert close_to("12", ["13", "12A"]) == [] and close_to("12,40", ["12,41"]) == []
    assert close_to("RE1", ["RE1", "RE2"]) == []
