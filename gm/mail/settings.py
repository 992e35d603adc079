"""Mail settings from gm.toml: [mail], and the [smtp]/[imap] servers with their passwords."""

from __future__ import annotations

import ipaddress
import os
from dataclasses import dataclass
from email.headerregistry import Address
from pathlib import Path

from gm.errors import GMError
from gm.home import Home

_SECURITY = ("tls", "starttls", "none")
# The most reader processes [mail] readers may ask for (as `gm inbox import --readers`).
MOST_READERS = 64


def mailable(address: str) -> bool:
    """Whether gm may mail an address: never one at .invalid (RFC 2606 reserves it), which is where
    the seats nobody reads stand (robots, the demo's, a forgotten player's pseudonym)."""
    return not address.lower().endswith(".invalid")


@dataclass(frozen=True)
class MailSettings:
    """[mail]: the GM's address and name (From of every mail gm sends), the transport ("smtp" or
    "folder"), the folder for "folder", answers per address and hour, tries before giving up,
    the largest mail intake reads, answers per hour to all addresses that hold no seat here,
    the processes that read a big mailbox (0: one per CPU; 1: none, read in the deciding one)."""

    address: str
    name: str
    transport: str
    folder: Path
    replies_per_hour: int
    max_attempts: int
    max_message_bytes: int
    stranger_replies_per_hour: int
    readers: int

    @property
    def domain(self) -> str:
        return self.address.rpartition("@")[2] or "gm.invalid"

    def sender(self) -> Address:
        if not self.address:
            raise GMError("gm.toml has no [mail] address: set it to the address players write to, then try again.")
        try:
            return Address(self.name, addr_spec=self.address)
        except (ValueError, IndexError) as exc:
            raise GMError(f"gm.toml: [mail] address '{self.address}' is not an e-mail address ({exc}).") from exc


def mail_settings(home: Home) -> MailSettings:
    transport = home.setting("mail", "transport", "folder")
    if transport not in ("smtp", "folder"):
        raise GMError(f'{home.settings_file}: [mail] transport must be "smtp" or "folder", not "{transport}".')
    folder = home.setting("mail", "folder", "")
    readers = home.setting("mail", "readers", 1)
    if not 0 <= readers <= MOST_READERS:
        raise GMError(
            f"{home.settings_file}: [mail] readers must be 0 (one per CPU) to {MOST_READERS}, not {readers}. "
            "Fix the file and try again."
        )
    return MailSettings(
        address=home.setting("mail", "address", "").strip(),
        name=home.setting("mail", "name", "Game Master"),
        transport=transport,
        folder=(home.root / folder) if folder else home.outbox,
        replies_per_hour=home.setting("mail", "replies_per_hour", 20),
        max_attempts=home.setting("mail", "max_attempts", 8),
        max_message_bytes=home.setting("mail", "max_message_bytes", 10_000_000),
        stranger_replies_per_hour=home.setting("mail", "stranger_replies_per_hour", 60),
        readers=readers,
    )


@dataclass(frozen=True)
class Server:
    """An [smtp] or [imap] section: host, port, security (tls, starttls, none), user, where the
    password is (an environment variable, or a file), a CA file for a private certificate."""

    section: str
    host: str
    port: int
    security: str
    user: str
    password_env: str
    password_file: str
    ca_file: str
    timeout: int

    @property
    def name(self) -> str:
        return f"{self.host}:{self.port}"

    def password(self) -> str:
        """The password from the environment or the file; never from gm.toml or the command line."""
        if self.password_env and os.environ.get(self.password_env):
            return os.environ[self.password_env]
        if self.password_file:
            try:
                return Path(self.password_file).expanduser().read_text(encoding="utf-8").strip()
            except OSError as exc:
                raise GMError(
                    f"cannot read the [{self.section}] password_file {self.password_file}: {exc.strerror}."
                ) from exc
        if not self.user:
            return ""
        raise GMError(
            f"no password for the {self.section.upper()} user {self.user}: set the environment variable "
            f"{self.password_env or '(see [' + self.section + '] password_env)'} or [{self.section}] password_file."
        )


def server_settings(home: Home, section: str, port: int, security: str) -> Server:
    server = Server(
        section=section,
        host=home.setting(section, "host", ""),
        port=home.setting(section, "port", port),
        security=home.setting(section, "security", security),
        user=home.setting(section, "user", ""),
        password_env=home.setting(section, "password_env", f"GM_{section.upper()}_PASSWORD"),
        password_file=home.setting(section, "password_file", ""),
        ca_file=home.setting(section, "ca_file", ""),
        timeout=home.setting(section, "timeout", 60),
    )
    if not server.host:
        raise GMError(
            f"gm.toml has no [{section}] host: set host, port and user there (see README, 'Taking turns by mail')."
        )
    if server.security not in _SECURITY:
        raise GMError(f"{home.settings_file}: [{section}] security must be one of {', '.join(_SECURITY)}.")
    if server.security == "none" and not is_loopback(server.host):
        raise GMError(
            f'[{section}] security = "none" would send the password unencrypted to {server.host}; '
            'it is allowed only for a server on this machine (127.0.0.1). Use "tls" or "starttls".'
        )
    return server


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
