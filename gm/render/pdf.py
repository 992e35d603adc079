"""HTML to PDF through WeasyPrint, with fixed metadata so the same report gives the same bytes."""
from __future__ import annotations

import re

from weasyprint import HTML
from weasyprint.text.fonts import FontConfiguration

from gm.render.fetcher import AssetFetcher

# WeasyPrint only understands W3C dates; anything else it drops with a warning, which would make
# the PDF's date silently vanish. Refuse it here instead.
_W3C_DATE = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?(Z|[+-]\d{2}:\d{2})")

_font_config: FontConfiguration | None = None


def font_configuration() -> FontConfiguration:
    """The process's FontConfiguration: reusing it saves a few percent per render and memory."""
    global _font_config
    if _font_config is None:
        _font_config = FontConfiguration()
    return _font_config


def html_to_pdf(html: str, *, base_url: str, created: str, identifier: str, fetcher: AssetFetcher) -> bytes:
    """Render `html` to PDF bytes; every resource goes through `fetcher`.

    created: the report's date as W3C datetime ("2026-11-21T19:00:00Z"); it becomes the PDF's
        creation and modification date instead of the clock.
    identifier: a stable id for the document (e.g. "clash-1/5/BR"); it becomes the PDF /ID
        instead of a hash that would differ between runs.
    """
    if not _W3C_DATE.fullmatch(created):
        raise ValueError(f"created must be a W3C datetime like 2026-11-21T19:00:00Z, not {created!r}")
    document = HTML(string=html, base_url=base_url, url_fetcher=fetcher).render(
        font_config=font_configuration()
    )
    # Set here rather than trusting the template's <meta>, so an overriding GM template that
    # forgets it cannot make PDFs differ run to run.
    document.metadata.created = created
    document.metadata.modified = created
    return document.write_pdf(pdf_identifier=identifier.encode("utf-8"))
