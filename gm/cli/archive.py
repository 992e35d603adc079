"""gm archive: the raw-submission archive's size against its budget, and pruning what nothing needs."""

from __future__ import annotations

from typing import Annotated

import typer

from gm.cli.common import HomeOption, JsonOption, echo_json, open_home
from gm.cli.shown import echo
from gm.core.words import counted, megabytes, sizes_apart
from gm.services import archive_keeping

app = typer.Typer(help="The archive of everything players sent.", no_args_is_help=True)


@app.command("status")
def status(as_json: JsonOption = False, home: HomeOption = None) -> None:
    """How much the archive holds, against its budget ([archive] budget_mb in gm.toml)."""
    home_, _ = open_home(home)
    size = archive_keeping.archive_size(home_)
    if as_json:
        echo_json({"files": size.files, "bytes": size.size, "notes": size.notes, "budget": size.budget})
        return
    held, budget = sizes_apart(size.size, size.budget)
    echo(
        f"The archive holds {counted(size.files, 'file')}, {held}, of a budget of {budget}; "
        f"and {counted(size.notes, 'note')} of what it does not keep whole (refused for size, or pruned)."
    )
    if size.over:
        echo("It is past its budget: 'gm archive prune --dry-run' lists what nothing kept needs.")


@app.command("prune")
def prune(
    older_than: Annotated[
        float, typer.Option("--older-than", help="Only files older than this many days (never one under an hour).")
    ] = 7.0,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="List what would go; remove nothing.")] = False,
    as_json: JsonOption = False,
    home: HomeOption = None,
) -> None:
    """Remove the archive files nothing kept needs, leaving a note of each (its SHA-256, size and
    first bytes): files no record names, and those only refused or rejected turn files and mail
    name. Kept whole: every accepted submission, every press message and announcement, every
    mail anything was accepted or sent from, every question and sign-up."""
    home_, db = open_home(home)
    done = archive_keeping.prune(home_, db.conn, older_than, dry_run)
    after = done.after
    assert after is not None  # prune measures the archive once it is done
    if as_json:
        echo_json(
            {
                "dry_run": dry_run,
                "removed": [{"sha256": r.digest, "bytes": r.size, "named_by": r.named_by} for r in done.removed],
                "kept_young": done.kept_young,
                "bytes_after": after.size,
            }
        )
        return
    verb = "would remove" if dry_run else "removed"
    for removed in done.removed:
        echo(f"{verb} {removed.digest} ({counted(removed.size, 'byte')}; {removed.named_by or 'no record names it'})")
    total = sum(r.size for r in done.removed)
    held, budget = sizes_apart(after.size, after.budget)
    echo(
        f"{len(done.removed):,} file(s), {megabytes(total)}, {verb}"
        + ("" if dry_run else ", a note of each kept")
        + f"; the archive holds {held} of a budget of {budget}."
    )
    if done.kept_young:
        echo(f"{done.kept_young:,} file(s) nothing needs are younger than --older-than and stay for now.")
