"""Intake fixtures: a GM home with a game and the GM's mail address set."""

from __future__ import annotations

import hashlib
import shutil
import tempfile
from pathlib import Path

import pytest

from tests.intake.mails import configure, set_mail_address


@pytest.fixture
def mail_home(home, game):
    """The `game` fixture's home (clash game g1, four seats) with [mail] address set; returns the secrets."""
    set_mail_address(home)
    return game


@pytest.fixture(scope="session")
def dovecot():
    """Dovecot (Debian's dovecot-imapd) on 127.0.0.1 for the whole session; any user, one password."""
    from tests.intake.dovecot import DOVECOT, Dovecot

    if not Path(DOVECOT).exists():
        pytest.skip("dovecot-imapd is not installed (make test installs it)")
    # Not under pytest's temp folder: that is private to this user, and Dovecot, run as root,
    # reads the mail as nobody, who must be able to pass through the folders above the Maildirs.
    folder = Path(tempfile.mkdtemp(prefix="gm-dovecot-"))
    folder.chmod(0o711)
    server = Dovecot(folder)
    yield server
    server.stop()
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def imap_user(dovecot, home, mail_home, monkeypatch, request):
    """A fresh IMAP user for this test, and gm.toml pointing at its INBOX."""
    from tests.intake.dovecot import PASSWORD

    user = "gm-" + hashlib.sha1(request.node.nodeid.encode()).hexdigest()[:12]
    configure(home, dovecot.settings(user))
    monkeypatch.setenv("GM_TEST_IMAP_PASSWORD", PASSWORD)
    return user


@pytest.fixture
def used_readers(monkeypatch):
    """Records the Readers each intake run used, to see who read what (batches_read)."""
    from gm.intake.readers import Readers

    used = []
    real_init = Readers.__init__

    def init(self, *args):
        real_init(self, *args)
        used.append(self)

    monkeypatch.setattr(Readers, "__init__", init)
    return used
