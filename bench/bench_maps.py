"""Benchmark: what a report's maps cost per seat (issue 15's readable maps, against issue 18's budget).

    .venv/bin/python bench/bench_maps.py [--ruleset empires] [--seats 16] [--turns 3] [--repeat 3]

A robot game is played for --turns turns; then, for every seat of the last turn, in one process:
the maps' HTML (the region picture drawn by CairoSVG, the overlay with the seat's outlines and
arrows) and the whole report's PDF, with and without the region map. The shared board picture
is drawn once before (printed apart): it is once per turn, whatever the seats. CPU seconds of
this process (time.process_time), so other load on the machine counts less than in wall time.
"""

from __future__ import annotations

import argparse
import gc
import platform
import re
import statistics
import sys
import time
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gm.render import pictures, turnmap  # noqa: E402
from gm.render.environment import base_url, make_environment, render_report_html  # noqa: E402
from gm.render.fetcher import AssetFetcher  # noqa: E402
from gm.render.pdf import SharedImages, html_to_pdf, shared_images  # noqa: E402
from gm.rulesets import installed, template_dirs  # noqa: E402
from tests.render import ruleset_report  # noqa: E402

REGION = re.compile(r'<section class="map map-region">.*?</section>', re.S)


def cpu(function) -> float:
    gc.collect()
    start = time.process_time()
    function()
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ruleset", default="empires")
    parser.add_argument("--seats", type=int, default=0, help="default: the report tests' count")
    parser.add_argument("--turns", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    if args.seats:
        ruleset_report.SEATS[args.ruleset] = args.seats
    contexts = ruleset_report.report_contexts(args.ruleset, turns=args.turns)
    env = make_environment(None, template_dirs(installed()[args.ruleset]))
    view = contexts[0]["view"]
    names = {s["code"]: s.get("nation") or s["name"] for s in view["seats"]}
    sheet, figure_mm = turnmap.sheet_for(view["map"], view["seats"])
    board = cpu(lambda: turnmap.map_figure(view["map"], None, names, (), view["seats"], figure_mm))
    print(
        f"python {platform.python_version()}, {args.ruleset}, {len(contexts)} seats, turn {args.turns}, "
        f"board on {sheet.page or 'the first page'} ({figure_mm:.0f} mm wide)"
    )
    print(f"the shared board picture, once per turn: {board:.3f} CPU-s")

    maps, html_times, with_region, without_region, sizes = [], [], [], [], []
    fetcher, images = AssetFetcher([str(d) for d in env.loader.searchpath]), SharedImages()

    def seat_maps(context: dict) -> None:
        seat_view = context["view"]
        turnmap.map_sections(seat_view["map"], context["seat"], names, context["events"], seat_view["seats"])
        turnmap.board_sheet(seat_view["map"], context["seat"], names, context["events"], seat_view["seats"])

    def pdf_of(html: str) -> bytes:
        return html_to_pdf(
            html,
            base_url=base_url(),
            created="2026-11-21T19:00:00Z",
            identifier="bench",
            fetcher=fetcher,
            cache=images.cache_for(shared_images(html)),
        )

    for _ in range(args.repeat):
        pictures._pictures.clear()
        turnmap.map_figure(view["map"], None, names, (), view["seats"], figure_mm)  # the turn's board, drawn
        for context in contexts:
            maps.append(cpu(partial(seat_maps, context)))
            html = render_report_html(env, context)
            html_times.append(cpu(partial(render_report_html, env, context)))
            with_region.append(cpu(partial(pdf_of, html)))
            without_region.append(cpu(partial(pdf_of, REGION.sub("", html))))
            sizes.append(len(pdf_of(html)))
    med = statistics.median
    print(
        f"per seat, median of {len(maps)}: the maps' HTML (region picture, overlay) {med(maps):.3f} CPU-s; "
        f"the whole report's HTML {med(html_times):.3f}"
    )
    print(
        f"per seat, the PDF: {med(with_region):.3f} CPU-s with the region map, {med(without_region):.3f} without "
        f"(WeasyPrint's share of the region {med(with_region) - med(without_region):+.3f}); "
        f"PDF {med(sizes) / 1024:.0f} KB"
    )


if __name__ == "__main__":
    main()
