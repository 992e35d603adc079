"""The GM home: where the database, the archive, reports, the outbox and gm.toml live."""

from __future__ import annotations

import os
import stat
import tomllib
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any, TypeVar

from gm.errors import GMError

DEFAULT_TOML = """\
# gm settings for this GM home. Every value here has a default; change what you need.

[submissions]
# Largest turn file accepted, in bytes.
max_bytes = 1000000

[reports]
# Render workers for PDF reports; 0 means one per CPU core.
workers = 0
# A report's budget. One that would be longer than max_pages pages, or take a render worker more
# than max_cpu_seconds of CPU, is not made: its seat gets a short report saying so, the rest of
# the game is published, and the GM is told. A worker whose CPU time stands still for
# stall_seconds while it renders (stopped, stuck) is replaced and the report tried once more.
max_pages = 60
max_cpu_seconds = 30
stall_seconds = 30

[archive]
# The archive of everything players sent may grow to this many megabytes; past it, gm run-due
# and gm doctor say so, and 'gm archive prune' removes what nothing kept needs.
budget_mb = 2000

[mail]
# The address players send turn files to; every mail gm sends comes from it (and this name).
address = ""
name = "Game Master"
# How mail leaves with 'gm mail send': "smtp" (the [smtp] server below) or "folder" (.eml files
# written into the outbox/ folder of this home, or into the folder named here; nothing is sent).
transport = "folder"
folder = ""
# Answers (acknowledgements, reports sent again) to one address per hour; past that a mail is
# taken but not answered, so two robots cannot answer each other for ever.
replies_per_hour = 20
# Answers in all, per hour, to addresses that hold no seat here and confirmed no sign-up (questions,
# sign-ups, refusals): anyone can write any From, so a flood of forged senders gets no more than
# this many answers, never one each. Players' own addresses are not counted.
stranger_replies_per_hour = 60
# Temporary failures (4xx, no connection) are tried again 5 min, 10 min, ... later, this many times.
max_attempts = 8
# A larger mail is archived and refused unread.
max_message_bytes = 10000000
# Processes that read a big mailbox (archive, parse, find the turn files) ahead of the one that
# decides ('gm inbox import' and 'fetch', 'gm run-due'). 1 reads in that one process: the least
# CPU. 2 or more take less time where cores are idle, for about a fifth more CPU in all (0.2 ms
# a message); 0 means one per CPU core (docs/mail.md, "Big mailboxes").
readers = 1
# A player's export asked for by mail (EXPORT) is attached up to this size; a larger one the GM sends.
max_attachment_bytes = 5000000

[imap]
# 'gm inbox fetch' reads this folder. security: "tls" (port 993) or "starttls" (port 143).
host = ""
port = 993
security = "tls"
user = ""
# The password comes from this environment variable, or from password_file; never from here.
password_env = "GM_IMAP_PASSWORD"
password_file = ""
# A CA certificate file, for a server with a private certificate.
ca_file = ""
folder = "INBOX"
# After a message is stored: "flag" it (keyword $GmTaken, and read) or "move" it to move_to.
after = "flag"
move_to = "gm-taken"

[smtp]
# 'gm mail send' with transport = "smtp". security: "starttls" (port 587) or "tls" (port 465).
host = ""
port = 587
security = "starttls"
user = ""
password_env = "GM_SMTP_PASSWORD"
password_file = ""
ca_file = ""

[credits]
# What players read when a report is held for credits (a held notice, the portal): the price of
# turn credits and how to pay, in your words, e.g. price = "2.50 EUR a turn; 10 turns for 22.50 EUR"
# and how_to_pay = "PayPal to pay@example.org, with your e-mail address as the reference".
# Left empty, players are told to write to the [mail] address to ask.
price = ""
how_to_pay = ""

[portal]
# The player portal (gm serve). Its address as players reach it: one-time sign-in links start with it.
base_url = "http://127.0.0.1:8000"
# How long a sign-in lasts, in hours, and a one-time sign-in link, in minutes.
session_hours = 12
link_minutes = 60
# Failed sign-ins allowed from one address within the window (seconds) before it must wait; the
# same for wrong secrets in mailed turn files, per sender and per seat (docs/mail.md, "Limits").
sign_in_failures = 10
sign_in_window = 300
# A player who lost the secret may ask the sign-in page for a link by mail: at most one per seat
# in this many minutes (0: no limit), and this many requests from one client address an hour.
mailed_link_minutes = 10
link_requests_per_hour = 10
# The reverse proxies (addresses or networks) whose X-Forwarded-For names the client; [] for none.
trusted_proxies = ["127.0.0.1", "::1"]
# Send the session cookie over HTTPS only: set true when a TLS proxy serves the portal.
secure_cookies = false
# The GMs' portal passwords are kept hashed in the database: 'gm portal password' sets yours,
# 'gm gm password NAME' another GM's (a gm_password_hash line here, from before, moves there).
"""

# A setting's value: of its default's type (Home.setting checks it).
_Value = TypeVar("_Value")


@dataclass(frozen=True)
class Home:
    """A GM home folder and its parts."""

    root: Path

    @property
    def database(self) -> Path:
        return self.root / "gm.db"

    @property
    def archive(self) -> Path:
        return self.root / "archive"

    @property
    def reports(self) -> Path:
        return self.root / "reports"

    @property
    def outbox(self) -> Path:
        return self.root / "outbox"

    @property
    def templates(self) -> Path:
        """Templates here override gm's and the rulesets' own."""
        return self.root / "templates"

    @property
    def locks(self) -> Path:
        return self.root / "locks"

    @property
    def settings_file(self) -> Path:
        return self.root / "gm.toml"

    @cached_property
    def _settings_path(self) -> str:
        return str(self.settings_file)

    def settings(self) -> dict[str, Any]:
        """gm.toml, parsed; read again only when the file changes (a server asks on every request)."""
        # One stat a call, not two (intake asks twice a turn file): its mode says a file or not.
        # Its name as text, made once: building the Path cost more than the stat.
        path = self._settings_path
        try:
            status = os.stat(path)
        except FileNotFoundError:
            return {}
        if not stat.S_ISREG(status.st_mode):
            raise GMError(f"{path} must be a file (gm's settings), not a folder.")
        return _read_settings(path, status.st_mtime_ns, status.st_size)

    def setting(self, section: str, key: str, default: _Value) -> _Value:
        """gm.toml's [section] key, or default when it is not set; a clear error when the value
        is not of the default's type."""
        table = self.settings().get(section, {})
        if not isinstance(table, dict):
            raise GMError(f"{self.settings_file}: {section} must be a [{section}] section. Fix the file and try again.")
        value = table.get(key, default)
        if type(value) is not type(default):
            kind = {"int": "a whole number", "str": "text in quotes", "bool": "true or false"}.get(
                type(default).__name__, type(default).__name__
            )
            raise GMError(
                f"{self.settings_file}: [{section}] {key} must be {kind}, not {value!r}. Fix the file and try again."
            )
        return value


@lru_cache(maxsize=16)
def _read_settings(path: str, mtime_ns: int, size: int) -> dict[str, Any]:
    try:
        return tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as exc:
        raise GMError(f"cannot read {path} ({exc}). It must be a UTF-8 text file.") from exc
    except tomllib.TOMLDecodeError as exc:
        raise GMError(f"{path} is not valid TOML ({exc}). Fix the file and try again.") from exc


def resolve_home(option: str | None) -> Home:
    """The home named by --home, else GM_HOME, else ./gm-home."""
    chosen = option or os.environ.get("GM_HOME") or "gm-home"
    return Home(Path(chosen).expanduser().resolve())


def create_home(home: Home) -> bool:
    """Make the folders and gm.toml; returns False when the home already existed."""
    existed = home.settings_file.exists()
    if home.root.exists() and not home.root.is_dir():
        raise GMError(f"{home.root} exists and is not a folder. Choose another --home.")
    for folder in (home.root, home.archive, home.reports, home.outbox, home.templates, home.locks):
        folder.mkdir(parents=True, exist_ok=True)
    if not existed:
        home.settings_file.write_text(DEFAULT_TOML, encoding="utf-8")
    return not existed


def render_workers(home: Home) -> int:
    """Render worker processes for this home: [reports] workers in gm.toml, 0 meaning one per CPU."""
    configured = home.setting("reports", "workers", 0)
    return configured if configured > 0 else (os.cpu_count() or 1)


def require_home(home: Home) -> Home:
    if not home.database.exists():
        raise GMError(f"no GM home at {home.root}. Run 'gm init --home {home.root}' first, or set GM_HOME.")
    return home
