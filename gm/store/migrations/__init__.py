"""Numbered schema migrations: each module mNNN_name.py here has migrate(db) and runs once.

They are found by name and applied in number order, so a new feature adds one file and
edits no list.
"""
from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from typing import Callable


@dataclass(frozen=True)
class Migration:
    name: str
    apply: Callable


def all_migrations() -> list[Migration]:
    names = sorted(m.name for m in pkgutil.iter_modules(__path__) if m.name[:1] == "m" and m.name[1:4].isdigit())
    return [Migration(name, importlib.import_module(f"{__name__}.{name}").migrate) for name in names]
