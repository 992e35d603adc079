"""What every command shares: the --home option, opening the home, the clock."""
from __future__ import annotations

from typing import Annotated, Optional

import typer

from gm.clock import SystemClock
from gm.home import require_home, resolve_home
from gm.store.database import open_database

HomeOption = Annotated[
    Optional[str],
    typer.Option("--home", help="The GM home folder (default: $GM_HOME, else ./gm-home).", show_default=False),
]


def open_home(option: str | None):
    """(home, database) for a command; a clear error when the home does not exist."""
    home = require_home(resolve_home(option))
    return home, open_database(home.database)


# The one clock every command reads; tests replace it to move time (gm.clock.FixedClock).
CLOCK = SystemClock()


def clock():
    return CLOCK
