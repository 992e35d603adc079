"""The JSON twin of a seat's report: Python's json against orjson, as gm writes it (issue 32).

    .venv/bin/python bench/bench_twin.py [--turns 10] [--rounds 5]

One robot game of each ruleset (Empires 16 seats, Conqueror 8, the others their demo's seats)
plays `--turns` turns; then every seat's twin of the last turn is written both ways from the
same context: `json.dumps(indent=2, sort_keys=True, ensure_ascii=False)` (with an indent Python's
json leaves its C encoder for the pure-Python one) and `gm.services.reports._json_bytes`
(orjson). CPU time in this process, the best of `--rounds` for each twin, and whether the two
gave the same bytes. Both run in the one process, one after the other, so the machine's load
falls on both alike: read the ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import tempfile
import time
from pathlib import Path
from typing import Any

from bench_stages import seat_job

from gm import report_format
from gm.services import reports

RULESETS = ("empires", "conqueror", "clash", "mcempires", "imperials")


def contexts(root: Path, ruleset: str, played: int) -> list[dict[str, Any]]:
    """The stamped contexts of every seat's twin of the last of `played` robot turns, as
    bench_stages' seat_job makes that turn's reports (its game, seats and robots)."""
    seen: list[dict[str, Any]] = []
    writer = reports._json_bytes

    def keep(context: Any, kind: report_format.Kind) -> bytes:
        seen.append(report_format.stamped(context, kind))
        return writer(context, kind)

    reports._json_bytes = keep
    try:
        seat_job(root, ruleset, played)
    finally:
        reports._json_bytes = writer
    return seen


def best(rounds: int, work: Any) -> tuple[float, bytes]:
    times, out = [], b""
    for _ in range(rounds):
        start = time.process_time()
        out = work()
        times.append(time.process_time() - start)
    return min(times), out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    print(
        f"python {platform.python_version()}, {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}; "
        f"turn {args.turns}, every seat's twin, CPU ms, best of {args.rounds}"
    )
    with tempfile.TemporaryDirectory() as folder:
        for ruleset in RULESETS:
            stamped = contexts(Path(folder), ruleset, args.turns)
            python = orjson = 0.0
            same = size = 0
            for value in stamped:
                slow, a = best(
                    args.rounds,
                    lambda v=value: (json.dumps(v, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode(),
                )
                fast, b = best(args.rounds, lambda v=value: reports._json_bytes(v, v["report"]))
                python, orjson, same, size = python + slow, orjson + fast, same + (a == b), size + len(a)
            n = len(stamped)
            print(
                f"{ruleset:>10}: {n} twins of {size // n // 1000} KB; json {python / n * 1000:.2f} ms, orjson "
                f"{orjson / n * 1000:.2f} ms a twin ({orjson / python:.3f} of json); the same bytes {same}/{n}"
            )


if __name__ == "__main__":
    main()
