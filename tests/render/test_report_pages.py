"""Pages worth printing, and a report a screen reader can follow (issue 30).

Sections flow: a page ends early only where what follows needs a page of its own (a map sheet),
so no page of a report but its last is mostly empty (report_pages.MOSTLY_EMPTY: its text and
pictures end above a quarter of the height between its margins). The README says how many pages
each ruleset's reports take at 4, 8 and 16 seats, as measured here. Every report is a tagged PDF
that a PDF/UA-1 validator (page-validation, veraPDF's rules in Rust) passes, the turn's pages'
tags grafted into each seat's tree where those pages stand."""

from __future__ import annotations

import io
import re
from pathlib import Path

import page
import pikepdf
import pytest

from gm.home import Home
from gm.render.budget import RenderBudget
from gm.render.environment import base_url, make_environment, render_report_html, render_standings_html
from gm.render.pdf import html_to_pdf
from gm.render.worker import Renderer, RenderJob
from gm.rulesets import installed, template_dirs
from gm.services.short_reports import budget_of
from gm.testing.reports import CREATED, report_contexts

from . import report_pages
from .sample_game import endgame_context, standings_context

RULESETS = sorted(installed())
README = Path(__file__).resolve().parents[2] / "README.md"


@pytest.fixture(scope="module")
def rendered():
    """rendered(ruleset, seats=4): every seat's report of the ruleset's robot game, turn 3
    (report_pages.reports). The 4-seat reports are rendered once in this module and kept: four
    tests here read them and the README's counts them; the others are read once."""
    kept: dict[str, dict[str, tuple[str, bytes]]] = {}

    def reports(name: str, seats: int = 4) -> dict[str, tuple[str, bytes]]:
        if seats != 4:
            return report_pages.reports(name, seats)
        if name not in kept:
            kept[name] = report_pages.reports(name, seats)
        return kept[name]

    return reports


@pytest.mark.parametrize("name", RULESETS)
def test_no_page_but_the_last_is_mostly_empty(rendered, name):
    for seat, (_, pdf) in rendered(name).items():
        fills = report_pages.fills(pdf)
        early = [f"page {n} ({fill:.0%})" for n, fill in enumerate(fills[:-1], 1) if fill < report_pages.MOSTLY_EMPTY]
        assert not early, f"{name} {seat}: mostly empty before the last page: {', '.join(early)}"


@pytest.mark.slow
@pytest.mark.parametrize("name", RULESETS)
def test_the_readme_says_how_many_pages_each_report_takes(rendered, name):
    """README "How long a report is": the fewest and most pages of a turn's reports, per ruleset
    and number of seats, as rendered here; and no page but the last mostly empty at any of them."""
    said = _readme_pages()[name]
    for seats in report_pages.SEATS:
        if seats > report_pages.seat_limit(name):
            assert said[seats] == "-", f"{name} takes at most {report_pages.seat_limit(name)} seats"
            continue
        filled = {seat: report_pages.fills(pdf) for seat, (_, pdf) in rendered(name, seats).items()}
        counts = [len(fills) for fills in filled.values()]
        measured = f"{min(counts)}" if min(counts) == max(counts) else f"{min(counts)}-{max(counts)}"
        assert said[seats] == measured, f"{name} at {seats} seats: README says {said[seats]}, measured {measured}"
        for seat, fills in filled.items():
            assert min(fills[:-1], default=1) >= report_pages.MOSTLY_EMPTY, f"{name} {seats} seats, {seat}: {fills}"


def _readme_pages() -> dict[str, dict[int, str]]:
    """The README's table of pages: ruleset -> seats -> "5", "5-6" or "-"."""
    text = README.read_text()
    table = text[text.index("| ruleset | 4 seats | 8 seats | 16 seats |") :].split("\n\n", 1)[0]
    rows = {}
    for line in table.splitlines()[2:]:
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        name = re.search(r"`(\w+)`", cells[0])
        assert name, line
        rows[name[1]] = dict(zip(report_pages.SEATS, cells[1:4], strict=True))
    return rows


@pytest.mark.parametrize("name", RULESETS)
def test_every_report_is_tagged_and_passes_a_pdf_ua_validator(rendered, name):
    _, pdf = next(iter(rendered(name).values()))
    report = page.validate_pdf_bytes(pdf, profile="ua1")
    failures = sorted({f"{f.rule_id}: {f.message}" for f in report.failures})
    assert report.is_compliant, "\n".join(failures)


@pytest.mark.parametrize("name", RULESETS)
def test_the_turns_pages_are_read_where_they_stand(rendered, name):
    """Each seat's tree holds every heading of its report, the turn's pages' (the scores, what
    happened this turn) among them, and no blank Art is left where the turn's pages lie."""
    html, pdf_bytes = next(iter(rendered(name).values()))
    pdf = pikepdf.open(io.BytesIO(pdf_bytes))
    document = pdf.Root.StructTreeRoot.K[0]
    tags = [str(kid.S) for kid in _elements(document)]
    assert "/Art" not in tags
    for level in ("h1", "h2", "h3"):
        assert tags.count(f"/{level.upper()}") == len(re.findall(f"<{level}[ >]", html)), level
    # The turn's pages hold marked content through their forms, each named in the parent tree.
    forms = [pdf.pages[n].Resources.XObject[k] for n in range(len(pdf.pages)) for k in _turn_forms(pdf.pages[n])]
    assert forms and all("/StructParents" in form for form in forms)


def _elements(element):
    for kid in element.get("/K", ()):
        if isinstance(kid, pikepdf.Dictionary) and "/S" in kid:
            yield kid
            yield from _elements(kid)


def _turn_forms(pdf_page) -> list[str]:
    xobjects = pdf_page.Resources.get("/XObject", {})
    return [key for key in xobjects.keys() if key.startswith("/GmTurnPage")]


def test_a_house_may_turn_tagging_off(tmp_path):
    """gm.toml's [reports] tagged = false: the reports are untagged PDFs (9-15 % less CPU);
    by default, and with true, tagged."""
    home = Home(tmp_path)
    assert budget_of(home).tagged is True
    (tmp_path / "gm.toml").write_text("[reports]\ntagged = false\n")
    assert budget_of(home).tagged is False
    ruleset = installed()["clash"]
    env = make_environment(None, template_dirs(ruleset))
    html = render_report_html(env, report_contexts(ruleset, 3, 1, 4)[0])
    dirs = tuple(str(d) for d in env.loader.searchpath)
    for tagged in (True, False):
        job = RenderJob(html, base_url(), CREATED, f"clash-1/1/{tagged}", tmp_path / f"{tagged}.pdf")
        Renderer().make(job, dirs, RenderBudget(tagged=tagged))
        with pikepdf.open(tmp_path / f"{tagged}.pdf") as pdf:
            assert ("/StructTreeRoot" in pdf.Root) is tagged


def test_the_standings_and_the_end_of_game_report_pass_too(env, strict_fetcher):
    """The other PDFs a player gets: the final standings and the end-of-game report with its slip."""
    pages = {
        "standings": render_standings_html(env, standings_context()),
        "end of game": env.get_template("endgame.html").render(endgame_context()),
    }
    for name, html in pages.items():
        pdf = html_to_pdf(
            html, base_url=base_url(), created=CREATED, identifier="clash-1/final", fetcher=strict_fetcher
        )
        report = page.validate_pdf_bytes(pdf, profile="ua1")
        assert report.is_compliant, (name, sorted({f"{f.rule_id}: {f.message}" for f in report.failures}))
