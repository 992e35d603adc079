"""A throw-away Dovecot IMAP server on loopback, run in the foreground by the tests."""

from __future__ import annotations

import grp
import imaplib
import mailbox
import os
import pwd
import shutil
import socket
import subprocess
import time
from pathlib import Path

DOVECOT = shutil.which("dovecot") or "/usr/sbin/dovecot"
PASSWORD = "imap-test-password"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def mail_owner() -> tuple[int, int]:
    """Who owns the Maildirs: this user, or nobody when the tests run as root (Dovecot refuses uid 0)."""
    if os.getuid() != 0:
        return os.getuid(), os.getgid()
    nobody = pwd.getpwnam("nobody")
    return nobody.pw_uid, nobody.pw_gid


def certificate(folder: Path) -> tuple[Path, Path] | None:
    """A throw-away self-signed certificate for 127.0.0.1 (None without openssl)."""
    if shutil.which("openssl") is None:
        return None
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            str(key),
            "-out",
            str(cert),
            "-days",
            "2",
            "-subj",
            "/CN=127.0.0.1",
            "-addext",
            "subjectAltName=IP:127.0.0.1",
        ],
        check=True,
        capture_output=True,
    )
    return cert, key


def config(folder: Path, port: int, tls_port: int, tls: tuple[Path, Path] | None) -> str:
    """IMAP on 127.0.0.1 (STARTTLS offered, plain allowed) and IMAPS on tls_port when there is a
    certificate; any user name with PASSWORD; Maildirs under folder/home/<user>."""
    uid, gid = mail_owner()
    ssl = ["ssl = yes", f"ssl_cert = <{tls[0]}", f"ssl_key = <{tls[1]}"] if tls else ["ssl = no"]
    lines = [
        "protocols = imap",
        "listen = 127.0.0.1",
        *ssl,
        "disable_plaintext_auth = no",
        f"base_dir = {folder}/run",
        f"state_dir = {folder}/state",
        "log_path = /dev/stderr",
        "info_log_path = /dev/null",
        "mail_location = maildir:~/Maildir",
        f"first_valid_uid = {uid}",
        f"first_valid_gid = {gid}",
        "passdb {",
        "  driver = static",
        f"  args = password={PASSWORD}",
        "}",
        "userdb {",
        "  driver = static",
        f"  args = uid={uid} gid={gid} home={folder}/home/%u",
        "}",
        "service imap-login {",
        "  inet_listener imap {",
        "    address = 127.0.0.1",
        f"    port = {port}",
        "  }",
        "  inet_listener imaps {",
        "    address = 127.0.0.1",
        f"    port = {tls_port if tls else 0}",
        "  }",
    ]
    if uid == 0:
        # As root Dovecot wants unprivileged users for its helpers, and no chroot of its own.
        user, group = pwd.getpwnam("nobody").pw_name, grp.getgrgid(pwd.getpwnam("nobody").pw_gid).gr_name
        lines += [
            "  chroot =",
            "}",
            "service anvil {",
            "  chroot =",
            "}",
            f"default_internal_user = {user}",
            f"default_internal_group = {group}",
            f"default_login_user = {user}",
        ]
    else:
        user = pwd.getpwuid(uid).pw_name
        lines += [
            "  chroot =",
            "}",
            "service anvil {",
            "  chroot =",
            "}",
            f"default_internal_user = {user}",
            f"default_login_user = {user}",
            f"default_internal_group = {grp.getgrgid(os.getgid()).gr_name}",
        ]
    return "\n".join(lines) + "\n"


class Dovecot:
    """dovecot -F with a config in a temp folder; deliver() drops mail into a user's Maildir."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.port, self.tls_port = free_port(), free_port()
        (folder / "home").mkdir(parents=True)
        self.tls = certificate(folder)
        conf = folder / "dovecot.conf"
        conf.write_text(config(folder, self.port, self.tls_port, self.tls))
        self.process = subprocess.Popen(
            [DOVECOT, "-F", "-c", str(conf)], stdout=subprocess.DEVNULL, stderr=open(folder / "dovecot.log", "wb")
        )
        self._wait_until_listening()

    def _wait_until_listening(self) -> None:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError("dovecot stopped: " + (self.folder / "dovecot.log").read_text())
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.02)
        raise RuntimeError("dovecot did not listen within 10 s")

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def deliver(self, user: str, raws: list[bytes]) -> None:
        home = self.folder / "home" / user
        home.mkdir(parents=True, exist_ok=True)
        box = mailbox.Maildir(home / "Maildir", create=True)
        for raw in raws:
            box.add(raw)
        uid, gid = mail_owner()
        for path in [home, *home.rglob("*")]:
            os.chown(path, uid, gid)

    def login(self, user: str) -> imaplib.IMAP4:
        connection = imaplib.IMAP4("127.0.0.1", self.port, timeout=10)
        connection.login(user, PASSWORD)
        return connection

    def settings(self, user: str) -> dict:
        """gm.toml settings for reading this user's INBOX."""
        return {
            "imap.host": "127.0.0.1",
            "imap.port": self.port,
            "imap.security": "none",
            "imap.user": user,
            "imap.password_env": "GM_TEST_IMAP_PASSWORD",
        }
