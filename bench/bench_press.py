"""A report's pages and CPU with its press budget full, in the shapes a hostile player would pick.

    .venv/bin/python bench/bench_press.py [--turns 3] [--rounds 3] [RULESET ...]

For each ruleset (tests/render/ruleset_report.py: a robot game played --turns turns), the first
seat's report is rendered by one render worker (Renderer.make, with the default render budget
off so nothing is cut short) without press, and with the press a flood leaves in it once the
press budget (gm/core/press_budget.py) has cut it: every other seat (or one, or anonymous)
sending 50 messages of 5,000 characters in one shape (one character a line, prose, one word of
5,000 letters, CJK, letters under nine combining marks each, 50 two-word notes). Prints, per
shape, the median CPU seconds of the render (time.process_time) and the PDF's pages. The
numbers behind gm/core/press_budget.py and gm/render/budget.py (bench/README.md).
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

from gm.core.press_budget import fit  # noqa: E402
from gm.render.environment import base_url, make_environment, render_report_html  # noqa: E402
from gm.render.worker import Renderer, RenderJob, shared_images  # noqa: E402
from gm.rulesets import installed, template_dirs  # noqa: E402
from tests.render import ruleset_report  # noqa: E402

LENGTH = 5_000
SHAPES = {
    "lines": "\n".join("x" * (LENGTH // 2)),
    "prose": ("Shall we share Burgundy this spring? I hold the pass. " * 100)[:LENGTH],
    "one word": "W" * LENGTH,
    "CJK": "漢" * LENGTH,
    "combining": ("a" + "\u0301" * 9) * (LENGTH // 10),
}


def flood(senders: list[str], text: str, count: int = 50) -> list[dict]:
    """What report_press gives a reader: the senders' messages in turn, cut by the budget."""
    sent = [(sender, text) for _ in range(count) for sender in senders]
    return [
        {"kind": "press", "from": s, "mine": False, "to": "you", "sent": "2026-11-20T10:15:00Z", "text": p.text}
        | {"cut": None if p.whole else {"lines": p.lines_left, "characters": p.characters_left}}
        for (s, _), p in zip(sent, fit(sent))
        if p.shown
    ]


def cases(others: list[str]) -> dict[str, list[dict]]:
    found: dict[str, list[dict]] = {"no press": []}
    for name, text in SHAPES.items():
        found[f"{name}, one sender"] = flood(others[:1], text)
        found[f"{name}, every sender"] = flood(others, text)
    found["50 notes, every sender"] = flood(others, "See you.")
    found["anonymous lines"] = flood(["anonymous"], SHAPES["lines"])
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rulesets", nargs="*", help="default: every installed ruleset")
    parser.add_argument("--turns", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for name in args.rulesets or sorted(installed()):
            contexts = ruleset_report.report_contexts(name, turns=args.turns)
            context = contexts[0]
            others = [c["seat"] for c in contexts[1:]]
            env = make_environment(None, template_dirs(installed()[name]))
            dirs = tuple(str(d) for d in env.loader.searchpath)
            renderer = Renderer()
            for case, press in cases(others).items():
                html = render_report_html(env, dict(context, press=press))
                out = Path(folder) / f"{name}.pdf"
                job = RenderJob(html, base_url(), context["created"], f"{name}/1", out, shared_images(html))
                times = []
                for _ in range(args.rounds):
                    start = time.process_time()
                    renderer.make(job, dirs, None)
                    times.append(time.process_time() - start)
                info = subprocess.run(["pdfinfo", str(out)], capture_output=True, text=True).stdout
                print(
                    f"{name:10s} {case:26s} CPU {statistics.median(times):5.2f} s  "
                    f"{info.split('Pages:')[1].split()[0]:>3} pages",
                    flush=True,
                )


if __name__ == "__main__":
    main()
