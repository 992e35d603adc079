"""Benchmark of the turn kit (issue 34): what one seat's kit adds to a report's cost.

    .venv/bin/python bench/bench_turn_kit.py                          # Empires at 32 seats, 4 kits
    .venv/bin/python bench/bench_turn_kit.py --ruleset imperials --seats 4 --kits 4

Robots play `--turns` turns of the ruleset's default scenario (gm.testing.reports, no home, no
PDF), then `--kits` seats' kits are made as a report mail makes them (gm.render.kit.kit_html in
an environment made once, as turn_kits.py makes one per mail): the CPU time of each
(time.process_time, the first apart: it reads and compiles the template and draws the map
uncached), its bytes, what it adds to the mail (base64, 4/3 of it, lines of 76 and CRLF), and
the JSON report beside it for scale. Nothing is timed against the wall clock: the machine is
shared.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time

from gm.render.environment import make_environment
from gm.render.kit import kit_html
from gm.rulesets import get_ruleset, template_dirs
from gm.testing.reports import report_contexts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ruleset", default="empires")
    parser.add_argument("--seats", type=int, default=32)
    parser.add_argument("--turns", type=int, default=1)
    parser.add_argument("--kits", type=int, default=4)
    args = parser.parse_args()
    ruleset = get_ruleset(args.ruleset)
    contexts = report_contexts(ruleset, turns=args.turns, seats=args.seats)[: args.kits]
    env = make_environment(None, template_dirs(ruleset))
    cpu, sizes = [], []
    for context in contexts:
        started = time.process_time()
        page = kit_html(env, context, "gm@house.example").encode("utf-8")
        cpu.append(time.process_time() - started)
        sizes.append(len(page))
    report = max(len(json.dumps(c, sort_keys=True).encode("utf-8")) for c in contexts)
    mail = max(sizes) * 4 // 3 * 78 // 76
    print(f"{platform.python_version()} {args.ruleset}, {args.seats} seats, {args.turns} turn(s), {len(contexts)} kits")
    print(f"  CPU per kit: first {cpu[0] * 1000:.0f} ms, then median {statistics.median(cpu[1:] or cpu) * 1000:.0f} ms")
    print(f"  kit: {max(sizes) / 1000:.0f} kB at most; adds about {mail / 1000:.0f} kB to a report mail (base64)")
    print(f"  the JSON report beside it: {report / 1000:.0f} kB")


if __name__ == "__main__":
    main()
