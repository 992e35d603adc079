"""A form that runs over a page: it starts where the report ends, and copied out of the PDF, no
running header or footer lands among its orders (they read as comments)."""

from __future__ import annotations

import subprocess

from gm.core.envelope import read_envelope
from gm.render.environment import base_url, render_report_html
from gm.render.pdf import html_to_pdf

from .sample_game import report_context


def _orders(count: int) -> list[str]:
    return [f"MOVE LON BRE {n}" if n % 4 == 0 else f"# a line of advice, number {n}" for n in range(count)]


def _copied_out(env, fetcher, tmp_path, orders: list[str]) -> str:
    """The text of the sample report with a form of `orders`, as pdftotext copies it."""
    context = report_context()
    context["order_form"] = "\n".join(["GAME clash-1", "PLAYER BR", "PASSWORD x", "TURN 6", *orders, "END"])
    pdf = tmp_path / "report.pdf"
    pdf.write_bytes(
        html_to_pdf(
            render_report_html(env, context),
            base_url=base_url(),
            created="2026-11-21T19:00:00Z",
            identifier="clash-1/5/BR",
            fetcher=fetcher,
        )
    )
    return subprocess.run(["pdftotext", str(pdf), "-"], check=True, capture_output=True, text=True).stdout


def _assert_reads_as(form: str, orders: list[str]) -> None:
    envelope = read_envelope(form)
    assert envelope.problems == ()
    assert [text for _, text in envelope.lines] == [line for line in orders if not line.startswith("#")]


def test_a_form_over_several_pages_copies_out_clean(env, strict_fetcher, tmp_path):
    orders = _orders(150)
    text = _copied_out(env, strict_fetcher, tmp_path, orders)
    form = text[text.index("GAME clash-1") : text.index("\nEND\n") + 5]
    assert form.count("\f") >= 2  # it does run over pages
    _assert_reads_as(form, orders)


def test_a_form_longer_than_the_room_left_starts_under_the_report_and_copies_out_clean(env, strict_fetcher, tmp_path):
    """looks11 saw forms of 20-40 lines, kept whole, go to a page of their own and leave half the
    page before them empty. The form starts where the report ends, its heading and hint with it,
    and runs on over the page; copied out, the footer and the next page's header between its
    lines are comments."""
    orders = _orders(40)
    text = _copied_out(env, strict_fetcher, tmp_path, orders)
    heading = text.index("Your orders for turn")
    page_before = text[text.rindex("\f", 0, heading) + 1 : heading]
    assert "page " not in page_before and page_before.strip()  # the report's own text above it
    form = text[text.index("GAME clash-1") : text.index("\nEND\n") + 5]
    assert form.count("\f") == 1  # it does run over the page
    _assert_reads_as(form, orders)
