"""bench/bench_sections.py tells a seat's report apart section by section (issue 32): what a
heading opens, and taking one section out leaves every other whole."""

from __future__ import annotations

import sys
from pathlib import Path

import tinyhtml5

# bench_sections imports its neighbours as a script does (bench_stages, bench_cycle).
sys.path.insert(0, str(Path(__file__).parents[2] / "bench"))
from bench_sections import OUTSIDE, TURN_PAGES, cut, sections  # noqa: E402

PAGE = """<!DOCTYPE html><html><head><title>t</title></head><body>
<header class="masthead"><div class="game">Game</div><h1>Turn 3</h1><p>No orders reached turn 3.</p></header>
<section class="what-happened"><h2>What happened to you</h2><p>A battle.</p></section>
<section class="ruleset"><style>p {}</style><h2>Your country</h2><p>Victory points 4.</p>
<h3>Finances</h3><table><tr><td>Income</td></tr></table>
<h2>Trade</h2><p>No offers are open.</p></section>
<article class="turn-page" id="gm-turn-page-1"></article>
</body></html>"""


def _page():
    root = tinyhtml5.parse(PAGE, namespace_html_elements=False)  # as WeasyPrint parses it
    return root, {element.get("class") or element.text or element.tag: element for element in root.iter()}


def _words(root) -> str:
    return " ".join(piece.strip() for piece in root.itertext() if piece.strip())


def test_a_section_is_what_a_heading_opens_and_a_container_goes_with_its_first_heading():
    root, at = _page()
    found = sections(root)
    assert found[id(at["masthead"])] == found[id(at["game"])] == ("Turn 3",)
    assert found[id(at["A battle."])] == ("What happened to you",)
    assert found[id(at["ruleset"])] == found[id(at["Victory points 4."])] == ("Your country",)
    assert found[id(at["Income"])] == ("Your country", "Finances")
    assert found[id(at["No offers are open."])] == ("Trade",)
    assert found[id(at["turn-page"])] == TURN_PAGES
    assert found[id(root)] == OUTSIDE


def test_taking_a_section_out_leaves_the_container_and_the_sections_after_it():
    root, _ = _page()
    cut(root, ("Your country",), sections(root))
    text = _words(root)
    assert "Victory points 4." not in text and "Income" not in text and "Finances" not in text
    # The ruleset's <section> opens with "Your country" but holds "Trade" too: it stays, Trade in it.
    assert "Trade No offers are open." in text and "What happened to you" in text and "Turn 3" in text
    root, _ = _page()
    cut(root, ("Your country", "Finances"), sections(root))
    assert "Income" not in _words(root) and "Your country Victory points 4. Trade" in _words(root)
