"""Every seat's PDF of a robot game's turn, as gm renders it (the turn's pages laid over), and how
full each page is: for the page tests and the README's table of pages (test_report_pages.py)."""

from __future__ import annotations

import pypdfium2

from gm.render.environment import base_url, make_environment, render_report_html
from gm.render.fetcher import AssetFetcher
from gm.render.pdf import render_report
from gm.rulesets import get_ruleset, template_dirs
from gm.testing.reports import CREATED, report_contexts

TURN = 3  # a report of a game under way: the robots' third turn
SEATS = (4, 8, 16)
# A page is mostly empty when its text and pictures end above this share of the height between
# its margins (report.css: 17 mm at the top, 18 mm at the bottom, where the running header and the
# page number stand).
MOSTLY_EMPTY = 0.25
_TOP_MM, _BOTTOM_MM = 17, 18
_SCALE = 30 / 72  # 30 dots an inch: a line of 8 pt text is 3 dots high
_INK = 200  # a pixel darker than this (of 255) is ink: text, rules, a map, a tinted row's text


def seat_limit(ruleset_name: str) -> int:
    """The most seats the ruleset's default scenario takes."""
    ruleset = get_ruleset(ruleset_name)
    scenario = ruleset.load_scenario(ruleset.scenario_text(ruleset.default_scenario()), "default")
    return ruleset.seat_limits(scenario)[1]


def reports(ruleset_name: str, seats: int, turn: int = TURN) -> dict[str, tuple[str, bytes]]:
    """Seat code -> its report's HTML and PDF after `turn` turns of a robot game with `seats` seats."""
    ruleset = get_ruleset(ruleset_name)
    env = make_environment(None, template_dirs(ruleset))
    fetcher = AssetFetcher([str(d) for d in env.loader.searchpath])
    pdfs = {}
    for context in report_contexts(ruleset, 3, turn, seats):
        html = render_report_html(env, context)
        identifier = f"{ruleset_name}-1/{turn}/{context['seat']}"
        pdf, _ = render_report(html, base_url=base_url(), created=CREATED, identifier=identifier, fetcher=fetcher)
        pdfs[context["seat"]] = (html, pdf)
    return pdfs


def fills(pdf: bytes) -> list[float]:
    """For each page, how far down the space between its margins its ink reaches (0 to 1)."""
    document = pypdfium2.PdfDocument(pdf)
    found = []
    for page in document:
        image = page.render(scale=_SCALE, grayscale=True).to_pil()
        width, height = image.size
        top = int(_TOP_MM / 25.4 * 72 * _SCALE)
        bottom = height - int(_BOTTOM_MM / 25.4 * 72 * _SCALE)
        inked = image.crop((0, top, width, bottom)).point(lambda v: 255 if v < _INK else 0).getbbox()
        found.append(0.0 if inked is None else inked[3] / (bottom - top))
    return found
