"""gm init: create a GM home."""

from __future__ import annotations

from gm.cli.common import HomeOption
from gm.cli.shown import echo
from gm.home import create_home, resolve_home
from gm.store.database import open_database


def init(home: HomeOption = None) -> None:
    """Create a GM home: database, archive, reports, outbox, templates and gm.toml."""
    where = resolve_home(home)
    created = create_home(where)
    open_database(where.database).conn.close()
    echo(f"{'Created' if created else 'Checked'} GM home {where.root}")
    if created:
        echo(f"Settings: {where.settings_file}. Next: gm game new NAME --ruleset clash --home {where.root}")
