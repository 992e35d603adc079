"""Benchmark of report rendering: gm vs bare WeasyPrint, 1 vs 2 workers, worker memory; or
(--tagging) the CPU a tagged report (PDF/UA-1) costs against the same report untagged."""

from __future__ import annotations

import argparse
import gc
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

import weasyprint

from gm.render import pdf as pdf_module, turnpages
from gm.render.environment import asset_dirs, base_url, make_environment, package_templates_dir, render_report_html
from gm.render.fetcher import AssetFetcher
from gm.render.pdf import SharedImages, html_to_pdf, render_report, shared_images
from gm.render.pool import RenderJob, render_pdfs
from gm.rulesets import get_ruleset, template_dirs

CREATED = "2026-11-21T19:00:00Z"


def contexts(turns: int, ruleset: str | None = None) -> list[dict]:
    """Every report context of a 4-seat game over `turns` turns; or, for a ruleset, one report
    of each of `turns` robot games of it (turn 1 of its default scenario, the first seat)."""
    # The fake 4-seat, 24-territory Clash game lives with the render tests; the bench reuses it,
    # and the render tests' report context of any installed ruleset.
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "render"))
    if ruleset:
        import ruleset_report

        return [ruleset_report.report_context(ruleset, seed) for seed in range(1, turns + 1)]
    import sample_game

    return [sample_game.report_context(seat[0], turn) for turn in range(1, turns + 1) for seat in sample_game.SEATS]


def per_report(env, sample: list[dict], rounds: int) -> tuple[list[float], list[float]]:
    """Seconds per report: gm (template + PDF) and WeasyPrint alone on the same HTML.

    The two alternate, in both orders, so drift of the machine (other processes, CPU clock) hits
    both alike; a collection before each run keeps one side's garbage off the other's clock.
    """
    fetcher, images = AssetFetcher(asset_dirs(env)), SharedImages()

    def gm_render(context):
        html = render_report_html(env, context)
        html_to_pdf(
            html,
            base_url=base_url(),
            created=CREATED,
            identifier="bench",
            fetcher=fetcher,
            cache=images.cache_for(shared_images(html)),
        )

    ready = {id(context): render_report_html(env, context) for context in sample}

    def bare_render(context):
        weasyprint.HTML(string=ready[id(context)], base_url=base_url()).write_pdf()

    times = {gm_render: [], bare_render: []}
    for round_ in range(rounds):
        for context in sample:
            for render in (gm_render, bare_render) if round_ % 2 == 0 else (bare_render, gm_render):
                gc.collect()
                start = time.perf_counter()
                render(context)
                times[render].append(time.perf_counter() - start)
    return times[gm_render], times[bare_render]


def all_reports(env, every: list[dict], workers: int, out: Path) -> tuple[float, list]:
    """Wall seconds to render every report (templates in this process, PDFs in `workers`)."""
    start = time.perf_counter()
    pages = [render_report_html(env, c) for c in every]
    jobs = [
        RenderJob(
            html,
            base_url(),
            CREATED,
            f"{c['game']['name']}/{c['turn']}/{c['seat']}",
            out / f"{workers}w-turn{c['turn']}-{c['seat']}.pdf",
            shared_images(html),
        )
        for c, html in zip(every, pages)
    ]
    results = render_pdfs(jobs, workers, asset_dirs=asset_dirs(env))
    return time.perf_counter() - start, results


def tagging(rulesets: list[str], rounds: int) -> None:
    """CPU per report, tagged (gm's way) and untagged, alternating: every seat's report of a
    robot game's turn 3 (each ruleset's seats as in the render tests), the turn's pages laid out
    once a round for each side (each side keeps its own, as a worker of its own would)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "render"))
    import ruleset_report

    for name in rulesets:
        env = make_environment(None, template_dirs(get_ruleset(name)))
        fetcher, images = AssetFetcher(asset_dirs(env)), SharedImages()
        pages = [render_report_html(env, c) for c in ruleset_report.report_contexts(name, 3, 3)]
        sides: dict[bool, list[float]] = {True: [], False: []}
        for round_ in range(rounds):
            for tagged in (True, False) if round_ % 2 == 0 else (False, True):
                pdf_module._turn_pages = turnpages.TurnPagesCache()  # this side's turn, laid out anew
                gc.collect()
                start = time.process_time()
                for html in pages:
                    cache = images.cache_for(shared_images(html))
                    render_report(
                        html,
                        base_url=base_url(),
                        created=CREATED,
                        identifier="b",
                        fetcher=fetcher,
                        cache=cache,
                        tagged=tagged,
                    )
                sides[tagged].append((time.process_time() - start) / len(pages))
        with_tags, plain = statistics.median(sides[True][1:]), statistics.median(sides[False][1:])
        print(
            f"{name}, {len(pages)} seats: tagged {with_tags * 1000:.0f} ms, untagged {plain * 1000:.0f} ms CPU a report "
            f"(median of {rounds - 1} rounds after the first), +{(with_tags / plain - 1) * 100:.1f} %"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--turns", type=int, default=10, help="turns of the 4-seat game (default 10)")
    parser.add_argument("--rounds", type=int, default=4, help="rounds of the per-report comparison")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each worker count (default 3)")
    parser.add_argument(
        "--ruleset",
        help="render this ruleset's reports instead of the Clash sample game "
        "(--turns of them, each from a robot game's first turn)",
    )
    parser.add_argument(
        "--tagging",
        nargs="*",
        metavar="RULESET",
        help="CPU per report tagged vs untagged, every seat of turn 3 (default: every ruleset), --rounds rounds",
    )
    args = parser.parse_args()
    if args.tagging is not None:
        tagging(args.tagging or ["clash", "conqueror", "empires", "imperials", "mcempires"], max(args.rounds, 3))
        return

    package = f"gm_games.{args.ruleset or 'clash'}.templates"
    env = make_environment(None, [package_templates_dir(package)])
    every = contexts(args.turns, args.ruleset)
    what = f"{args.ruleset}, turn 1, first seat" if args.ruleset else f"4 seats x {args.turns} turns"
    print(
        f"python {platform.python_version()}, weasyprint {weasyprint.__version__}, {os.cpu_count()} CPUs, "
        f"{len(every)} reports ({what})"
    )

    per_report(env, every[:2], 1)  # warm up imports, fonts, caches
    gm_times, bare_times = per_report(env, every[:4], args.rounds)
    gm_median, bare_median = statistics.median(gm_times), statistics.median(bare_times)
    print(
        f"(a) per report, median of {len(gm_times)}: gm {gm_median * 1000:.0f} ms, WeasyPrint alone "
        f"{bare_median * 1000:.0f} ms, gm/WeasyPrint = {gm_median / bare_median:.3f} (target <= 1.05); "
        f"fastest {min(gm_times) * 1000:.0f} vs {min(bare_times) * 1000:.0f} ms"
    )

    # Best of --repeat alternating runs: on a shared machine a neighbour's burst lands on one run.
    ones, twos = [], []
    with tempfile.TemporaryDirectory() as folder:
        # The first pool of a process also starts the fork server (a Python that imports
        # WeasyPrint once, about 0.5 s); later pools fork from it at once.
        cold, _ = all_reports(env, every, 2, Path(folder))
        for _ in range(args.repeat):
            ones.append(all_reports(env, every, 1, Path(folder))[0])
            seconds, results = all_reports(env, every, 2, Path(folder))
            twos.append(seconds)
    one, two = min(ones), min(twos)
    print(
        f"(b) all reports, best of {args.repeat}: 1 worker {one:.2f} s, 2 workers {two:.2f} s, "
        f"speed-up {one / two:.2f}x (target >= 1.8x); first pool of the process {cold:.2f} s, {one / cold:.2f}x"
    )
    print(f"    runs: 1 worker {', '.join(f'{x:.2f}' for x in ones)}; 2 workers {', '.join(f'{x:.2f}' for x in twos)}")

    peaks = {}
    for result in results:
        peaks[result.pid] = max(peaks.get(result.pid, 0), result.peak_rss_kb)
    worst = max(peaks.values()) / 1024
    print(
        f"(c) peak RSS per worker: {', '.join(f'{kb / 1024:.0f} MB' for kb in peaks.values())}; "
        f"max {worst:.0f} MB (target <= 150 MB)"
    )


if __name__ == "__main__":
    main()
