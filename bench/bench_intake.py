"""Benchmark of mail intake: messages per second through gm against the bare stdlib parse of the same mailbox."""
from __future__ import annotations

import argparse
import cProfile
import io
import mailbox
import os
import platform
import pstats
import random
import sys
import tempfile
import time
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

from gm.clock import SystemClock
from gm.home import Home, create_home
from gm.intake.sources import FileSource
from gm.intake.verified import VerifiedSecrets
from gm.seat_secrets import check_secret
from gm.rulesets import get_ruleset
from gm.services import games, turns
from gm.store import records
from gm.services.intake import Intake
from gm.store.database import open_database

# What a PBM house's mailbox holds, in per mille: most mail is a turn file in plain text; some
# comes as HTML or as an attachment; a few are wrong, chatter, or from robots.
MIX = {
    "plain": 600, "quoted-printable": 80, "html only": 80, "attachment": 60, "problems": 80,
    "chatter": 40, "auto-reply": 30, "unknown game": 28, "wrong password": 2,
}
GAMES, SEATS = 10, ("BR", "RU", "FR", "GE")


def make_house(home: Home) -> tuple[dict, dict]:
    """Ten running clash games of four seats; returns ({(game, seat): secret}, {(game, seat): orders})."""
    create_home(home)
    db = open_database(home.database)
    clock = SystemClock()
    secrets = {}
    for g in range(GAMES):
        name = f"house-{g}"
        games.create_game(db, clock, name, "clash", None, g)
        for seat in SEATS:
            secrets[(name, seat)] = games.join_game(db, clock, name, f"{seat.lower()}{g}@example.org",
                                                    f"Player {seat}{g}", seat)[1]
        # Mail comes in while a game runs: its state is stored, not made afresh for each check.
        turns.run_turn(db, home, clock, name)
    orders = {}
    ruleset = get_ruleset("clash")
    for name, seat in secrets:
        state = games.current_state(db, records.game_by_name(db, name))
        orders[(name, seat)] = "\n".join(o.text for o in ruleset.robot_orders(state, seat, random.Random(1)))
    settings = home.settings_file.read_text().replace('address = ""', 'address = "gm@example.org"')
    home.settings_file.write_text(settings)
    return secrets, orders


def one_mail(n: int, kind: str, house: tuple, rng: random.Random) -> bytes:
    secrets, orders = house
    game = f"house-{rng.randrange(GAMES)}"
    seat = rng.choice(SEATS)
    password = "not-the-secret" if kind == "wrong password" else secrets[(game, seat)]
    body = orders[(game, seat)] + ("\nFROBNICATE 3" if kind == "problems" else "")
    turn_file = f"GAME {game if kind != 'unknown game' else 'nosuch'}\nPLAYER {seat}\nPASSWORD {password}\n{body}\nEND\n"
    message = EmailMessage()
    message["From"] = f"Player {seat} <{seat.lower()}{game[-1]}@example.org>"
    message["To"] = "gm@example.org"
    message["Subject"] = f"orders {n}"
    message["Message-ID"] = f"<bench-{n}@example.org>"
    if kind == "auto-reply":
        message["Auto-Submitted"] = "auto-replied"
    text = f"Hello GM,\n\nhere are my orders.\n\n{turn_file}\nRegards, Zoë\n"
    if kind == "chatter":
        message.set_content("When is the next deadline? Thanks!\n")
    elif kind == "html only":
        message.set_content("<div>" + "</div><div>".join(text.splitlines()) + "</div>", subtype="html")
    elif kind == "quoted-printable":
        message.set_content(text + "é" * 3 + "x" * 90 + "\n", cte="quoted-printable")
    elif kind == "attachment":
        message.set_content("Orders attached.\n")
        message.add_attachment(turn_file.encode(), maintype="text", subtype="plain", filename="orders.txt")
    else:
        message.set_content(text)
    return message.as_bytes(policy=policy.SMTP)


def make_mailbox(path: Path, count: int, house: tuple, seed: int) -> dict:
    rng = random.Random(seed)
    kinds = [k for k, per_mille in MIX.items() for _ in range(per_mille)]
    box = mailbox.Maildir(path, create=True)
    made: dict[str, int] = {}
    for n in range(count):
        kind = rng.choice(kinds)
        made[kind] = made.get(kind, 0) + 1
        box.add(one_mail(n, kind, house, rng))
    return made


def bare_parse(path: Path) -> float:
    """What any mail reader must do at least: read each file, parse it with the modern policy,
    take the text body."""
    parser = BytesParser(policy=policy.default)
    start = time.perf_counter()
    for incoming in FileSource(path).messages():
        message = parser.parsebytes(incoming.raw)
        body = message.get_body(("plain", "html"))
        if body is not None:
            body.get_content()
    return time.perf_counter() - start


class TimedIntake(Intake):
    """Intake with a stopwatch on its two stages and on scrypt, to say what dominates."""

    def __post_init__(self):
        super().__post_init__()
        self.times = {"read": 0.0, "decide": 0.0, "scrypt": 0.0}
        self.scrypts = 0

        def timed_check(secret, stored):
            start = time.perf_counter()
            try:
                return check_secret(secret, stored)
            finally:
                self.times["scrypt"] += time.perf_counter() - start
                self.scrypts += 1

        self.secrets = VerifiedSecrets(timed_check)

    def read(self, incoming, sync):
        start = time.perf_counter()
        try:
            return super().read(incoming, sync)
        finally:
            self.times["read"] += time.perf_counter() - start

    def decide(self, item):
        start = time.perf_counter()
        try:
            return super().decide(item)
        finally:
            self.times["decide"] += time.perf_counter() - start


def intake(home: Home, path: Path, profile: bool) -> tuple[float, dict, TimedIntake, str]:
    db = open_database(home.database)
    run = TimedIntake(db, home, SystemClock(), "import")
    profiler = cProfile.Profile() if profile else None
    outcomes: dict[str, int] = {}
    start = time.perf_counter()
    if profiler:
        profiler.enable()
    for taken in run.take_all(FileSource(path)):
        outcomes[taken.outcome] = outcomes.get(taken.outcome, 0) + 1
    if profiler:
        profiler.disable()
    elapsed = time.perf_counter() - start
    report = ""
    if profiler:
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(25)
        report = out.getvalue()
    return elapsed, outcomes, run, report


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__)
    options.add_argument("--messages", type=int, default=10_000)
    options.add_argument("--seed", type=int, default=1)
    options.add_argument("--profile", action="store_true", help="print where intake spends its time")
    args = options.parse_args()
    with tempfile.TemporaryDirectory(prefix="gm-bench-intake-") as folder:
        home = Home(Path(folder) / "home")
        house = make_house(home)
        path = Path(folder) / "Maildir"
        made = make_mailbox(path, args.messages, house, args.seed)
        size = sum(f.stat().st_size for f in path.rglob("*") if f.is_file())
        print(f"python {platform.python_version()}, {os.cpu_count()} CPUs, {args.messages} messages "
              f"({size / 1e6:.1f} MB): " + ", ".join(f"{n} {k}" for k, n in sorted(made.items(), key=lambda i: -i[1])))
        before = bare_parse(path)
        took, outcomes, run, profile = intake(home, path, args.profile)
        after = bare_parse(path)
        bare = min(before, after)
        rate, bare_rate = args.messages / took, args.messages / bare
        print(f"bare stdlib parse: {args.messages / before:.0f} msg/s before, {args.messages / after:.0f} msg/s after "
              f"(best {bare:.2f} s)")
        print(f"gm intake (archive, parse, find, authenticate, check, store, answer, record): {rate:.0f} msg/s "
              f"({took:.2f} s); " + ", ".join(f"{n} {k}" for k, n in sorted(outcomes.items())))
        print(f"intake / bare parse = {rate / bare_rate:.2f} (target >= 0.9)")
        times = run.times
        rest = took - times["read"] - times["decide"]
        print(f"where intake's {took:.2f} s went: archive+parse+find {times['read']:.2f} s "
              f"({times['read'] / bare:.2f}x the bare parse); submit+check+answer+record {times['decide']:.2f} s, "
              f"of which scrypt {times['scrypt']:.2f} s ({run.scrypts} checks: {len(house[0])} seats once each, "
              f"the rest wrong passwords); forcing to disk and the source {rest:.2f} s")
        if profile:
            print(profile)


if __name__ == "__main__":
    sys.exit(main())
