"""Hidden information in what a seat receives (D-ALL-5), over seeded robot games.

    .venv/bin/python bench/bench_hidden.py --ruleset empires [--games 3] [--turns 8] [--seed 9]

The contract's hidden check (gm.testing.suite.HiddenCheck) compares views and order forms; this
looks at what the views become. After every turn of `--games` robot games (gm.testing.battery's
seeded set-ups), for seats A and B:

- B's secrets changed (the ruleset's hidden_variant): A's report HTML (the shared turn pages
  are cut from it), its JSON twin (the turn kit and the portal read it) and the check of A's
  next orders (its acknowledgement) must be byte for byte the same;
- the text of every event only B may read must not be in A's report HTML or JSON twin.

It prints what it compared and every finding, and exits 1 on any. Not run by the test suite.
"""

from __future__ import annotations

import argparse
import sys
from random import Random
from typing import Any

from bench_invariants import named_rulesets  # this folder is on sys.path when the bench runs

from gm.core.model import Event, JSONObject, SeatInfo
from gm.core.ruleset import Ruleset, TurnSeeds
from gm.render.environment import make_environment, render_report_html
from gm.rulesets import template_dirs
from gm.services.reports import _json_bytes
from gm.testing.battery import draw_setup, robot_turn, stored
from gm.testing.reports import context_of


class Look:
    """One ruleset's games being looked at: counts and findings."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self.env = make_environment(None, template_dirs(ruleset))
        self.counts = {"variants": 0, "acknowledgements": 0, "private texts": 0}
        self.findings: list[str] = []

    def received(
        self, before: JSONObject, state: JSONObject, events: Any, seat: str, turn: int, codes: list[str]
    ) -> tuple[str, bytes]:
        context = context_of(self.ruleset, before, state, events, seat, turn, codes)
        return render_report_html(self.env, context), _json_bytes(context, "turn")

    def problems(self, state: JSONObject, seat: str, rng: Random) -> list[str]:
        mine = self.ruleset.robot_orders(state, seat, rng)
        found = [*self.ruleset.check_orders(state, seat, mine), *self.ruleset.order_warnings(state, seat, mine)]
        return [str(p) for p in found]

    def game(self, seed: int, turns: int) -> None:
        setup, scenario = draw_setup(self.ruleset, seed)
        codes = list(setup.seats)
        if len(codes) < 2:
            return
        state = self.ruleset.new_game(scenario, [SeatInfo(c, f"Player {c}") for c in codes], TurnSeeds(seed, 0))
        for turn in range(1, turns + 1):
            if self.ruleset.is_over(state):
                return
            seeds = TurnSeeds(seed, turn)
            result = self.ruleset.resolve(state, stored(robot_turn(self.ruleset, state, tuple(codes), seeds)), seeds)
            seen = {a: self.received(state, result.state, result.events, a, turn, codes) for a in codes}
            where = f"seed {seed} turn {turn}"
            self.variants(state, result.state, result.events, seen, codes, turn, where)
            self.private_texts(result.events, seen, where)
            state = result.state

    def variants(
        self,
        before: JSONObject,
        state: JSONObject,
        events: Any,
        seen: dict[str, tuple[str, bytes]],
        codes: list[str],
        turn: int,
        where: str,
    ) -> None:
        for owner in codes:
            other = self.ruleset.hidden_variant(state, owner, Random(turn))
            if other is None:
                return
            for seat in (c for c in codes if c != owner):
                self.counts["variants"] += 1
                got = self.received(before, other, events, seat, turn, codes)
                for name, was, now in zip(("report", "JSON twin"), seen[seat], got):
                    if was != now:
                        self.findings.append(f"{where}: {owner}'s secrets change {seat}'s {name}")
                self.counts["acknowledgements"] += 1
                if self.problems(state, seat, Random(turn)) != self.problems(other, seat, Random(turn)):
                    self.findings.append(f"{where}: {owner}'s secrets change the check of {seat}'s orders")

    def private_texts(self, events: Any, seen: dict[str, tuple[str, bytes]], where: str) -> None:
        for event in events:
            assert isinstance(event, Event)
            text = event.data.get("text")
            if event.seats is None or not isinstance(text, str) or not text:
                continue
            for seat, (html, twin) in seen.items():
                if seat in event.seats:
                    continue
                self.counts["private texts"] += 1
                if text in html or text in twin.decode("utf-8"):
                    self.findings.append(f"{where}: {seat} reads {event.kind} of {', '.join(event.seats)}: {text}")


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--ruleset", action="append", help="a ruleset to look at (repeatable); default: every one")
    parser.add_argument("--games", type=int, default=3, help="seeded games per ruleset")
    parser.add_argument("--turns", type=int, default=8, help="turns of each game at most")
    parser.add_argument("--seed", type=int, default=9, help="the first game's seed")
    args = parser.parse_args()
    rulesets, names = named_rulesets(args.ruleset)
    if not names:
        return 2
    found = 0
    for name in names:
        look = Look(rulesets[name])
        for seed in range(args.seed, args.seed + args.games):
            look.game(seed, args.turns)
        compared = ", ".join(f"{n} {label}" for label, n in look.counts.items())
        print(f"{name}: {len(look.findings)} findings; compared {compared}")
        for line in look.findings:
            print(f"  {line}")
        found += len(look.findings)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
