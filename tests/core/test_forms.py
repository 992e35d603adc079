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
