"""Benchmark of mail intake: messages per second, and CPU a message, through gm against the bare stdlib parse of the same mailbox.

CPU: the bare parse's is this process's (`time.process_time`). Intake's is this process's, its
secret-check threads included (`process_time` counts every thread, ended ones too), plus its
reader processes': `RUSAGE_CHILDREN` read before and after the round, after the pool is shut
down and each reader waited for (`Readers` terminates and joins them), so the kernel has added
every reader's whole CPU to this process's children's total, to its last tick, with no sampling.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import mailbox
import os
import platform
import pstats
import random
import resource
import shutil
import statistics
import sys
import tempfile
import time
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path
from types import SimpleNamespace

from gm.clock import SystemClock
from gm.home import Home, create_home
from gm.intake.readers import Readers, SizeLimits
from gm.intake.sources import FileSource
from gm.intake.verified import VerifiedSecrets
from gm.mail.settings import MOST_READERS, mail_settings
from gm.rulesets import get_ruleset
from gm.seat_secrets import check_secret
from gm.services import games, intake as intake_service, turns
from gm.services.intake import Intake
from gm.store import records
from gm.store.database import open_database

# What a PBM house's mailbox holds, in per mille: most mail is a turn file in plain text; some
# comes as HTML or as an attachment; a few are wrong, chatter, or from robots.
MIX = {
    "plain": 600,
    "quoted-printable": 80,
    "html only": 80,
    "attachment": 60,
    "problems": 80,
    "chatter": 40,
    "auto-reply": 30,
    "unknown game": 28,
    "wrong password": 2,
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
            secrets[(name, seat)] = games.join_game(
                db, clock, name, f"{seat.lower()}{g}@example.org", f"Player {seat}{g}", seat
            )[1]
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
    turn_file = (
        f"GAME {game if kind != 'unknown game' else 'nosuch'}\nPLAYER {seat}\nPASSWORD {password}\n{body}\nEND\n"
    )
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


def bare_parse(path: Path) -> tuple[float, float, float]:
    """What any mail reader must do at least: read each file, parse it with the modern policy,
    take the text body. (wall, CPU, of that CPU the kernel's) seconds."""
    parser = BytesParser(policy=policy.default)
    start, cpu, kernel = time.perf_counter(), time.process_time(), kernel_cpu()[0]
    for incoming in FileSource(path).messages():
        message = parser.parsebytes(incoming.raw)
        body = message.get_body(("plain", "html"))
        if body is not None:
            body.get_content()
    return time.perf_counter() - start, time.process_time() - cpu, kernel_cpu()[0] - kernel


def readers_start(archive: Path, workers: int) -> float:
    """CPU seconds of starting the reader pool and stopping it with nothing read: the fixed part of
    the readers' CPU (a Python started in each, importing gm's mail reading; not this bench's
    module, which spawn ran again in each until gm.intake.readers started them without it)."""
    before = children_cpu()
    with Readers(archive, SizeLimits(10**6, 10**6), workers) as readers:
        readers._start()
        assert readers._ready is not None
        readers._ready.get(Readers.STARTUP_TIMEOUT)
    return children_cpu() - before


def kernel_cpu() -> tuple[float, float]:
    """The kernel's CPU seconds (system time): this process's, its threads included, and its
    children's that have ended and been waited for. On this machine's disk most of intake's is
    the readers' archive files being created (bench/README.md, "what a file's creation costs")."""
    here, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return here.ru_stime, children.ru_stime


def children_cpu() -> float:
    """CPU seconds of this process's children that have ended and been waited for."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


class TimedReaders(intake_service.Readers):
    """The readers with a stopwatch on what this process spends reading or waiting for workers."""

    spent = 0.0
    last = None

    def __init__(self, *args):
        super().__init__(*args)
        TimedReaders.last = self

    def _dispatch(self, batch, want, on_read):
        start = time.perf_counter()
        try:
            return super()._dispatch(batch, want, on_read)
        finally:
            TimedReaders.spent += time.perf_counter() - start

    def _result(self, pending):
        start = time.perf_counter()
        try:
            return super()._result(pending)
        finally:
            TimedReaders.spent += time.perf_counter() - start


class TimedIntake(Intake):
    """Intake with a stopwatch on its two stages and on scrypt, to say what dominates."""

    def __post_init__(self):
        self.times = {"read": 0.0, "decide": 0.0, "scrypt": 0.0, "scrypt cpu": 0.0, "decide cpu": 0.0}
        self.scrypts = 0

        def timed_check(secret, stored):
            start, cpu = time.perf_counter(), time.thread_time()
            try:
                return check_secret(secret, stored)
            finally:
                self.times["scrypt"] += time.perf_counter() - start
                self.times["scrypt cpu"] += time.thread_time() - cpu
                self.scrypts += 1

        # Before Intake's own set-up, which hands the secrets to the checks of guesses: made after
        # it, the stopwatch saw none of the checks (the bench printed "0 checks").
        self.secrets = VerifiedSecrets(timed_check)
        super().__post_init__()

    def decide(self, item):
        start, cpu = time.perf_counter(), time.thread_time()
        try:
            return super().decide(item)
        finally:
            self.times["decide"] += time.perf_counter() - start
            self.times["decide cpu"] += time.thread_time() - cpu


def intake(home: Home, path: Path, profile: bool, readers: int | None) -> tuple[float, dict, SimpleNamespace, str]:
    """One round: (wall seconds, outcomes, what it spent where, the profile if asked for); the
    CPU of this process (threads included) and of the readers in the summary's `cpu`."""
    cpu, readers_before, kernel_before = time.process_time(), children_cpu(), kernel_cpu()
    db = open_database(home.database)
    run = TimedIntake(db, home, SystemClock(), "import", readers=readers)
    intake_service.Readers = TimedReaders
    TimedReaders.spent = 0.0
    profiler = cProfile.Profile() if profile else None
    outcomes: dict[str, int] = {}
    start = time.perf_counter()
    if profiler:
        profiler.enable()
    for taken in run.take_all(FileSource(path)):
        outcomes[taken.outcome] = outcomes.get(taken.outcome, 0) + 1
    if profiler:
        profiler.disable()
        if os.environ.get("GM_BENCH_PSTATS"):
            profiler.dump_stats(os.environ["GM_BENCH_PSTATS"])
    elapsed = time.perf_counter() - start
    run.times["read"] = TimedReaders.spent
    run.batches_read = TimedReaders.last.batches_read if TimedReaders.last else {}
    TimedReaders.last = None
    report = ""
    if profiler:
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(25)
        report = out.getvalue()
    # What the report needs, not the run itself: its caches would stay on the heap and slow the
    # garbage collector in the rounds after it, the bare parse's among them.
    summary = SimpleNamespace(times=dict(run.times), scrypts=run.scrypts, batches_read=run.batches_read)
    db.conn.close()
    # take_all has ended: the readers are terminated and joined, the secret threads shut down.
    summary.cpu = {"here": time.process_time() - cpu, "readers": children_cpu() - readers_before}
    kernel = kernel_cpu()
    summary.kernel = {"here": kernel[0] - kernel_before[0], "readers": kernel[1] - kernel_before[1]}
    return elapsed, outcomes, summary, report


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__)
    options.add_argument("--messages", type=int, default=10_000)
    options.add_argument("--seed", type=int, default=1)
    options.add_argument("--profile", action="store_true", help="print where intake spends its time")
    options.add_argument(
        "--readers",
        type=int,
        default=None,
        help=(
            f"reader processes, 0-{MOST_READERS} as [mail] readers in gm.toml: 0 one per CPU, 1 none "
            "(default: [mail] readers of gm.toml, 1, as gm inbox import)"
        ),
    )
    options.add_argument(
        "--rounds", type=int, default=2, help="bare parse and intake alternate this many times; the best of each counts"
    )
    args = options.parse_args()
    if args.readers is not None and not 0 <= args.readers <= MOST_READERS:
        options.error(f"--readers must be 0 (one per CPU) to {MOST_READERS}, not {args.readers}")
    if args.readers == 0:  # gm reads 0 as "not given" (gm.toml's setting); here it is what gm.toml's 0 means
        args.readers = os.cpu_count() or 1
    with tempfile.TemporaryDirectory(prefix="gm-bench-intake-") as folder:
        house_home = Home(Path(folder) / "house")
        house = make_house(house_home)
        checkpoint = open_database(house_home.database)
        checkpoint.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        checkpoint.conn.close()
        path = Path(folder) / "Maildir"
        made = make_mailbox(path, args.messages, house, args.seed)
        size = sum(f.stat().st_size for f in path.rglob("*") if f.is_file())
        print(
            f"python {platform.python_version()}, {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}, "
            f"{args.messages} messages "
            f"({size / 1e6:.1f} MB): " + ", ".join(f"{n} {k}" for k, n in sorted(made.items(), key=lambda i: -i[1]))
        )
        # Bare parse and intake take turns, so drift of a shared machine hits both alike; each
        # intake round starts from its own copy of the same house, so each does the same work.
        bares, intakes = [], []
        for number in range(1, args.rounds + 1):
            gc.collect()
            bares.append(bare_parse(path))
            home = Home(Path(folder) / f"home-{number}")
            shutil.copytree(house_home.root, home.root)
            gc.collect()
            intakes.append(intake(home, path, args.profile and number == 1, args.readers))
        bare_walls = [wall for wall, _, _ in bares]
        bare = min(bare_walls)
        took, outcomes, run, profile = min(intakes, key=lambda i: i[0])
        rate, bare_rate = args.messages / took, args.messages / bare
        print(
            "bare stdlib parse, msg/s by round: "
            + ", ".join(f"{args.messages / t:.0f}" for t in bare_walls)
            + f" (best {bare:.2f} s)"
        )
        print(
            "gm intake (archive, parse, find, authenticate, check, store, answer, record), msg/s by round: "
            + ", ".join(f"{args.messages / i[0]:.0f}" for i in intakes)
            + f" (best {took:.2f} s); "
            + ", ".join(f"{n} {k}" for k, n in sorted(outcomes.items()))
        )
        print(
            f"intake / bare parse, best of {args.rounds} each = {rate / bare_rate:.2f} (target >= 0.9); "
            "round by round: "
            + ", ".join(f"{b / i[0]:.2f}" for b, i in zip(bare_walls, intakes))
            + f", median {statistics.median(b / i[0] for b, i in zip(bare_walls, intakes)):.2f}"
        )
        print(f"the archive, the Maildir and the homes are under {folder}")
        show_cpu(args.messages, [cpu for _, cpu, _ in bares], [i[2] for i in intakes], args.profile)
        show_kernel(args.messages, [kernel for _, _, kernel in bares], [i[2] for i in intakes])
        readers = args.readers or mail_settings(house_home).readers or os.cpu_count() or 1
        if readers > 1:
            start = readers_start(Path(folder) / "start-archive", readers)
            print(
                f"of the readers' CPU, their start and stop with nothing to read, measured apart: {start:.2f} s "
                f"({start * 1000 / args.messages:.3f} ms a message of this run)"
            )
        times = run.times
        rest = took - times["read"] - times["decide"]
        batches = run.batches_read
        reading = (
            f"archive+parse+find in {readers} reader processes ({batches['by workers']} batches; "
            f"{batches['here']} read here), this process waiting for them or reading {times['read']:.2f} s"
            if readers > 1
            else f"archive+parse+find {times['read']:.2f} s ({times['read'] / bare:.2f}x the bare parse)"
        )
        print(
            f"where the best intake's {took:.2f} s went: {reading}; submit+check+answer+record "
            f"{times['decide']:.2f} s; forcing to disk, commits and the source {rest:.2f} s"
        )
        print(
            f"scrypt: {run.scrypts} checks ({len(house[0])} seats once each, the rest wrong passwords), "
            f"{times['scrypt']:.2f} s summed over the background threads that ran them; "
            f"load average {os.getloadavg()[0]:.1f}"
        )
        profile = next((i[3] for i in intakes if i[3]), "")
        if profile:
            print(profile)


def show_kernel(messages: int, bares: list[float], runs: list[SimpleNamespace]) -> None:
    """Of the CPU a message, the kernel's (system time), round by round: the bare parse's, and
    intake's in this process and in its readers (who create the archive files)."""
    ms = 1000 / messages
    print(
        "of which the kernel's, round by round (ms a message): bare parse "
        + ", ".join(f"{bare * ms:.3f}" for bare in bares)
        + "; intake "
        + ", ".join(
            f"{(run.kernel['here'] + run.kernel['readers']) * ms:.3f} (here {run.kernel['here'] * ms:.3f} "
            f"+ readers {run.kernel['readers'] * ms:.3f})"
            for run in runs
        )
    )


def show_cpu(messages: int, bares: list[float], runs: list[SimpleNamespace], profiled: bool) -> None:
    """CPU a message, bare parse against intake (this process with its threads, plus the readers),
    round by round, with the ratio of the best of each and the median of the rounds' ratios; and
    where intake's CPU went in its cheapest round."""
    ms = 1000 / messages
    totals = [run.cpu["here"] + run.cpu["readers"] for run in runs]
    ratios = [total / bare for total, bare in zip(totals, bares)]
    print(
        "CPU a message, round by round (ms): bare parse "
        + ", ".join(f"{bare * ms:.3f}" for bare in bares)
        + "; intake "
        + ", ".join(
            f"{total * ms:.3f} (here {run.cpu['here'] * ms:.3f} + readers {run.cpu['readers'] * ms:.3f})"
            for total, run in zip(totals, runs)
        )
        + (" [--profile: the first intake round's CPU includes cProfile's]" if profiled else "")
    )
    print(
        f"intake CPU / bare parse CPU, best of {len(bares)} each = {min(totals) / min(bares):.2f} (target <= 1.2); "
        "round by round: " + ", ".join(f"{r:.2f}" for r in ratios) + f", median {statistics.median(ratios):.2f}"
    )
    best = runs[totals.index(min(totals))]
    times = best.cpu | best.times
    rest = times["here"] - times["scrypt cpu"] - times["decide cpu"]
    print(
        f"where the cheapest intake round's {min(totals) * ms:.3f} ms a message went (CPU, ms a message): "
        f"readers (archive, parse, find) {times['readers'] * ms:.3f}; scrypt threads {times['scrypt cpu'] * ms:.3f}; "
        f"decide (submit, check, answer, record) {times['decide cpu'] * ms:.3f}; "
        f"the rest of this process (sources, batches, commits, read-ahead) {rest * ms:.3f}"
    )


if __name__ == "__main__":
    sys.exit(main())
