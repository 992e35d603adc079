"""The GM home: where the database, the archive, reports, the outbox and gm.toml live."""
from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass
from pathlib import Path

from gm.errors import GMError

DEFAULT_TOML = """\
# gm settings for this GM home. Every value here has a default; change what you need.

[submissions]
# Largest turn file accepted, in bytes.
max_bytes = 1000000

[reports]
# Render workers for PDF reports; 0 means one per CPU core.
workers = 0
"""


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

    def settings(self) -> dict:
        try:
            return tomllib.loads(self.settings_file.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except tomllib.TOMLDecodeError as exc:
            raise GMError(f"{self.settings_file} is not valid TOML ({exc}). Fix the file and try again.")

    def setting(self, section: str, key: str, default):
        value = self.settings().get(section, {}).get(key, default)
        if type(value) is not type(default):
            raise GMError(f"{self.settings_file}: [{section}] {key} must be a {type(default).__name__}.")
        return value


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


def require_home(home: Home) -> Home:
    if not home.database.exists():
        raise GMError(f"no GM home at {home.root}. Run 'gm init --home {home.root}' first, or set GM_HOME.")
    return home
