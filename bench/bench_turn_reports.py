"""Every seat's report of one turn, rendered in one process: CPU per report (issue 18's turn pages).

    .venv/bin/python bench/bench_turn_reports.py [--turns 3] [RULESET ...]

A robot game of each ruleset (tests/render/ruleset_report.py: the report tests' seat counts,
Empires 16, Conqueror 8) is played for --turns turns; every seat's report of the last turn is
made as gm makes it and rendered one after the other by one render worker (Renderer.write), so
a turn's pages (gm.render.turnpages) are laid out by the first report and reused by the others,
as in a worker of gm run-due. Prints, per ruleset, the CPU seconds of a report (time.process_time:
the mean, which carries the one layout of the turn's pages, the median and the first report),
the mean PDF size and the first seat's page count. Run it on two versions of gm (each from its own
checkout) to compare them; the machine's other load inflates both alike.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gm.render.environment import base_url, make_environment, render_report_html  # noqa: E402
from gm.render.worker import Renderer, RenderJob, shared_images  # noqa: E402
from gm.rulesets import installed, template_dirs  # noqa: E402
from tests.render import ruleset_report  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rulesets", nargs="*", help="default: every installed ruleset")
    parser.add_argument("--turns", type=int, default=3, help="turns the robots play first (default 3)")
    args = parser.parse_args()
    names = args.rulesets or sorted(installed())
    with tempfile.TemporaryDirectory() as folder:
        for name in names:
            contexts = ruleset_report.report_contexts(name, turns=args.turns)
            env = make_environment(None, template_dirs(installed()[name]))
            dirs = tuple(str(d) for d in env.loader.searchpath)
            renderer = Renderer()
            times, sizes = [], []
            for context in contexts:
                html = render_report_html(env, context)
                out = Path(folder) / name / f"{context['seat']}.pdf"
                job = RenderJob(
                    html, base_url(), context["created"], f"{name}/{context['seat']}", out, shared_images(html)
                )
                start = time.process_time()
                result = renderer.write(job, dirs)
                times.append(time.process_time() - start)
                sizes.append(result.size)
            first = Path(folder) / name / f"{contexts[0]['seat']}.pdf"
            info = subprocess.run(["pdfinfo", str(first)], capture_output=True, text=True).stdout
            pages = info.split("Pages:")[1].split()[0] if "Pages:" in info else "?"
            print(
                f"{name:10s} {len(contexts):2d} seats, turn {args.turns}: CPU a report mean {statistics.mean(times) * 1000:5.0f} ms,"
                f" median {statistics.median(times) * 1000:5.0f}, first {times[0] * 1000:5.0f};"
                f" PDF {statistics.mean(sizes) / 1024:4.0f} KB; {pages} pages",
                flush=True,
            )


if __name__ == "__main__":
    main()
