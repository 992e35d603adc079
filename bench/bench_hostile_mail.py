"""A hostile mail (issue 29): how long `gm inbox import` holds the database's write lock for one
mail of 2,000 turn files with wrong secrets.

    .venv/bin/python bench/bench_hostile_mail.py [--files 2000] [--against OTHER_CHECKOUT]

Makes a home with a 4-seat Clash game and a Maildir holding one mail (98 kB as the red team sent
it: 2,000 turn files for the game's seats, each with a wrong secret of its own), then runs
`gm inbox import` on it as a separate process, as cron would, with the `gm` beside this Python.
Meanwhile this process asks for the write lock of gm.db every 10 ms (`BEGIN IMMEDIATE` with no
wait, rolled back at once) and prints the longest stretch it could not have it, the time it
could not have it in all, and the import's wall time. Any writer that meets the database busy
for longer than gm's busy timeout (10 s) fails. With --against, the same is done with another
checkout (its gm, games and templates first on PYTHONPATH), each in a home of its own.
"""

from __future__ import annotations

import argparse
import mailbox
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from email.message import EmailMessage
from email.policy import SMTP
from pathlib import Path

from bench_turn_run import _path_of  # this folder is on sys.path when the bench runs

GM = Path(sys.executable).parent / "gm"
SEATS = ("BR", "RU", "FR", "GE")
PROBE_EVERY = 0.01


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=2000, help="turn files in the mail")
    parser.add_argument("--against", type=Path, help="another checkout of gm to run the same with")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="gm-bench-hostile-") as folder:
        root = Path(folder)
        versions = {"this": None}
        if args.against is not None:
            versions["against"] = _path_of(args.against.resolve(), root)
        raw = hostile_mail(args.files)
        print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}")
        print(f"one mail of {len(raw):,} bytes holding {args.files:,} turn files with wrong secrets")
        for name, python_path in versions.items():
            held, longest, wall, answer = run(root / name, raw, python_path)
            print(
                f"{name:8s} gm inbox import: {wall:.1f} s wall; write lock held {held:.2f} s in all, "
                f"longest {longest:.2f} s at once; its answer {answer} lines"
            )


def hostile_mail(files: int) -> bytes:
    message = EmailMessage()
    message["From"] = "Mallory <mallory@evil.example>"
    message["To"] = "gm@example.org"
    message["Subject"] = "orders"
    message["Message-ID"] = "<flood@evil.example>"
    message.set_content(
        "".join(f"GAME g1\nPLAYER {SEATS[n % 4]}\nPASSWORD x{n:04d}\nCLAIM ENG\nEND\n" for n in range(files))
    )
    return message.as_bytes(policy=SMTP)


def run(home: Path, raw: bytes, python_path: str | None) -> tuple[float, float, float, int]:
    env = {**os.environ, "GM_HOME": str(home)}
    if python_path is not None:
        env["PYTHONPATH"] = python_path

    def gm(*argv: str) -> None:
        subprocess.run([str(GM), *argv], env=env, check=True, stdout=subprocess.DEVNULL)

    gm("init")
    settings = home / "gm.toml"
    settings.write_text(settings.read_text().replace('address = ""', 'address = "gm@example.org"', 1))
    gm("game", "new", "g1", "--ruleset", "clash", "--seed", "7")
    for name in ("ann", "bob", "cy", "di"):
        gm("game", "join", "g1", f"{name}@example.org", "--name", name.title())
    box = mailbox.Maildir(home.parent / f"{home.name}-Maildir", create=True)
    box.add(raw)
    probe = sqlite3.connect(home / "gm.db", timeout=0, isolation_level=None)
    started = time.perf_counter()
    importing = subprocess.Popen([str(GM), "inbox", "import", box._path], env=env, stdout=subprocess.DEVNULL)
    held, longest, since = 0.0, 0.0, None
    while importing.poll() is None:
        now = time.perf_counter()
        try:
            probe.execute("BEGIN IMMEDIATE")
            probe.execute("ROLLBACK")
            if since is not None:
                held, longest, since = held + now - since, max(longest, now - since), None
        except sqlite3.OperationalError:
            since = now if since is None else since
        time.sleep(PROBE_EVERY)
    wall = time.perf_counter() - started
    if since is not None:
        held, longest = held + wall - since, max(longest, wall - since)
    body = probe.execute("SELECT body FROM outbox WHERE recipient = 'mallory@evil.example'").fetchone()[0]
    probe.close()
    return held, longest, wall, len(body.splitlines())


if __name__ == "__main__":
    main()
