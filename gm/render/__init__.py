"""Reports: Jinja2 templates to HTML, HTML to PDF through a locked-down URL fetcher, maps as SVG."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the names' types for mypy; at run time they load on first use (below)
    from gm.render.budget import OverBudget, RenderBudget
    from gm.render.environment import (
        asset_dirs,
        base_url,
        make_environment,
        package_templates_dir,
        render_report_html,
        render_standings_html,
        shared_templates_dir,
        template_dirs,
    )
    from gm.render.fetcher import AssetFetcher, RefusedURL
    from gm.render.pdf import html_to_pdf
    from gm.render.pool import Batch, RenderJob, RenderPool, RenderResult, render_outcomes, render_pdfs
    from gm.render.svgmap import svg_map

# Importing WeasyPrint takes about half a second; names load on first use so a command that only
# needs templates (an order form, an acknowledgement) does not pay for it.
_EXPORTS = {
    "asset_dirs": "environment",
    "base_url": "environment",
    "make_environment": "environment",
    "package_templates_dir": "environment",
    "render_report_html": "environment",
    "render_standings_html": "environment",
    "shared_templates_dir": "environment",
    "template_dirs": "environment",
    "AssetFetcher": "fetcher",
    "RefusedURL": "fetcher",
    "html_to_pdf": "pdf",
    "Batch": "pool",
    "OverBudget": "budget",
    "RenderBudget": "budget",
    "RenderJob": "pool",
    "RenderPool": "pool",
    "RenderResult": "pool",
    "render_outcomes": "pool",
    "render_pdfs": "pool",
    "svg_map": "svgmap",
}

__all__ = [
    "AssetFetcher",
    "Batch",
    "OverBudget",
    "RefusedURL",
    "RenderBudget",
    "RenderJob",
    "RenderPool",
    "RenderResult",
    "asset_dirs",
    "base_url",
    "html_to_pdf",
    "make_environment",
    "package_templates_dir",
    "render_outcomes",
    "render_pdfs",
    "render_report_html",
    "render_standings_html",
    "shared_templates_dir",
    "svg_map",
    "template_dirs",
]


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{_EXPORTS[name]}"), name)
