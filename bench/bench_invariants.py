"""The robot-game invariant battery (issue 27) over N seeded games of each ruleset.

    .venv/bin/python bench/bench_invariants.py [--ruleset clash] [--games 100] [--seed 1] [--jobs 2]

For each ruleset (every installed one unless --ruleset names some; repeat it for several) plays
--games robot games with seeds --seed, --seed + 1, ... (gm.testing.battery: scenario, options
and seats drawn from the seed), checks every turn against the ruleset's rule-book invariants and
the generic ones, and prints the games, turns, findings by invariant, the first findings, the
order verbs the robots gave and the CPU time. Exits 1 on any finding, so a run is a test too.
Not run by the test suite (tests/testing/test_battery.py runs a few dozen games a ruleset).
"""

from __future__ import annotations

import argparse
import platform
import sys
import time

from gm.rulesets import Guarded, installed
from gm.testing.battery import TURN_CAP, BatteryReport, run_battery


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", action="append", help="a ruleset to run (repeatable); default: every one")
    parser.add_argument("--games", type=int, default=100, help="seeded games per ruleset")
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed")
    parser.add_argument("--jobs", type=int, default=1, help="processes playing games at once")
    parser.add_argument("--cap", type=int, default=TURN_CAP, help="turns after which a game not over is a finding")
    parser.add_argument("--show", type=int, default=10, help="findings printed per ruleset")
    args = parser.parse_args()
    rulesets, names = named_rulesets(args.ruleset)
    if not names:
        return 2
    print(f"python {platform.python_version()}, {args.games} games a ruleset from seed {args.seed}, {args.jobs} jobs")
    found = 0
    for name in names:
        began = time.perf_counter()
        report = run_battery(rulesets[name], args.games, args.seed, args.cap, args.jobs)
        print_report(report, time.perf_counter() - began, args.show)
        found += len(report.findings)
    return 1 if found else 0


def named_rulesets(asked: list[str] | None) -> tuple[dict[str, Guarded], list[str]]:
    """The installed rulesets and the names asked for (every one by default); no names, with
    the error printed, when one is not installed."""
    rulesets = installed()
    names = asked or sorted(rulesets)
    unknown = [name for name in names if name not in rulesets]
    if unknown:
        print(f"Error: no ruleset {unknown[0]!r} is installed. Installed: {', '.join(sorted(rulesets))}.")
        return rulesets, []
    return rulesets, names


def print_report(report: BatteryReport, wall: float, shown: int) -> None:
    lines = report.summary(shown)
    print(f"{lines[0]}, wall {wall:.1f} s")
    for line in lines[1:]:
        print(line)
    verbs = ", ".join(f"{verb} {count}" for verb, count in sorted(report.verbs().items()))
    print(f"  order verbs the robots gave: {verbs}")


if __name__ == "__main__":
    sys.exit(main())
