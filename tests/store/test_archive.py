"""The raw archive: stored once by SHA-256, and the bytes and the new name both forced to disk."""

from __future__ import annotations

import hashlib
import os
import stat

from gm.store import archive


def test_archive_stores_once_under_its_digest(tmp_path):
    digest = archive.archive_bytes(tmp_path, b"GAME g1\nEND\n")
    assert digest == hashlib.sha256(b"GAME g1\nEND\n").hexdigest()
    assert archive.archived_path(tmp_path, digest).read_bytes() == b"GAME g1\nEND\n"
    assert archive.archive_bytes(tmp_path, b"GAME g1\nEND\n") == digest
    assert [p.name for p in (tmp_path / digest[:2]).iterdir()] == [digest]  # no temporary file left


def test_archive_forces_the_file_and_its_folder_to_disk(tmp_path, monkeypatch):
    # A rename is durable only once the folder holding the new name is synced as well.
    synced = []
    real_fsync = os.fsync

    def fsync(descriptor):
        synced.append(stat.S_ISDIR(os.fstat(descriptor).st_mode))
        real_fsync(descriptor)

    monkeypatch.setattr(archive.os, "fsync", fsync)
    archive.archive_bytes(tmp_path, b"orders")
    assert synced == [False, True]
    synced.clear()
    archive.archive_bytes(tmp_path, b"orders")  # already there: nothing written, nothing synced
    assert synced == []
