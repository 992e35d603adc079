"""Order-form comment lines fit the report's form box, however long the list."""

from __future__ import annotations

from gm.core.forms import FORM_WIDTH, wrapped_comment


def test_a_short_list_is_one_line():
    assert wrapped_comment("# Free to claim:", ["ENG England", "HOL Holland"], separator=",") == [
        "# Free to claim: ENG England, HOL Holland"
    ]


def test_a_long_list_wraps_under_the_width_with_its_indent():
    items = [f"T{n:02d} Territory number {n}" for n in range(20)]
    lines = wrapped_comment("# Free to claim:", items, separator=",")
    assert len(lines) > 3 and all(len(line) <= FORM_WIDTH for line in lines)
    assert all(line.startswith("#   T") for line in lines[1:])
    assert " ".join(lines).replace("#   ", "").endswith("Territory number 19")
    assert sum(line.count("Territory number") for line in lines) == 20


def test_an_item_longer_than_a_line_gets_its_own_line():
    lines = wrapped_comment("# Head:", ["x" * 100, "y"], width=40)
    assert lines == ["# Head: " + "x" * 100, "#   y"]


def test_no_items_leaves_the_head():
    assert wrapped_comment("#   LON 5/4/1: ", []) == ["#   LON 5/4/1:"]


def test_copyable_cuts_wide_gaps_that_pdftotext_reads_as_columns():
    from gm.core.forms import copyable

    assert copyable("#   TAXES 1 a gold,    SOLDIERS 5   ") == "#  TAXES 1 a gold,  SOLDIERS 5"
    assert copyable("#  two stay") == "#  two stay" and copyable("MOVE A B 3") == "MOVE A B 3"


def test_every_wrapped_form_line_is_copyable():
    from gm.core.envelope import wrap_envelope

    form = wrap_envelope("g", "BR", 2, wrapped_comment("# Free:", [f"T{n} Land" for n in range(40)]))
    assert "   " not in form and form.count("\n#  T") > 1


def test_copy_pieces_are_what_a_player_may_copy_out_of_a_comment_line():
    from gm.core.forms import copy_pieces

    lines = [
        "# For example:  CLAIM ENG HOL BEL",
        "#   ROAD <edge>  VILLAGE <vertex>   TOWN 12.",
        "# Not possible now: PLAY (you hold no action card); BUY",
        "MOVE A B 3",
    ]
    assert copy_pieces(lines) == [
        "For example",
        "CLAIM ENG HOL BEL",
        "ROAD <edge>",
        "VILLAGE <vertex>",
        "TOWN 12",
        "Not possible now",
        "PLAY (you hold no action card)",
        "BUY",
    ]


def test_spaced_examples_fit_the_form_two_spaces_apart():
    from gm.core.forms import copy_pieces, spaced_examples

    items = [f"MOVE G{n} 10,{n}" for n in range(12)]
    lines = spaced_examples(items)
    assert len(lines) > 1 and all(len(line) <= FORM_WIDTH and line.startswith("#   MOVE") for line in lines)
    assert copy_pieces(lines) == items
    assert spaced_examples([]) == []


def test_the_first_example_is_the_first_candidate_the_check_passes():
    from gm.core.forms import first_example
    from gm.core.model import Order, Problem

    def parse(lines):
        [(number, text)] = lines
        words = text.split()
        if words[0] != "GO":
            return [], [Problem(number, f"{words[0]} is not an order")]
        return [Order("GO", tuple(words[1:]), number, text)], []

    def check(orders):
        return [Problem(o.line, f"{o.args[0]} is not yours") for o in orders if o.args[0] != "HOME"]

    assert first_example(["STAY", "GO FAR", "GO HOME"], parse, check) == ("GO HOME", None)
    assert first_example(["STAY", "GO FAR", "GO NEAR"], parse, check) == (None, "FAR is not yours")
    assert first_example([], parse, check) == (None, None)


def test_what_is_not_possible_now_is_said_within_the_width_however_long_the_reason():
    from gm.core.forms import not_possible

    reasons = ["VILLAGE (no free corner at the end of your roads)", "ROAD (" + "a long reason " * 12 + ")"]
    lines = not_possible(reasons)
    assert lines[0].startswith("# Not possible now: VILLAGE (no free corner")
    assert all(len(line) <= FORM_WIDTH for line in lines) and all(line.startswith("#   ") for line in lines[1:])
    assert " ".join(line.removeprefix("#   ") for line in lines).endswith("a long reason )")
    assert not_possible([]) == []


def test_a_first_item_that_would_overrun_the_head_line_starts_the_next():
    lines = wrapped_comment("# A head of some length:", ["y" * 30], width=40)
    assert lines == ["# A head of some length:", "#   " + "y" * 30]
