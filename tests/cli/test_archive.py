"""gm archive status and gm archive prune: the archive against its budget, and what prune takes
(only what nothing kept needs, a note of each, never while a backup runs, never a young file)."""

from __future__ import annotations

import json
import os
import time

from gm.store.locks import file_lock
from tests.cli.test_turnfiles import turn_file


def test_status_says_what_the_archive_holds_against_its_budget(home, gm, game, tmp_path):
    path = tmp_path / "t.txt"
    path.write_text(turn_file(game["BR"], "CLAIM ENG"))
    assert gm("submit", path, home=home).code == 0
    ran = gm("archive", "status", home=home)
    assert ran.code == 0 and ran.out.startswith(
        "The archive holds 1 file, 0.0 MB, of a budget of 2,000.0 MB; and 0 notes"
    )
    facts = json.loads(gm("archive", "status", "--json", home=home).out)
    assert (facts["files"], facts["notes"], facts["budget"]) == (1, 0, 2_000_000_000)
    assert facts["bytes"] == path.stat().st_size


def test_prune_takes_only_what_nothing_needs_and_nothing_young(home, gm, game, tmp_path):
    accepted, refused = tmp_path / "a.txt", tmp_path / "r.txt"
    accepted.write_text(turn_file(game["BR"], "CLAIM ENG"))
    refused.write_text(turn_file("wrong", "CLAIM ENG"))
    assert gm("submit", accepted, home=home).code == 0
    assert gm("submit", refused, home=home).code == 1
    files = {p.name: p for p in (home / "archive").rglob("*") if p.is_file()}
    assert len(files) == 2
    ran = gm("archive", "prune", "--older-than", "0", home=home)
    assert ran.out.startswith("0 file(s), 0.0 MB, removed") and "1 file(s) nothing needs are younger" in ran.out
    hours_ago = time.time() - 7_200
    for path in files.values():
        os.utime(path, (hours_ago, hours_ago))
    dry = gm("archive", "prune", "--older-than", "0", "--dry-run", home=home)
    assert (
        dry.code == 0
        and dry.out.splitlines()[0].startswith("would remove ")
        and all(p.exists() for p in files.values())
    )
    ran = gm("archive", "prune", "--older-than", "0", "--json", home=home)
    [removed] = json.loads(ran.out)["removed"]
    assert removed["named_by"] is None and not files[removed["sha256"]].exists()
    note = json.loads(files[removed["sha256"]].with_name(removed["sha256"] + ".note").read_text())
    assert (note["reason"], note["size"], note["head"]) == ("pruned", refused.stat().st_size, refused.read_text())
    [kept] = [p for name, p in files.items() if name != removed["sha256"]]
    assert kept.exists() and kept.read_bytes() == accepted.read_bytes()
    assert gm("doctor", home=home).code == 0


def test_prune_waits_for_no_backup_and_takes_no_negative_age(home, gm, game):
    with file_lock(home / "locks" / "archive.lock", wait=True):
        ran = gm("archive", "prune", home=home)
    assert (ran.code, ran.err) == (
        1,
        "Error: gm backup or another gm archive prune is running. Try again when it is done.\n",
    )
    ran = gm("archive", "prune", "--older-than", "-1", home=home)
    assert (ran.code, ran.err) == (1, "Error: --older-than must be 0 days or more.\n")


def test_an_archive_a_byte_past_its_budget_is_shown_past_it_in_bytes(home, gm):
    """In MB to one decimal, 1,000,001 bytes and a budget of 1,000,000 both print 1.0 MB: the
    status says the two in bytes, so over is visibly over."""
    (home / "archive" / "00").mkdir(parents=True, exist_ok=True)
    (home / "archive" / "00" / ("0" * 64)).write_bytes(b"x" * 1_000_001)
    (home / "gm.toml").write_text((home / "gm.toml").read_text().replace("budget_mb = 2000", "budget_mb = 1"))
    ran = gm("archive", "status", home=home)
    assert ran.code == 0 and ran.out.startswith(
        "The archive holds 1 file, 1,000,001 bytes, of a budget of 1,000,000 bytes; and 0 notes"
    )
    assert "It is past its budget" in ran.out
