"""Test-only crash points: with GM_CRASH_AT=<point> gm kills itself (SIGKILL) on reaching it.

The crash battery (tests/reliability/test_crash_battery.py) runs a real gm command with one
of these set, then runs the command again and checks that nothing was lost or doubled. A kill
-9 at a chosen point is what a power cut or the OOM killer does at a random one. The points:

  turn:mid-charge       inside a turn's transaction, the books half written: the first seat charged
                        (a re-run's reversals booked), the others not
  turn:before-commit    a turn is resolved, its transaction not yet committed
  turn:after-commit     the turn is committed, nothing of it published
  publish:mid-write     a report file (a PDF, a turn kit) is written under its temporary name, not yet renamed
  publish:mid-render    the first report PDF is written, the others not
  publish:after-render  every PDF and JSON is written, nothing recorded
  publish:mid-queue     inside the publishing transaction, after the first report mail
  publish:after-commit  the turn is published (reports recorded, mails queued), nothing sent
  send:mid-send         a mail was handed to the server (or folder), not yet marked sent
  send:after-mark       the first mail is marked sent, the others not yet sent
  intake:before-sync    a batch of mail is archived and read, not yet forced to disk nor decided
  intake:before-commit  a batch of mail is decided, its transaction not yet committed
  intake:after-commit   the batch is committed, the source not yet told
  backup:after-snapshot the database is copied into the home's locks/ folder, still named
  backup:mid-write      the backup's tar holds the database, not yet the other files
  backup:before-name    the backup is whole, not yet named
  restore:mid-check     the backup's database is copied out for its checks
  restore:mid-unpack    the first file is unpacked beside the new home
  restore:before-rename every file is unpacked, the home not yet renamed into place
  restore:after-rename  the home is in place, its scratch folder not yet removed

Only adapters and services call crash_point; gm/core never does (it reads no environment).
Unset, it costs one dictionary lookup. Rendering in worker processes would kill the worker, not
the command: the battery renders in one process ([reports] workers = 1).
"""

from __future__ import annotations

import os
import signal

POINTS = frozenset(
    {
        "turn:mid-charge",
        "turn:before-commit",
        "turn:after-commit",
        "publish:mid-write",
        "publish:mid-render",
        "publish:after-render",
        "publish:mid-queue",
        "publish:after-commit",
        "send:mid-send",
        "send:after-mark",
        "intake:before-sync",
        "intake:before-commit",
        "intake:after-commit",
        "backup:after-snapshot",
        "backup:mid-write",
        "backup:before-name",
        "restore:mid-check",
        "restore:mid-unpack",
        "restore:before-rename",
        "restore:after-rename",
    }
)


def crash_point(name: str) -> None:
    """Die here, as kill -9 would, when GM_CRASH_AT names this point."""
    assert name in POINTS, name
    if os.environ.get("GM_CRASH_AT") == name:
        os.kill(os.getpid(), signal.SIGKILL)
