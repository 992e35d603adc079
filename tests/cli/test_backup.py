"""gm backup and gm restore: a backup taken during a turn run restores and verifies; a damaged,
cut-short or too-new backup, or a home with data, is refused and nothing changes."""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
import tarfile
import time
from pathlib import Path

import pytest

from gm.services.backup_key import SIGNATURE, default_key_path, read_key, sign
from tests.cli.test_game import table_dump
from tests.intake.mails import mail, set_mail_address


@pytest.fixture
def played(home, gm, tmp_path, tmp_path_factory, request):
    """A home (clash g1, four seats) with credits bought and turn 1 played from turn files every
    seat sent, so the archive, the ledger and the turns hold something; returns the secrets.
    Made once per module and copied into each test's `home` (the database by SQLite's backup)."""
    made = getattr(request.module, "_PLAYED", None)
    if made is None:
        folder = tmp_path_factory.mktemp("played")
        secrets = request.getfixturevalue("game")
        for email in ("ann", "bob", "cy", "di"):
            assert (
                gm("credits", "buy", f"{email}@example.org", "10", "--paid", "25", "--game", "g1", home=home).code == 0
            )
        submit_all(gm, home, secrets, tmp_path, 1)
        assert gm("turn", "run", "g1", "--no-render", home=home).code == 0
        copy_home(home, folder / "home")
        made = request.module._PLAYED = (folder / "home", secrets)
        return secrets
    shutil.rmtree(home)
    copy_home(made[0], home)
    return made[1]


def copy_home(source: Path, target: Path) -> None:
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("gm.db*"))
    live, copy = sqlite3.connect(source / "gm.db"), sqlite3.connect(target / "gm.db")
    live.backup(copy)
    live.close()
    copy.close()


def submit_all(gm, home, secrets, folder, turn):
    for seat, secret in secrets.items():
        form = folder / f"{seat}-{turn}.txt"
        assert gm("orders", "template", "g1", seat, "-o", form, home=home).code == 0
        form.write_text(form.read_text().replace("<your secret>", secret))
        ran = gm("submit", form, home=home)
        assert ran.code == 0, ran.err


def archive_files(home) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in (home / "archive").rglob("*") if p.is_file()}


def members(backup: Path) -> dict[str, bytes]:
    with tarfile.open(backup) as tar:
        return {m.name: tar.extractfile(m).read() if m.isfile() else None for m in tar}


def rewrite(backup: Path, out: Path, changes: dict, fix_manifest: bool = False, resign: bool = True) -> None:
    """A copy of the backup with some members' bytes changed (and, if asked, its manifest made
    to agree, as a careful forger or a bug would). Signed again with the backup key unless told
    not to: the checks behind the signature's are what most tests here prove."""
    with tarfile.open(backup) as source, tarfile.open(out, "w") as target:
        manifest = json.loads(source.extractfile("manifest.json").read())
        if fix_manifest:
            for entry in manifest["files"]:
                data = changes.get(f"home/{entry['path']}")
                if data is not None:
                    entry["size"], entry["sha256"] = len(data), hashlib.sha256(data).hexdigest()
        signed = b""
        for member in source:
            data = source.extractfile(member).read() if member.isfile() else None
            if member.name == "manifest.json":
                data = signed = changes.get(member.name, json.dumps(manifest).encode())
            elif member.name == SIGNATURE and resign:
                data = sign(read_key(default_key_path()), signed)
            data = changes.get(member.name, data)
            if data is not None:
                member.size = len(data)
            target.addfile(member, io.BytesIO(data) if data is not None else None)


@pytest.mark.slow
def test_backup_during_a_turn_run_and_intake_restores_and_verifies(home, gm, played, tmp_path):
    submit_all(gm, home, played, tmp_path, 2)
    set_mail_address(home)
    letters = tmp_path / "letters"
    letters.mkdir()
    for n in range(30):
        (letters / f"{n}.eml").write_bytes(
            mail(f"Question {n}: when is the deadline?", message_id=f"<{n}@example.org>")
        )
    folder = tmp_path / "backups"
    folder.mkdir()
    command = [sys.executable, "-m", "gm"]
    running = [
        subprocess.Popen(
            command + ["turn", "run", "g1", "--home", str(home)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        ),
        subprocess.Popen(
            command + ["inbox", "import", str(letters), "--home", str(home)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        ),
    ]
    try:
        deadline = time.monotonic() + 60
        while not (home / "locks" / "g1.lock").exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        during = []
        while any(p.poll() is None for p in running):  # back up while the turn resolves, renders and mail comes in
            ran = gm("backup", folder / f"b{len(during)}.tar", home=home)
            assert ran.code == 0, ran.err
            if any(p.poll() is None for p in running):
                during.append(folder / f"b{len(during)}.tar")
            time.sleep(0.1)
    finally:
        outcomes = [p.communicate(timeout=120) + (p.returncode,) for p in running]
    assert [code for _, _, code in outcomes] == [0, 0], outcomes
    assert during, "no backup was taken while the turn ran"
    for number, backup in enumerate([during[0], during[len(during) // 2], during[-1]]):
        restored = tmp_path / f"restored{number}"
        ran = gm("restore", backup, restored)
        assert ran.code == 0, ran.err
        assert "the database is sound" in ran.out and f"Restored into {restored}" in ran.out
        verified = gm("turn", "verify", "g1", home=restored)
        assert verified.code == 0 and "every state hash matches" in verified.out, verified.err
        books = gm("ledger", "check", home=restored)
        assert books.code == 0 and books.out.startswith("The books balance"), books.err
        doctor = gm("doctor", home=restored)  # every archive file the snapshot refers to is there and whole
        assert doctor.code == 0, doctor.out + doctor.err
    assert gm("turn", "verify", "g1", home=home).out == "g1: 2 turn(s) verified, every state hash matches.\n"


def test_a_backup_keeps_every_file_and_its_permissions(home, gm, played, tmp_path):
    (home / "portal.key").write_text("00" * 32 + "\n")
    os.chmod(home / "portal.key", 0o600)
    os.chmod(home / "gm.toml", 0o600)
    (home / "templates" / "mail").mkdir()
    (home / "templates" / "mail" / "report.txt").write_text("Subject: Your report\n\nHere it is.\n")
    (home / "locks" / "g1.lock").write_text("")
    sessions = sqlite3.connect(home / "portal-sessions.db")  # the portal's, live: not in a backup
    sessions.execute("CREATE TABLE sessions (tag BLOB PRIMARY KEY, who TEXT NOT NULL, seen REAL NOT NULL)")
    sessions.commit()
    ran = gm("backup", tmp_path / "house.tar.gz", home=home)
    assert ran.code == 0, ran.err
    assert ran.out.startswith(f"Backup written: {tmp_path / 'house.tar.gz'} (")
    assert (tmp_path / "house.tar.gz").stat().st_mode & 0o777 == 0o600
    restored = tmp_path / "restored"
    assert gm("restore", tmp_path / "house.tar.gz", restored).code == 0
    for name in ("portal.key", "gm.toml"):
        assert (restored / name).stat().st_mode & 0o777 == 0o600
        assert (restored / name).read_bytes() == (home / name).read_bytes()
    assert (restored / "templates" / "mail" / "report.txt").read_text() == "Subject: Your report\n\nHere it is.\n"
    assert archive_files(restored) == archive_files(home) and len(archive_files(home)) == 4
    assert table_dump(restored) == table_dump(home)
    assert not (restored / "locks" / "g1.lock").exists() and (restored / "locks").is_dir()
    assert not (restored / "portal-sessions.db").exists()
    sessions.close()
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


def test_a_changed_archive_file_is_refused_and_nothing_changes(home, gm, played, tmp_path):
    backup = tmp_path / "b.tar"
    assert gm("backup", backup, home=home).code == 0
    name = next(n for n in members(backup) if n.startswith("home/archive/") and members(backup)[n])
    data = members(backup)[name]
    changed = data.replace(b"END", b"end")
    assert changed != data and len(changed) == len(data)
    target = tmp_path / "new-home"
    for fix_manifest, why in (
        (False, "does not match the SHA-256 its manifest records"),
        (True, "does not hold what its name says"),
    ):
        damaged = tmp_path / f"damaged-{fix_manifest}.tar"
        rewrite(backup, damaged, {name: changed}, fix_manifest)
        ran = gm("restore", damaged, target)
        assert ran.code == 1 and ran.out == ""
        assert ran.err.startswith(f"Error: {damaged} cannot be restored: {name.removeprefix('home/')} {why}")
        assert ran.err.endswith("Nothing was changed. Use another backup (or take a new one with 'gm backup').\n")
        assert not target.exists()
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


def test_a_truncated_database_is_refused(home, gm, played, tmp_path):
    backup = tmp_path / "b.tar"
    assert gm("backup", backup, home=home).code == 0
    database = members(backup)["home/gm.db"]
    cut = database[: len(database) // 2]
    target = tmp_path / "new-home"
    rewrite(backup, tmp_path / "cut.tar", {"home/gm.db": cut})
    ran = gm("restore", tmp_path / "cut.tar", target)
    assert ran.code == 1 and "gm.db does not match the SHA-256 its manifest records" in ran.err
    rewrite(backup, tmp_path / "cut-agreeing.tar", {"home/gm.db": cut}, fix_manifest=True)
    ran = gm("restore", tmp_path / "cut-agreeing.tar", target)
    assert ran.code == 1 and ran.err.startswith(
        f"Error: {tmp_path / 'cut-agreeing.tar'} cannot be restored: the database is damaged: "
    )
    assert "Nothing was changed." in ran.err and not target.exists()


def test_a_backup_cut_short_or_not_a_backup_is_refused(home, gm, played, tmp_path):
    backup = tmp_path / "b.tar"
    assert gm("backup", backup, home=home).code == 0
    with tarfile.open(backup) as tar:
        manifest_at = tar.getmember("manifest.json").offset
    short = tmp_path / "short.tar"
    short.write_bytes(backup.read_bytes()[:manifest_at])  # as a copy cut off before the manifest leaves it
    ran = gm("restore", short, tmp_path / "x")
    assert ran.code == 1 and ran.err == (
        f"Error: {short} is not a finished gm backup: it has no manifest.json (it "
        "was cut short, or it is not a gm backup). Nothing was changed. Use another "
        "backup.\n"
    )
    short.write_bytes(backup.read_bytes()[: manifest_at // 2])  # in the middle of a file
    ran = gm("restore", short, tmp_path / "x")
    assert ran.code == 1 and ran.err.startswith(
        f"Error: {short} cannot be restored: it is cut short, or not a tar file ("
    )
    other = tmp_path / "other.tar"
    other.write_bytes(b"not a tar at all" * 100)
    ran = gm("restore", other, tmp_path / "x")
    assert ran.code == 1 and ran.err.startswith(
        f"Error: {other} cannot be restored: it is cut short, or not a tar file ("
    )
    ran = gm("restore", tmp_path / "missing.tar", tmp_path / "x")
    assert ran.err == f"Error: there is no backup file {tmp_path / 'missing.tar'}. Name a .tar made by 'gm backup'.\n"
    assert not (tmp_path / "x").exists()


def test_a_backup_whose_manifest_is_a_folder_is_refused_as_one_without_a_manifest(gm, tmp_path):
    # tarfile gives no bytes for a member that is not a file: gm restore once fell over on None.
    backup = tmp_path / "b.tar"
    with tarfile.open(backup, "w") as tar:
        folder = tarfile.TarInfo("manifest.json")
        folder.type = tarfile.DIRTYPE
        tar.addfile(folder)
    ran = gm("restore", backup, tmp_path / "x")
    assert (ran.code, ran.err) == (
        1,
        f"Error: {backup} is not a finished gm backup: it has no manifest.json (it was cut short, or it is "
        "not a gm backup). Nothing was changed. Use another backup.\n",
    )
    assert not (tmp_path / "x").exists()


def test_a_database_from_a_newer_gm_is_refused(home, gm, played, tmp_path):
    backup = tmp_path / "b.tar"
    assert gm("backup", backup, home=home).code == 0
    copy = tmp_path / "copy.db"
    copy.write_bytes(members(backup)["home/gm.db"])
    conn = sqlite3.connect(copy)
    conn.execute("INSERT INTO migrations VALUES ('m999_future', '2030-01-01T00:00:00Z')")
    conn.commit()
    conn.close()
    rewrite(backup, tmp_path / "newer.tar", {"home/gm.db": copy.read_bytes()}, fix_manifest=True)
    ran = gm("restore", tmp_path / "newer.tar", tmp_path / "x")
    assert (
        ran.code == 1
        and "its database has migrations this gm does not know (m999_future): it was made by a "
        "newer gm; install that gm (or a newer one) and restore with it"
        in ran.err
    )


def test_restore_never_writes_over_a_home_with_data(home, gm, played, tmp_path):
    backup = tmp_path / "b.tar"
    assert gm("backup", backup, home=home).code == 0
    before = table_dump(home)
    ran = gm("restore", backup, home)
    assert ran.code == 1 and ran.err.startswith(
        f"Error: {home} is not empty: it holds a GM home's database with records (accounts, audit, games, "
    )
    assert ran.err.endswith(
        "). gm restore never writes over a home or folder that has data: restore into a new "
        "folder (and point GM_HOME at it), or move this one aside first.\n"
    )
    assert table_dump(home) == before
    folder = tmp_path / "folder"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine")
    ran = gm("restore", backup, folder)
    assert ran.code == 1 and f"{folder} is not empty: it holds notes.txt." in ran.err
    # A home 'gm init' just made holds nothing yet: the backup takes its place; so does an empty folder.
    fresh = tmp_path / "fresh"
    assert gm("init", home=fresh).code == 0
    assert gm("restore", backup, fresh).code == 0 and table_dump(fresh) == before
    (tmp_path / "empty").mkdir()
    assert gm("restore", backup, tmp_path / "empty").code == 0 and table_dump(tmp_path / "empty") == before


def test_backup_refuses_a_home_missing_an_archive_file(home, gm, played, tmp_path):
    victim = next(p for p in (home / "archive").rglob("*") if p.is_file())
    victim.unlink()
    ran = gm("backup", tmp_path / "b.tar", home=home)
    assert ran.code == 1 and ran.err.startswith(
        f"Error: no backup was written: archive/{victim.parent.name}/{victim.name} (submission "
    )
    assert ran.err.endswith("is missing from the home. Run 'gm doctor' for what to do.\n")
    assert list(tmp_path.glob("*b.tar*")) == []


def test_backup_refuses_bad_destinations(home, gm, played, tmp_path):
    (tmp_path / "there.tar").write_text("x")
    cases = [
        (
            tmp_path / "there.tar",
            f"Error: {tmp_path / 'there.tar'} already exists; gm never writes over a backup. "
            "Choose another name or folder.\n",
        ),
        (
            tmp_path / "b.zip",
            f"Error: {tmp_path / 'b.zip'} must end in .tar or .tar.gz (or name a folder, where gm "
            "names the backup by the time). Choose another name.\n",
        ),
        (home / "reports", f"Error: {home / 'reports'}/gm-backup-"),
        (
            tmp_path / "nowhere" / "b.tar",
            f"Error: the folder {tmp_path / 'nowhere'} does not exist. Make it first, or choose another.\n",
        ),
    ]
    for dest, message in cases:
        ran = gm("backup", dest, home=home)
        assert ran.code == 1 and ran.err.startswith(message), ran.err
    assert "is inside the GM home" in gm("backup", home / "reports", home=home).err


def test_restore_sets_the_modes_gm_makes_whatever_the_home_had(home, gm, played, tmp_path):
    """A home whose files were made under another umask, or changed by hand, is backed up and
    restored with the modes gm makes: files 0600 or 0644, folders 0700 or 0755, by whether others
    may read them; never set-ID, sticky, executable or writable by others; portal.key 0600."""
    (home / "portal.key").write_text("00" * 32 + "\n")
    os.chmod(home / "portal.key", 0o644)
    (home / "templates" / "web").mkdir()
    shared = home / "templates" / "web" / "portal.css"
    shared.write_text("body { color: black; }\n")
    os.chmod(shared, 0o4775)  # set-user-ID, executable, writable by the group
    os.chmod(home / "templates" / "web", 0o2775)
    os.chmod(home / "outbox", 0o700)
    os.chmod(home / "gm.toml", 0o660)
    assert gm("backup", tmp_path / "b.tar", home=home).code == 0
    with tarfile.open(tmp_path / "b.tar") as tar:
        manifest = json.loads(tar.extractfile("manifest.json").read())
        in_the_tar = {m.name: m.mode for m in tar if m.name != "manifest.json"}
    written = {f["path"]: f["mode"] for f in manifest["files"]} | dict(manifest["folders"])
    assert written["portal.key"] == "0600" and written["templates/web/portal.css"] == "0644"
    assert written["templates/web"] == "0755" and written["outbox"] == "0700" and written["gm.toml"] == "0644"
    assert set(in_the_tar.values()) <= {0o600, 0o644, 0o700, 0o755}  # what `tar -xpf` gives, too
    # A backup from an older gm kept the modes it found; restore sets gm's own from them.
    for entry in manifest["files"]:
        entry["mode"] = {"templates/web/portal.css": "0775", "portal.key": "0644"}.get(entry["path"], entry["mode"])
    manifest["folders"] = [[path, "0775" if path == "templates/web" else mode] for path, mode in manifest["folders"]]
    rewrite(tmp_path / "b.tar", tmp_path / "older.tar", {"manifest.json": json.dumps(manifest).encode()})
    for backup in ("b.tar", "older.tar"):
        restored = tmp_path / f"restored-{backup}"
        ran = gm("restore", tmp_path / backup, restored)
        assert ran.code == 0, ran.err
        modes = {str(p.relative_to(restored)): stat.S_IMODE(p.stat().st_mode) for p in [restored, *restored.rglob("*")]}
        assert set(modes.values()) <= {0o600, 0o644, 0o700, 0o755}, modes
        assert modes["portal.key"] == 0o600 and modes["templates/web/portal.css"] == 0o644
        assert modes["templates/web"] == 0o755 and modes["outbox"] == 0o700 and modes["gm.toml"] == 0o644


@pytest.mark.parametrize("forged", ["database", "archive file"])
@pytest.mark.parametrize("manifest_agrees", [False, True])
def test_a_sparse_member_of_a_terabyte_is_refused_unread(home, gm, played, tmp_path, forged, manifest_agrees):
    # A backup of 10 KB more, whose member says it is a terabyte of zeros (a GNU sparse file):
    # restore read it whole, hashing it for hours and (the database) writing it to the disk beside
    # the home. gm backup never writes a sparse member, nor one other than its manifest's size.
    if shutil.which("tar") is None:
        pytest.skip("GNU tar makes the sparse member")
    backup = tmp_path / "b.tar"
    assert gm("backup", backup, home=home).code == 0
    files = [n for n, data in members(backup).items() if n.startswith("home/archive/") and data is not None]
    name = "home/gm.db" if forged == "database" else files[0]
    forged_tar = tmp_path / "forged.tar"
    with tarfile.open(backup) as source, tarfile.open(forged_tar, "w", format=tarfile.GNU_FORMAT) as target:
        manifest = json.loads(source.extractfile("manifest.json").read())
        for entry in manifest["files"]:
            if manifest_agrees and f"home/{entry['path']}" == name:
                entry["size"] = 2**40
        for member in source:
            if member.name == name:
                continue
            data = source.extractfile(member).read() if member.isfile() else None
            if member.name == "manifest.json":
                data = signed = json.dumps(manifest).encode()
                member.size = len(data)
            if member.name == SIGNATURE:  # a forger with the key: the checks behind it must hold
                data = sign(read_key(default_key_path()), signed)
            target.addfile(member, io.BytesIO(data) if data is not None else None)
    sparse = tmp_path / "sparse" / name
    sparse.parent.mkdir(parents=True)
    with open(sparse, "wb") as f:
        f.truncate(2**40)
    subprocess.run(["tar", "--sparse", "-rf", forged_tar, "-C", tmp_path / "sparse", name], check=True)
    assert forged_tar.stat().st_size < backup.stat().st_size + 20_000
    started = time.monotonic()
    ran = gm("restore", forged_tar, tmp_path / "new-home")
    assert time.monotonic() - started < 30
    assert ran.code == 1 and ran.err.startswith(
        f"Error: {forged_tar} cannot be restored: it holds {name} as a sparse file, where its manifest lists a file"
    )
    assert "Nothing was changed." in ran.err
    assert not (tmp_path / "new-home").exists()


def test_a_sparse_manifest_of_a_terabyte_is_refused_unread(home, gm, played, tmp_path):
    # Its manifest was read into memory whole before anything was checked.
    if shutil.which("tar") is None:
        pytest.skip("GNU tar makes the sparse member")
    backup = tmp_path / "b.tar"
    assert gm("backup", backup, home=home).code == 0
    forged = tmp_path / "forged.tar"
    with tarfile.open(backup) as source, tarfile.open(forged, "w", format=tarfile.GNU_FORMAT) as target:
        for member in source:
            if member.name != "manifest.json":
                target.addfile(member, source.extractfile(member) if member.isfile() else None)
    (tmp_path / "sparse").mkdir()
    with open(tmp_path / "sparse" / "manifest.json", "wb") as f:
        f.truncate(2**40)
    subprocess.run(["tar", "--sparse", "-rf", forged, "-C", tmp_path / "sparse", "manifest.json"], check=True)
    ran = gm("restore", forged, tmp_path / "new-home")
    assert ran.code == 1 and ran.err == (
        f"Error: {forged} cannot be restored: its manifest.json is 1,099,511,627,776 bytes (gm writes at most "
        "1,073,741,824, and never a sparse one). Nothing was changed. Use another backup.\n"
    )
    assert not (tmp_path / "new-home").exists()


def _cheat(backup: Path, tmp_path: Path) -> Path:
    """The backup with Ann's payment made 100 credits larger, her running balances with it, and
    the manifest's size and SHA-256 of the database made to agree: every check but the signature's
    passes (as a forger who read the source would make it)."""
    database = tmp_path / "cheat.db"
    database.write_bytes(members(backup)["home/gm.db"])
    conn = sqlite3.connect(database)
    with conn:
        conn.execute("DROP TRIGGER ledger_no_update")
        ann = conn.execute("SELECT id FROM accounts WHERE email = 'ann@example.org'").fetchone()[0]
        conn.execute("UPDATE ledger SET credits = credits + 100 WHERE account_id = ? AND kind = 'payment'", [ann])
        conn.execute("UPDATE ledger SET balance = balance + 100 WHERE account_id = ?", [ann])
        conn.execute(
            "CREATE TRIGGER ledger_no_update BEFORE UPDATE ON ledger "
            "BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END"
        )
    conn.close()
    cheat = tmp_path / "cheat.tar"
    rewrite(backup, cheat, {"home/gm.db": database.read_bytes()}, fix_manifest=True, resign=False)
    return cheat


def test_a_backup_changed_with_every_hash_made_to_agree_is_refused_by_its_signature(home, gm, played, tmp_path):
    backup = tmp_path / "b.tar"
    made = gm("backup", backup, home=home)
    assert made.code == 0 and "Signed with" in made.out and str(default_key_path()) in made.out
    assert default_key_path().stat().st_mode & 0o077 == 0  # the GM's only
    assert SIGNATURE in members(backup)
    cheat = _cheat(backup, tmp_path)
    for how in ((), ("--unsigned",)):  # --unsigned is for a backup without a signature, not a wrong one
        ran = gm("restore", cheat, tmp_path / "new-home", *how)
        assert (ran.code, ran.out) == (1, "")
        assert ran.err == (
            f"Error: {cheat} does not match its signature with the backup key {default_key_path()}: it was "
            "changed after 'gm backup' wrote it, or signed with another key. Nothing was changed.\n"
        )
        assert not (tmp_path / "new-home").exists()
    ran = gm("restore", backup, tmp_path / "new-home")  # the backup as gm wrote it
    assert ran.code == 0 and f"Its signature matches the backup key {default_key_path()}.\n" in ran.out
    assert gm("backup", tmp_path / "second.tar", home=home).out.count(
        f"Signed with the backup key {default_key_path()}."
    )


def test_an_unsigned_backup_is_restored_only_with_unsigned(home, gm, played, tmp_path):
    backup = tmp_path / "b.tar"
    assert gm("backup", backup, home=home).code == 0
    old = tmp_path / "old.tar"  # as a gm before signed backups wrote it: no manifest.sig
    with tarfile.open(backup) as source, tarfile.open(old, "w") as target:
        for member in source:
            if member.name != SIGNATURE:
                target.addfile(member, source.extractfile(member) if member.isfile() else None)
    ran = gm("restore", old, tmp_path / "new-home")
    assert (ran.code, ran.err) == (
        1,
        f"Error: {old} is not signed (gm before backups were signed made it, or its manifest.sig was taken out): "
        "give --unsigned to restore it only if you know where it comes from. Nothing was changed.\n",
    )
    assert not (tmp_path / "new-home").exists()
    ran = gm("restore", old, tmp_path / "new-home", "--unsigned")
    assert ran.code == 0 and "restored unsigned (--unsigned): nothing proves it is as gm wrote it" in ran.err
    assert table_dump(tmp_path / "new-home") == table_dump(home)


def test_the_backup_key_stays_outside_the_home_and_a_restore_elsewhere_needs_it(home, gm, played, tmp_path):
    inside = gm("backup", tmp_path / "b.tar", "--key", home / "backup.key", home=home)
    assert inside.code == 1 and inside.err.startswith(f"Error: the backup key {home / 'backup.key'} is inside the home")
    assert not (home / "backup.key").exists() and not (tmp_path / "b.tar").exists()
    made = gm("backup", tmp_path / "b.tar", "--key", tmp_path / "keys" / "gm.key", home=home)
    assert f"Signed with a new backup key, {tmp_path / 'keys' / 'gm.key'}: gm restore needs it." in made.out
    assert gm("backup", tmp_path / "c.tar", home=home).code == 0  # the default key made, if it was not
    ran = gm("restore", tmp_path / "b.tar", tmp_path / "new-home", "--key", tmp_path / "elsewhere.key")
    assert ran.code == 1 and ran.err == (
        f"Error: {tmp_path / 'b.tar'} is signed, and there is no backup key at {tmp_path / 'elsewhere.key'} to check "
        "it: copy the key of the machine that made the backup there, or give --key FILE (or --unsigned, if the key "
        "is lost). Nothing was changed.\n"
    )
    wrong = gm("restore", tmp_path / "b.tar", tmp_path / "new-home")  # the session's default key: another one
    assert wrong.code == 1 and "or signed with another key. Nothing was changed." in wrong.err
    assert not (tmp_path / "new-home").exists()
    ran = gm("restore", tmp_path / "b.tar", tmp_path / "new-home", "--key", tmp_path / "keys" / "gm.key")
    assert ran.code == 0, ran.err


def test_a_signature_member_past_a_thousand_bytes_is_refused_unread(home, gm, played, tmp_path):
    """gm writes a signature of 78 bytes; one of 1,001 is refused for its size before it is read
    or compared (one of 1,000 is read, and fails as a wrong signature does)."""
    backup = tmp_path / "b.tar"
    assert gm("backup", backup, home=home).code == 0
    large, wrong = tmp_path / "large.tar", tmp_path / "wrong.tar"
    rewrite(backup, large, {SIGNATURE: b"s" * 1_001}, resign=False)
    rewrite(backup, wrong, {SIGNATURE: b"s" * 1_000}, resign=False)
    ran = gm("restore", large, tmp_path / "new-home")
    assert (ran.code, ran.err) == (
        1,
        f"Error: {large} cannot be restored: its manifest.sig is 1,001 bytes (gm writes at most 1,000, and never a "
        "sparse one). Nothing was changed. Use another backup.\n",
    )
    ran = gm("restore", wrong, tmp_path / "new-home")
    assert ran.code == 1 and f"Error: {wrong} does not match its signature with the backup key" in ran.err
    assert not (tmp_path / "new-home").exists()
