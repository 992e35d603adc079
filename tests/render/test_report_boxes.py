"""What a seat's own pages leave out as the same fact said twice (issue 32: a seat's pages counted
box by box, section by section; bench/README.md, "A seat's pages, section by section"). Every box
costs WeasyPrint about a millisecond, so a fact is drawn once; these hold that the fact is still
there, said once."""

from __future__ import annotations

import re

from gm.core.names import named
from gm.render.environment import make_environment, render_report_html
from gm.rulesets import installed, template_dirs

from . import ruleset_report

SWATCH = 'class="swatch"'


def _report(ruleset_name: str, turns: int = 2) -> tuple[dict, str]:
    context = ruleset_report.report_contexts(ruleset_name, turns=turns)[0]
    env = make_environment(None, template_dirs(installed()[ruleset_name]))
    return context, render_report_html(env, context)


def test_empires_order_of_play_names_every_country_in_words_without_swatches():
    context, html = _report("empires")
    view, seat = context["view"], context["seat"]
    line = html.split("<h3>Order of play next turn</h3>")[1].split("</p>")[0]
    assert SWATCH not in line
    nations = {s["code"]: s["nation"] for s in view["seats"]}
    expected = ", ".join(
        named(nations[code], code) + (" <b>(you)</b>" if code == seat else "") for code in view["order_of_play"]
    )
    assert line.strip() == f"<p>{expected}"
    assert len(view["order_of_play"]) == 16
    # The colours are still there: the roundup (the turn's pages) keeps a swatch a country.
    roundup = html.split('<table class="data roundup">')[1].split("</table>")[0]
    assert roundup.count(SWATCH) == len(view["seats"])


def test_imperials_names_its_seats_by_their_colour_once_and_its_map_key_keeps_the_swatches():
    context, html = _report("imperials", turns=6)
    view = context["view"]
    legend = html.split('<p class="legend">')[1].split("</p>")[0]
    assert legend.count(SWATCH) == len(view["seats"])  # the key to the pieces' colours
    own = html.split("<h2>Victory points (first to")[1].split('<h2 class="known-title">')[0]
    assert SWATCH not in own
    for s in view["seats"]:  # every seat's row names it, by its colour
        assert re.search(rf'<td class="who">{re.escape(s["nation"])}</td>', own), s["code"]
    assert view["dice"], "turn 6 has dice to show"
    dice = html.split("<h2>The dice this round</h2>")[1].split("</table>")[0]
    nations = {s["code"]: s["nation"] for s in view["seats"]}
    assert SWATCH not in dice
    for roll in view["dice"]:  # each roll names whose turn it was
        assert f"<tr><td>{nations[roll['seat']]}</td>" in dice, roll
