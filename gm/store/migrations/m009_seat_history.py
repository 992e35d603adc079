"""seat_players records who plays each seat from which turn, the players who joined too, so a
game's starting state can be made again after a standby took a seat (gm turn verify).

Until now only take-overs were recorded: a seat's first player is the account its 'seat join'
audit entry names (the seat's account now, when nobody took it over).
"""

from __future__ import annotations

import sqlite_utils

from gm.store.migrations import run_script


def migrate(db: sqlite_utils.Database) -> None:
    run_script(
        db,
        """
        INSERT INTO seat_players (seat_id, account_id, from_turn, reason, at)
        SELECT s.id, COALESCE(CASE WHEN EXISTS (SELECT 1 FROM seat_players p WHERE p.seat_id = s.id) THEN
                   (SELECT a.id FROM audit au JOIN accounts a ON a.email = json_extract(au.detail, '$.email')
                     WHERE au.game_id = s.game_id AND au.action = 'seat join'
                       AND json_extract(au.detail, '$.seat') = s.code ORDER BY au.id LIMIT 1) END,
                   s.account_id),
               1, 'joined', s.joined
          FROM seats s ORDER BY s.id;
        CREATE INDEX seat_players_seat ON seat_players (seat_id, from_turn);
        """,
    )
