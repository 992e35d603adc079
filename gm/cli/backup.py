"""gm backup and gm restore: a consistent copy of a live home in one file, checked before it is restored."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer

from gm.cli.common import HomeOption, clock
from gm.cli.progress import progress
from gm.cli.shown import echo
from gm.core.words import counted
from gm.home import require_home, resolve_home
from gm.services.backup import take_backup
from gm.services.backup_key import KEY_ENV
from gm.services.restore import restore_backup

KeyOption = Annotated[
    Path | None,
    typer.Option(
        "--key",
        envvar=KEY_ENV,
        metavar="FILE",
        help="The backup key's file (default: ~/.config/gm/backup.key, or under $XDG_CONFIG_HOME). "
        "Never inside the home.",
        show_default=False,
    ),
]


def backup(
    dest: Annotated[
        Path,
        typer.Argument(
            metavar="DEST",
            help="A new .tar (or .tar.gz) file, or a folder where gm names it "
            "gm-backup-YYYYMMDD-HHMMSS.tar. Outside the home.",
            show_default=False,
        ),
    ],
    key: KeyOption = None,
    home: HomeOption = None,
) -> None:
    """Copy the home into one file while intake, the portal and turn runs go on: a database
    snapshot (SQLite's online backup), every archive file it refers to, reports, the outbox,
    templates, gm.toml and the portal's key, each with its SHA-256 and permissions; signed with
    the backup key, kept outside the home (made on the first backup)."""
    where = require_home(resolve_home(home))
    with progress("gm backup") as step:
        taken = take_backup(where, dest, clock(), step if _live(step) else lambda message: None, key)
    manifest = taken.manifest
    echo(
        f"Backup written: {taken.path} ({counted(len(manifest.files), 'file')}, {_size(taken.size)}; the database as "
        f"of {manifest.made}, {counted(len(manifest.migrations), 'migration')}, {counted(taken.referenced, 'archive file')} it "
        "refers to)."
    )
    for skipped in manifest.skipped:
        echo(f"Warning: not in the backup: {skipped}.", err=True)
    if taken.key_made:
        echo(
            f"Signed with a new backup key, {taken.key}: gm restore needs it. Keep a copy of it apart from "
            "the backups (without it a restore needs --unsigned; with it, nobody can change a backup unseen)."
        )
    else:
        echo(f"Signed with the backup key {taken.key}.")
    echo("It holds the home's secrets (portal.key, gm.toml, the players' mail): only you can read it; keep it so.")


def restore(
    backup_file: Annotated[
        Path, typer.Argument(metavar="BACKUP", help="A backup made by 'gm backup'.", show_default=False)
    ],
    target: Annotated[
        Path,
        typer.Argument(
            metavar="HOME",
            help="The home to make: a new or empty folder (or a home 'gm init' just made, with no data).",
            show_default=False,
        ),
    ],
    key: KeyOption = None,
    unsigned: Annotated[
        bool,
        typer.Option(
            "--unsigned",
            help="Restore a backup without a signature (one a gm before signed backups made), or one "
            "whose key is lost. Only for a backup you know where it comes from.",
        ),
    ] = False,
) -> None:
    """Check a backup (its signature with the backup key, every file against its manifest's SHA-256, the database's integrity, its
    migrations, every archive file it refers to) and only then restore it into a new home."""
    with progress("gm restore") as step:
        checked = restore_backup(backup_file, target, step if _live(step) else lambda message: None, key, unsigned)
    manifest = checked.manifest
    echo(
        f"Checked {backup_file}: {counted(len(manifest.files), 'file')}, each matching its SHA-256; the database "
        f"is sound; {counted(len(manifest.migrations), 'migration')}, each known; "
        f"{counted(checked.referenced, 'archive file')} it refers to, each there."
    )
    if checked.key is None:
        echo(
            f"Warning: {backup_file} was restored unsigned (--unsigned): nothing proves it is as gm wrote it.", err=True
        )
    else:
        echo(f"Its signature matches the backup key {checked.key}.")
    target = target.expanduser().resolve()
    echo(f"Restored into {target} the home {manifest.source} as of {manifest.made} (gm {manifest.gm_version}).")
    if checked.pending:
        echo(
            f"gm applies {counted(len(checked.pending), 'newer migration')} ({', '.join(checked.pending)}) when it "
            "first opens this home."
        )
    echo(f"Next: gm doctor --home {target}; then point GM_HOME (cron, the portal) at it.")


def _live(step: Callable[[str], None]) -> bool:
    """Progress lines only on a terminal: in a log, the summary says it all."""
    return step is not echo


def _size(count: int) -> str:
    return f"{count / 1_000_000:.1f} MB" if count >= 100_000 else f"{count / 1000:.1f} KB"
