"""A form too long for one page: copied out of the PDF, no running header or footer lands among its orders."""

from __future__ import annotations

import subprocess

from gm.core.envelope import read_envelope
from gm.render.environment import base_url, render_report_html
from gm.render.pdf import html_to_pdf

from .sample_game import report_context


def test_a_form_over_several_pages_copies_out_clean(env, strict_fetcher, tmp_path):
    context = report_context()
    orders = [f"MOVE LON BRE {n}" if n % 4 == 0 else f"# a line of advice, number {n}" for n in range(150)]
    context["order_form"] = "\n".join(["GAME clash-1", "PLAYER BR", "PASSWORD x", "TURN 6", *orders, "END"])
    pdf = tmp_path / "report.pdf"
    pdf.write_bytes(
        html_to_pdf(
            render_report_html(env, context),
            base_url=base_url(),
            created="2026-11-21T19:00:00Z",
            identifier="clash-1/5/BR",
            fetcher=strict_fetcher,
        )
    )
    text = subprocess.run(["pdftotext", str(pdf), "-"], check=True, capture_output=True, text=True).stdout
    form = text[text.index("GAME clash-1") : text.index("\nEND\n") + 5]
    assert form.count("\f") >= 2  # it does run over pages
    envelope = read_envelope(form)
    assert envelope.problems == ()
    assert [text for _, text in envelope.lines] == [line for line in orders if not line.startswith("#")]
