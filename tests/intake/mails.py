"""Building test mails and running mail commands: turn files, plain mails, stdin for 'gm inbox receive'."""

from __future__ import annotations

import io
import re
import sqlite3
import sys
from email import policy
from email.message import EmailMessage

GM_ADDRESS = "gm@example.org"


def turn_file(secret: str, body: str = "CLAIM ENG SCO WAL", seat: str = "BR", game: str = "g1") -> str:
    return f"GAME {game}\nPLAYER {seat}\nPASSWORD {secret}\n{body}\nEND\n"


def mail(
    text: str,
    sender: str = "Ann <ann@example.org>",
    subject: str = "orders",
    message_id: str | None = "<1@example.org>",
    **headers,
) -> bytes:
    """A plain text mail as most programs send it (UTF-8)."""
    message = EmailMessage()
    message["From"] = sender
    message["To"] = GM_ADDRESS
    message["Subject"] = subject
    if message_id:
        message["Message-ID"] = message_id
    for name, value in headers.items():
        message[name.replace("_", "-")] = value
    message.set_content(text)
    return message.as_bytes(policy=policy.SMTP)


def configure(home, settings: dict) -> None:
    """Change gm.toml values in place: {"smtp.port": 2525, "mail.transport": "smtp"}."""
    path = home / "gm.toml"
    lines, section = [], ""
    for line in path.read_text().splitlines():
        if line.startswith("["):
            section = line.strip("[] ")
        key = line.split("=")[0].strip()
        if f"{section}.{key}" in settings and "=" in line and not line.startswith("#"):
            value = settings[f"{section}.{key}"]
            line = f"{key} = " + (f'"{value}"' if isinstance(value, str) else str(value).lower())
        lines.append(line)
    path.write_text("\n".join(lines) + "\n")


def set_mail_address(home, address: str = GM_ADDRESS) -> None:
    """Point gm.toml's [mail] address at the GM's address."""
    configure(home, {"mail.address": address})


def receive(gm, monkeypatch, raw: bytes, home, *args: str):
    """Run 'gm inbox receive' with raw on standard input."""
    stream = io.TextIOWrapper(io.BytesIO(raw))
    monkeypatch.setattr(sys, "stdin", stream)
    return gm("inbox", "receive", *args, home=home)


def rows(home, sql: str, *params) -> list:
    conn = sqlite3.connect(home / "gm.db")
    try:
        return conn.execute(sql, params).fetchall()
    finally:
        conn.close()


def outbox_bodies(home) -> list[tuple]:
    return rows(home, "SELECT kind, recipient, subject, body FROM outbox ORDER BY id")


def confirmation_code(home, address: str) -> str:
    """The code of the last sign-up confirmation gm queued for an address."""
    bodies = [body for kind, to, subject, body in outbox_bodies(home) if to == address and "CONFIRM" in body]
    return re.search(r"^  CONFIRM (\S+)$", bodies[-1], re.MULTILINE)[1]


def signed_up(gm, monkeypatch, home, sender: str, n: int, target: str = "c2"):
    """JOIN from `sender` ("Ann <ann@example.org>"), then CONFIRM with the code gm mailed there,
    as a player does; the confirmation's run."""
    receive(gm, monkeypatch, mail(f"JOIN {target}", sender=sender, subject="join", message_id=f"<j{n}@x>"), home)
    address = sender.split("<")[-1].rstrip(">")
    code = confirmation_code(home, address)
    return receive(gm, monkeypatch, mail(f"CONFIRM {code}", sender=sender, message_id=f"<c{n}@x>"), home)


def joined(gm, monkeypatch, home, join: bytes, sender: str = "Ann <ann@example.org>"):
    """A JOIN mail received, then confirmed with the code gm mailed back to its sender, as a
    player does (a sign-up counts once confirmed); the confirmation's run."""
    assert receive(gm, monkeypatch, join, home).code == 0
    code = confirmation_code(home, sender.split("<")[-1].rstrip(">"))
    return receive(gm, monkeypatch, mail(f"CONFIRM {code}", sender=sender, message_id="<confirm@x>"), home)
