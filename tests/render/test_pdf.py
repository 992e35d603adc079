"""HTML to PDF: the same report gives the same bytes, dated by the report, not by the clock."""
from __future__ import annotations

import subprocess

import pytest

from gm.render.environment import base_url, render_report_html, render_standings_html
from gm.render.pdf import font_configuration, html_to_pdf

from .sample_game import report_context, standings_context


def to_pdf(html, fetcher, created="2026-11-21T19:00:00Z", identifier="clash-1/5/BR"):
    return html_to_pdf(html, base_url=base_url(), created=created, identifier=identifier, fetcher=fetcher)


def test_the_same_report_gives_identical_bytes(env, strict_fetcher):
    html = render_report_html(env, report_context())
    assert to_pdf(html, strict_fetcher) == to_pdf(html, strict_fetcher)


def test_the_identifier_and_date_are_what_change_the_bytes(env, strict_fetcher):
    html = render_standings_html(env, standings_context())
    first = to_pdf(html, strict_fetcher)
    assert to_pdf(html, strict_fetcher, identifier="other") != first
    assert to_pdf(html, strict_fetcher, created="2027-01-01T00:00:00Z") != first


def test_the_pdf_carries_the_report_date(env, strict_fetcher, tmp_path):
    path = tmp_path / "r.pdf"
    path.write_bytes(to_pdf(render_report_html(env, report_context()), strict_fetcher))
    info = subprocess.run(["pdfinfo", str(path)], check=True, capture_output=True, text=True).stdout
    assert "Title:" in info and "Round 3 of 30" in info
    assert "Pages:           3" in info
    creation = next(line for line in info.splitlines() if line.startswith("CreationDate:"))
    assert "2026" in creation and "Nov 21" in creation
    assert "Page size:       595.276 x 841.89 pts (A4)" in info


@pytest.mark.parametrize("created", ["yesterday", "2026-11-21", "2026-11-21 19:00", ""])
def test_a_date_weasyprint_would_drop_is_refused(strict_fetcher, created):
    with pytest.raises(ValueError, match="W3C"):
        to_pdf("<p>x</p>", strict_fetcher, created=created)


def test_one_font_configuration_per_process():
    assert font_configuration() is font_configuration()
