"""The portal_links table: one-time sign-in links, each usable once before it expires."""

from __future__ import annotations

from typing import cast

import sqlite_utils


def add_link(db: sqlite_utils.Database, nonce: str, seat_id: int, created: str, expires: str) -> None:
    db.table("portal_links").insert(
        {"id": nonce, "seat_id": seat_id, "created": created, "expires": expires, "used": None}
    )


def use_link(db: sqlite_utils.Database, nonce: str, now: str) -> int | None:
    """The seat id of the link, marking it used; None when it is unknown, used or expired. The
    caller holds the transaction, so two requests cannot both use it."""
    row = db.execute(
        "SELECT seat_id FROM portal_links WHERE id = ? AND used IS NULL AND expires > ?", [nonce, now]
    ).fetchone()
    if row is None:
        return None
    db.execute("UPDATE portal_links SET used = ? WHERE id = ?", [now, nonce])
    return cast(int, row[0])
