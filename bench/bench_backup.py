"""Benchmark of gm backup, gm restore and gm doctor against plain tarfile on the same home."""

from __future__ import annotations

import argparse
import gc
import os
import platform
import random
import shutil
import sqlite3
import sys
import tarfile
import tempfile
import time
from pathlib import Path

from gm.clock import SystemClock
from gm.home import Home, create_home
from gm.services.backup import take_backup
from gm.services.doctor import examine
from gm.services.restore import restore_backup
from gm.store.archive import archive_bytes
from gm.store.database import open_database

WORDS = "move army fleet hold support convoy build disband claim north south east west".split()


def make_home(home: Home, mails: int, reports: int, seed: int = 1) -> int:
    """A home whose archive holds `mails` messages (2-6 KB of text each), each recorded in
    mail_taken, and `reports` report-sized files (50 KB, incompressible); returns its bytes."""
    rng = random.Random(seed)
    create_home(home)
    db = open_database(home.database)
    folders: set[str] = set()
    rows = []
    for n in range(mails):
        text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(400, 1200)))
        digest = archive_bytes(
            home.archive, f"From: p{n}@example.org\n\n{text}\n".encode(), sync=False, folders=folders
        )
        rows.append(
            (
                digest,
                f"<{n}@example.org>",
                digest,
                "file",
                "bench",
                None,
                "orders",
                "2026-11-24T00:00:00Z",
                "accepted",
                "[]",
                "none",
            )
        )
    db.conn.execute("BEGIN")
    db.conn.executemany(
        "INSERT INTO mail_taken (digest, message_id, content_hash, channel, source, sender, subject, "
        "received, outcome, results, answer) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        rows,
    )
    db.conn.execute("COMMIT")
    db.conn.close()
    for n in range(reports):
        folder = home.reports / "bench" / str(n // 8)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"S{n % 8}.pdf").write_bytes(rng.randbytes(50_000))
    os.sync()
    return sum(p.stat().st_size for p in home.root.rglob("*") if p.is_file())


def timed(work) -> tuple[float, float]:
    """(CPU seconds of this process, wall seconds) of work(): CPU time, since the machine is shared."""
    gc.collect()
    cpu, wall = time.process_time(), time.perf_counter()
    work()
    return time.process_time() - cpu, time.perf_counter() - wall


def plain_tar(home: Home, out: Path) -> None:
    """The floor: tarfile adding the same folder, with no snapshot, hashes or checks."""
    with tarfile.open(out, "w") as tar:
        tar.add(home.root, arcname="home")


def plain_extract(backup: Path, into: Path) -> None:
    with tarfile.open(backup) as tar:
        tar.extractall(into, filter="data")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mails", type=int, default=20_000)
    parser.add_argument("--reports", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="gm-bench-backup-"))
    try:
        home = Home(scratch / "home")
        size = make_home(home, args.mails, args.reports)
        print(
            f"python {platform.python_version()}, sqlite {sqlite3.sqlite_version}, {os.cpu_count()} CPUs; home of "
            f"{args.mails} archived mails and {args.reports} report files, {size / 1e6:.1f} MB"
        )
        results: dict[str, list[tuple[float, float]]] = {
            k: [] for k in ("tar", "backup", "extract", "restore", "doctor")
        }
        for n in range(args.rounds):
            out = scratch / f"r{n}"
            out.mkdir()
            results["tar"].append(timed(lambda out=out: plain_tar(home, out / "plain.tar")))
            results["backup"].append(timed(lambda out=out: take_backup(home, out / "gm.tar", SystemClock())))
            results["extract"].append(timed(lambda out=out: plain_extract(out / "plain.tar", out / "plain")))
            results["restore"].append(timed(lambda out=out: restore_backup(out / "gm.tar", out / "restored")))
            results["doctor"].append(timed(lambda out=out: list(examine(Home(out / "restored")))))
            shutil.rmtree(out)
        for name, runs in results.items():
            shown = ", ".join(f"{cpu:.2f}/{wall:.2f}" for cpu, wall in runs)
            print(f"{name:8} CPU/wall s by round: {shown}; best CPU {min(c for c, _ in runs):.2f} s")
        best = {name: min(c for c, _ in runs) for name, runs in results.items()}
        print(
            f"gm backup / plain tarfile, best CPU: {best['backup'] / best['tar']:.2f}; "
            f"gm restore / plain extract: {best['restore'] / best['extract']:.2f}; "
            f"gm doctor {size / 1e6 / best['doctor']:.0f} MB/s of home (CPU)"
        )
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
